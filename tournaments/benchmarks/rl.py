"""How fast the RL environments step, beside the raw engine (`azul-arena bench rl`).

Every measure plays random legal actions (drawn from the action mask, as a training loop
reads it) for about the same number of moves. It times the environment's own calls
(`*_steps_per_s`: what the goals are about) and the whole loop, the random agent's numpy pick
included (`*_loop_steps_per_s`). The ratios to the engine are what to compare between
machines; the absolute figures depend on the machine and its load. The measures take turns in
rounds, so that a change of load during the run falls on all of them alike.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from typing import Any

import numpy as np

from referee.engine import COMPILED
from tournaments.benchmarks.engine import random_playouts

ROUNDS = 5
MEASURES = (
    "engine_moves_per_s",
    "aec_steps_per_s",
    "aec_loop_steps_per_s",
    "gym_steps_per_s",
    "gym_loop_steps_per_s",
    "gym_moves_per_s",
    "vector_steps_per_s",
    "vector_loop_steps_per_s",
)


class Stopwatch:
    """The whole loop's time, and the part of it spent inside the environment's own calls (the
    agent's pick, numpy on the mask, is the agent's cost, not the environment's)."""

    def __init__(self) -> None:
        self.inside = 0.0
        self.started = time.perf_counter()

    def rates(self, steps: int) -> tuple[float, float]:
        """Steps/s inside the environment, and of the whole loop."""
        return steps / self.inside, steps / (time.perf_counter() - self.started)


def _aec_steps(ruleset: str, players: int, steps: int, seed: int) -> tuple[float, float]:
    """Steps/s of the PettingZoo env (with its wrappers), observing before each step."""
    import sdk.rl

    env = sdk.rl.env(ruleset, players)
    env.reset(seed=seed)
    pick = random.Random(seed).random
    clock = time.perf_counter
    watch = Stopwatch()
    for _ in range(steps):
        t0 = clock()
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            watch.inside += clock() - t0
            continue
        t1 = clock()
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[int(pick() * len(legal))])
        t2 = clock()
        env.step(action)
        watch.inside += clock() - t2 + t1 - t0
    return watch.rates(steps)


def _gym_steps(ruleset: str, players: int, steps: int, seed: int) -> tuple[float, float]:
    """Learner steps/s of azul_arena/Azul-v0 against the random bot (its moves are part of a
    step), inside the env and of the whole loop."""
    import gymnasium

    import sdk.rl

    env = gymnasium.make(sdk.rl.GYM_ID, ruleset=ruleset, players=players, opponent="random")
    _, info = env.reset(seed=seed)
    pick = random.Random(seed).random
    clock = time.perf_counter
    watch = Stopwatch()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[int(pick() * len(legal))])
        t0 = clock()
        _, _, terminated, _, info = env.step(action)
        if terminated:
            _, info = env.reset()
        watch.inside += clock() - t0
    return watch.rates(steps)


def _vector_steps(
    ruleset: str, players: int, envs: int, steps: int, seed: int
) -> tuple[float, float]:
    """Moves/s of the self-play vector env (`envs` games a call, one move in each), inside the
    env and of the whole loop."""
    import sdk.rl

    env = sdk.rl.VectorEnv(envs, ruleset, players, seed=seed)
    _, info = env.reset()
    rng = np.random.default_rng(seed)
    calls = max(1, steps // envs)
    clock = time.perf_counter
    watch = Stopwatch()
    for _ in range(calls):
        mask = info["action_mask"]
        noise = rng.random(mask.shape, dtype=np.float32)  # uniform among legal: a legal
        noise += mask  # action's noise is in [1, 2), an illegal one's in [0, 1)
        actions = noise.argmax(axis=1)
        t0 = clock()
        _, _, _, _, info = env.step(actions)
        watch.inside += clock() - t0
    return watch.rates(calls * envs)


def run_rl_bench(
    ruleset: str, players: int, steps: int, envs: int, seed: int, rounds: int = ROUNDS
) -> dict[str, Any]:
    """Each measure `rounds` times, the four in turn (A B C D A B C D ...), each round playing
    `steps / rounds` moves: a ratio is taken within a round, where the machine's load is about
    the same for the engine and the env, and the median over the rounds is reported (so are the
    median rates)."""
    random_playouts(ruleset, players, 20, seed)  # warm the engine's move tables
    share = max(100, steps // rounds)
    rates: dict[str, list[float]] = {key: [] for key in MEASURES}
    for r in range(rounds):
        seconds, moves = random_playouts(ruleset, players, max(1, share // 70), seed + r)
        rates["engine_moves_per_s"].append(moves / seconds)
        for name, (inside, loop) in (
            ("aec", _aec_steps(ruleset, players, share, seed + r)),
            ("gym", _gym_steps(ruleset, players, max(1, share // players), seed + r)),
            ("vector", _vector_steps(ruleset, players, envs, share, seed + r)),
        ):
            rates[f"{name}_steps_per_s"].append(inside)
            rates[f"{name}_loop_steps_per_s"].append(loop)
        rates["gym_moves_per_s"].append(rates["gym_steps_per_s"][-1] * players)
    engine = rates["engine_moves_per_s"]

    def ratio(key: str) -> float:
        return statistics.median(rate / e for rate, e in zip(rates[key], engine, strict=True))

    return {
        "ruleset": ruleset,
        "players": players,
        "steps": steps,
        "rounds": rounds,
        "vector_envs": envs,
        **{key: statistics.median(values) for key, values in rates.items()},
        "aec_vs_engine": ratio("aec_steps_per_s"),
        "gym_vs_engine": ratio("gym_moves_per_s"),
        "vector_vs_engine": ratio("vector_steps_per_s"),
        "python": platform.python_version(),
        "compiled": COMPILED,
    }
