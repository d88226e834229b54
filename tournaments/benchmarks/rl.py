"""How fast the RL environments step, beside the raw engine (`azul-arena bench rl`).

Every measure plays random legal actions (drawn from the action mask, as a training loop
reads it) for about the same number of moves; the ratios to the engine are what to compare
between machines, the absolute figures depend on the machine and its load.
"""

from __future__ import annotations

import platform
import random
import time
from typing import Any

import numpy as np

from referee.engine import COMPILED
from tournaments.benchmarks.engine import random_playouts


def _aec_steps(ruleset: str, players: int, steps: int, seed: int) -> float:
    """Steps/s of the PettingZoo env (with its wrappers), observing before each step."""
    import sdk.rl

    env = sdk.rl.env(ruleset, players)
    env.reset(seed=seed)
    pick = random.Random(seed).random
    start = time.perf_counter()
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(pick() * len(legal))]))
    return steps / (time.perf_counter() - start)


def _gym_steps(ruleset: str, players: int, steps: int, seed: int) -> tuple[float, float]:
    """Learner steps/s of azul_arena/Azul-v0 against the random bot, and moves/s counting the
    opponents' moves (about players - 1 per step)."""
    import gymnasium

    import sdk.rl

    env = gymnasium.make(sdk.rl.GYM_ID, ruleset=ruleset, players=players, opponent="random")
    _, info = env.reset(seed=seed)
    pick = random.Random(seed).random
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(legal[int(pick() * len(legal))]))
        if terminated:
            _, info = env.reset()
    seconds = time.perf_counter() - start
    return steps / seconds, steps * players / seconds


def _vector_steps(ruleset: str, players: int, envs: int, steps: int, seed: int) -> float:
    """Moves/s of the self-play vector env: `envs` games a call, one move in each."""
    import sdk.rl

    env = sdk.rl.VectorEnv(envs, ruleset, players, seed=seed)
    _, info = env.reset()
    rng = np.random.default_rng(seed)
    calls = max(1, steps // envs)
    start = time.perf_counter()
    for _ in range(calls):
        mask = info["action_mask"]
        actions = (mask * rng.random(mask.shape)).argmax(axis=1)  # uniform among legal
        _, _, _, _, info = env.step(actions)
    return calls * envs / (time.perf_counter() - start)


def run_rl_bench(ruleset: str, players: int, steps: int, envs: int, seed: int) -> dict[str, Any]:
    random_playouts(ruleset, players, 20, seed)  # warm the engine's move tables
    seconds, moves = random_playouts(ruleset, players, max(1, steps // 70), seed)
    engine = moves / seconds
    aec = _aec_steps(ruleset, players, steps, seed)
    gym_steps, gym_moves = _gym_steps(ruleset, players, max(1, steps // players), seed)
    vector = _vector_steps(ruleset, players, envs, steps, seed)
    return {
        "ruleset": ruleset,
        "players": players,
        "steps": steps,
        "vector_envs": envs,
        "engine_moves_per_s": engine,
        "aec_steps_per_s": aec,
        "gym_steps_per_s": gym_steps,
        "gym_moves_per_s": gym_moves,
        "vector_steps_per_s": vector,
        "aec_vs_engine": aec / engine,
        "gym_vs_engine": gym_moves / engine,
        "vector_vs_engine": vector / engine,
        "python": platform.python_version(),
        "compiled": COMPILED,
    }
