"""The searching bots' speed of thought (`azul-arena bench thought`): simulations per second of
CPU of `mcts` and `expert` over the same positions in one run, beside the expert's exact
search's positions per second.

Each bot decides every sampled position with a fixed budget (`iterations` simulations) and a
fresh bot, so the figures do not depend on the clock: the CPU time of this thread (not the wall
clock) is what is divided, so a loaded machine slows the figures less than it slows a match.
"""

from __future__ import annotations

import platform
import time
from typing import Any

from bots.expert import ExpertBot
from bots.mcts_bot import MctsBot
from referee.engine import COMPILED, Game
from sdk.bot import Bot, Clock
from tournaments.benchmarks.engine import sample_positions

THINKERS: dict[str, type[Bot]] = {"mcts": MctsBot, "expert": ExpertBot}


def think_over(name: str, positions: list[Game], iterations: int) -> dict[str, Any]:
    """Bot `name` (THINKERS) decides every position at `iterations` simulations a move."""
    sims = solver_nodes = solved = searched = 0
    search_cpu = solve_cpu = 0.0
    for i, position in enumerate(positions):
        bot = THINKERS[name](seed=i, iterations=iterations)  # type: ignore[call-arg]
        bot.clock = Clock(move_time=3600.0)  # the budget is the iterations, not the clock
        began = time.thread_time()
        bot.choose_move(position.copy())
        spent = time.thread_time() - began
        if getattr(bot, "solved", False):  # the expert's exact search decided
            solved += 1
            solve_cpu += spent
            solver_nodes += getattr(bot, "solver_nodes", 0)
        else:
            searched += 1
            search_cpu += spent
            sims += getattr(bot, "simulations", 0)
    decisions = max(1, len(positions))
    return {
        "bot": name,
        "decisions": len(positions),
        "searched": searched,
        "solved": solved,
        "simulations": sims,
        "simulations_per_s": sims / search_cpu if search_cpu else 0.0,
        "ms_per_search": 1000 * search_cpu / searched if searched else 0.0,
        "solver_nodes_per_s": solver_nodes / solve_cpu if solve_cpu else 0.0,
        "ms_per_solve": 1000 * solve_cpu / solved if solved else 0.0,
        "ms_per_decision": 1000 * (search_cpu + solve_cpu) / decisions,
    }


def run_thought_bench(
    ruleset: str, players: int, positions: int, iterations: int, seed: int
) -> dict[str, Any]:
    """Both bots over the same `positions` positions (from random games' every stage, a single
    legal move left out: no bot thinks about those)."""
    pool = sample_positions(ruleset, players, positions * 2, seed)
    sampled = [p for p in pool if len(p.legal_moves()) > 1][:positions]
    return {
        "ruleset": ruleset,
        "players": players,
        "positions": len(sampled),
        "iterations": iterations,
        "bots": [think_over(name, sampled, iterations) for name in THINKERS],
        "python": platform.python_version(),
        "compiled": COMPILED,
    }
