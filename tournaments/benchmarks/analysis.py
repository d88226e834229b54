"""`bench analyse`: what the analysis of a game costs on one core, how fast the exact search
decides, and how often the tree search at the budget picks the exact search's move.

The games are played here by two greedy bots (deterministic for the seed: the same positions on
every machine); their playing does not count. Times are CPU seconds of this process (one core),
so a loaded machine slows them less than wall time would.
"""

from __future__ import annotations

import platform
import time
from typing import Any

from bots.expert import OutOfBudget
from referee.engine import COMPILED
from tournaments.domain.analysis import DEFAULT_BUDGET
from tournaments.domain.analysis.batch import analyse_record
from tournaments.domain.analysis.engine import (
    EXACT_NODES_PER_SIMULATION,
    EXACT_TILES,
    decision_seed,
    search_values,
)
from tournaments.domain.analysis.exact import distinct_moves, exact_search, solvable
from tournaments.domain.analysis.game import decisions_to_analyse

GOAL_GAME_S = 60.0  # a whole 2-player game at the default budget, one core
GOAL_AGREEMENT = 0.95  # the tree search's move is the exact search's, where that can solve


def greedy_game(ruleset: str, seed: int) -> dict[str, Any]:
    """The record of a 2-player game between two greedy bots."""
    from bots.greedy_bot import GreedyBot
    from sdk.local import play_local

    result = play_local(
        [GreedyBot(seed), GreedyBot(seed + 1)], ruleset=ruleset, seed=seed, time_per_move=5
    )
    return result.record


def _exact_positions(records: list[dict[str, Any]], budget: int) -> list[tuple[Any, int]]:
    """(position, ply) of every decision of `records` that the exact search solves."""
    found = []
    for record in records:
        for ply, state, _move in decisions_to_analyse(record):
            if solvable(state, EXACT_TILES):
                try:
                    exact_search(EXACT_NODES_PER_SIMULATION * budget).value_moves(
                        state, distinct_moves(state)
                    )
                except OutOfBudget:
                    continue
                found.append((state, ply))
    return found


def _agreement(positions: list[tuple[Any, int]], budget: int, seed: int) -> tuple[float, float]:
    """The share of `positions` where the tree search's move is worth the exact best (a tie
    counts), and the exact search's decisions per CPU second over them."""
    agree, spent = 0, 0.0
    for state, ply in positions:
        moves = distinct_moves(state)
        start = time.process_time()
        exact = exact_search(EXACT_NODES_PER_SIMULATION * budget).value_moves(state, moves)
        spent += time.process_time() - start
        _means, best = search_values(state, moves, set(), budget, decision_seed(seed, ply))
        agree += exact[best] >= max(exact) - 1e-9
    n = len(positions)
    return (agree / n if n else 0.0), (n / spent if spent else 0.0)


def run_bench(
    ruleset: str = "azul", games: int = 2, budget: int = DEFAULT_BUDGET, seed: int = 1
) -> dict[str, Any]:
    """The figures (stable keys for `--json`)."""
    records = [greedy_game(ruleset, seed + k) for k in range(games)]
    times, decisions, exact = [], 0, 0
    for record in records:
        start = time.process_time()
        analysis = analyse_record(record, budget=budget, seed=seed)
        times.append(time.process_time() - start)
        decisions += len(analysis["moves"])
        exact += sum(m["exact"] for m in analysis["moves"])
    positions = _exact_positions(records, budget)
    agreement, exact_per_s = _agreement(positions, budget, seed)
    return {
        "ruleset": ruleset,
        "players": 2,
        "games": games,
        "budget": budget,
        "decisions": decisions,
        "exact_share": round(exact / decisions, 3) if decisions else 0.0,
        "game_s": round(sum(times) / len(times), 2),
        "game_s_max": round(max(times), 2),
        "goal_game_s": GOAL_GAME_S,
        "exact_positions": len(positions),
        "exact_decisions_per_s": round(exact_per_s, 1),
        "agreement": round(agreement, 3),
        "goal_agreement": GOAL_AGREEMENT,
        "compiled": COMPILED,
        "python": platform.python_version(),
    }
