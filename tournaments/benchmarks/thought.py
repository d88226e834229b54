"""The searching bots' speed of thought (`azul-arena bench thought`): simulations per second of
CPU of `mcts` and `expert` over the same positions in one run, beside the expert's exact
search's positions per second.

Each bot decides every sampled position with a fixed budget (`iterations` simulations) and a
fresh bot, so the figures do not depend on the clock: the CPU time of this thread (not the wall
clock) is what is divided, so a loaded machine slows the figures less than it slows a match.
Each bot thinks in a process of its own, forked from this one before any bot ran: the caches
the bots share (Summer Pavilion's projections) start cold for both, where the second bot of
one process would find them warmed by the first.
"""

from __future__ import annotations

import multiprocessing
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


def _in_own_process(name: str, positions: list[Game], iterations: int) -> dict[str, Any]:
    """think_over in a child forked from this process (its caches as they are: cold)."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=lambda: send.send(think_over(name, positions, iterations)))
    child.start()
    send.close()  # the child's end only: a child that dies is an EOF here, not a hang
    try:
        row: dict[str, Any] = receive.recv()
    except EOFError:
        raise RuntimeError(f"{name} died thinking (exit code {child.exitcode})") from None
    finally:
        child.join()
    return row


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
        "bots": [_in_own_process(name, sampled, iterations) for name in THINKERS],
        "python": platform.python_version(),
        "compiled": COMPILED,
    }
