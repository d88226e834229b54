"""Several games' analyses at once, their decisions spread over worker processes.

Each decision is independent of the others (its own seed: `engine.decision_seed`), so the unit
of work is one decision, not one game: one long game keeps every worker busy as well as many
short ones, and the results are the same for any number of workers. A worker gets the record
and the ply and rebuilds the position itself (records pickle; engine objects need not).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from referee.engine import Game
from tournaments.analysis.engine import DEFAULT_BUDGET
from tournaments.analysis.game import (
    Decision,
    analyse_position,
    analysis_block,
    decisions_to_analyse,
)

OnProgress = Callable[[int, int], None]  # (decisions done, decisions in all)


def _decide(record: dict[str, Any], ply: int, budget: int, seed: int) -> Decision:
    """One decision, in a worker: the position after `ply` moves of `record` and its move."""
    game = Game.from_record(record, upto=ply)
    texts = [m for rnd in record["rounds"] for m in rnd.get("moves", [])]
    return analyse_position(game, game.parse_move(texts[ply]), ply, budget, seed)


def analyse_games(
    records: Sequence[dict[str, Any]],
    budget: int,
    seed: int,
    seats: Iterable[int] | None = None,
    workers: int = 1,
    progress: OnProgress | None = None,
) -> list[dict[str, Any]]:
    """Each record's analysis block (`game.analysis_block`), in the order of `records`."""
    chosen = None if seats is None else list(seats)
    todo = [
        (g, ply, state, move)
        for g, record in enumerate(records)
        for ply, state, move in decisions_to_analyse(record, chosen)
    ]
    found: list[list[Decision]] = [[] for _ in records]
    total = len(todo)
    if workers <= 1:
        for k, (g, ply, state, move) in enumerate(todo, 1):
            found[g].append(analyse_position(state, move, ply, budget, seed))
            if progress is not None:
                progress(k, total)
    else:
        # forkserver: no copy of this process's threads or locks (a rich live display).
        context = multiprocessing.get_context("forkserver")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = [
                (g, pool.submit(_decide, records[g], ply, budget, seed)) for g, ply, _s, _m in todo
            ]
            for k, (g, future) in enumerate(futures, 1):
                found[g].append(future.result())
                if progress is not None:
                    progress(k, total)
    players = [Game.from_record(r, upto=0).players for r in records]
    return [
        analysis_block(decisions, n, budget, seed)
        for decisions, n in zip(found, players, strict=True)
    ]


def analyse_record(
    record: dict[str, Any],
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    seats: Iterable[int] | None = None,
    progress: OnProgress | None = None,
) -> dict[str, Any]:
    """The analysis block of one record, in this process."""
    return analyse_games([record], budget, seed, seats, 1, progress)[0]


def lower_priority(increment: int) -> None:
    """A worker process's initializer where analyses share a machine with games being played
    (the contest server's ladder: 19, the lowest priority): those come first."""
    if increment:
        os.nice(increment)
