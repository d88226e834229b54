"""Several games' analyses at once, their decisions spread over worker processes.

Each decision is independent of the others (its own seed: `engine.decision_seed`), so the unit
of work is one decision, not one game: one long game keeps every worker busy as well as many
short ones, and the results are the same for any number of workers. A worker gets the record
and the ply and rebuilds the position itself (records pickle; engine objects need not).
The workers are local processes (`workers`) or a Dask cluster's (`cluster`: one task per
decision, each record sent to the cluster once).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from referee.engine import Game
from tournaments.domain.analysis import DEFAULT_BUDGET
from tournaments.domain.analysis.game import (
    Decision,
    analyse_position,
    analysis_block,
    decisions_to_analyse,
    public_position,
)

if TYPE_CHECKING:
    from tournaments.domain.cluster import ClusterOptions

Todo = list[tuple[int, int, Any, Any]]  # (game's index, ply, position, move played)
OnProgress = Callable[[int, int], None]  # (decisions done, decisions in all)


def _decide(record: dict[str, Any], ply: int, budget: int, seed: int) -> Decision:
    """One decision, in a worker: the position after `ply` moves of `record` and its move."""
    game = Game.from_record(record, upto=ply)
    texts = [m for rnd in record["rounds"] for m in rnd.get("moves", [])]
    return analyse_position(public_position(game), game.parse_move(texts[ply]), ply, budget, seed)


def analyse_games(
    records: Sequence[dict[str, Any]],
    budget: int,
    seed: int,
    seats: Iterable[int] | None = None,
    workers: int = 1,
    progress: OnProgress | None = None,
    cluster: ClusterOptions | None = None,
) -> list[dict[str, Any]]:
    """Each record's analysis block (`game.analysis_block`), in the order of `records`; the
    decisions valued here, in `workers` processes, or on the Dask `cluster` (ClusterError when
    it cannot be used). The same blocks whichever."""
    chosen = None if seats is None else list(seats)
    todo: Todo = [
        (g, ply, state, move)
        for g, record in enumerate(records)
        for ply, state, move in decisions_to_analyse(record, chosen)
    ]
    report = progress or (lambda done, total: None)
    if cluster is not None:
        decisions = asyncio.run(_on_cluster(records, todo, budget, seed, cluster, report))
    elif workers > 1:
        decisions = _in_processes(records, todo, budget, seed, workers, report)
    else:
        decisions = []
        for _g, ply, state, move in todo:
            decisions.append(analyse_position(state, move, ply, budget, seed))
            report(len(decisions), len(todo))
    found: list[list[Decision]] = [[] for _ in records]
    for (g, *_rest), decision in zip(todo, decisions, strict=True):
        found[g].append(decision)
    players = [Game.from_record(r, upto=0).players for r in records]
    return [
        analysis_block(decisions, n, budget, seed)
        for decisions, n in zip(found, players, strict=True)
    ]


def _in_processes(
    records: Sequence[dict[str, Any]],
    todo: Todo,
    budget: int,
    seed: int,
    workers: int,
    report: OnProgress,
) -> list[Decision]:
    """`todo`'s decisions, in order, valued by `workers` local processes."""
    # forkserver: no copy of this process's threads or locks (a rich live display).
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [pool.submit(_decide, records[g], ply, budget, seed) for g, ply, _s, _m in todo]
        decisions = []
        for future in futures:
            decisions.append(future.result())
            report(len(decisions), len(todo))
    return decisions


async def _on_cluster(
    records: Sequence[dict[str, Any]],
    todo: Todo,
    budget: int,
    seed: int,
    options: ClusterOptions,
    report: OnProgress,
) -> list[Decision]:
    """`todo`'s decisions, in order, valued on a Dask cluster: one task per decision (seconds
    of search each, so Dask's few ms a task do not count); a lost worker's tasks Dask runs
    again elsewhere, with the same seeds, so the same values."""
    from distributed import as_completed

    from tournaments.domain.cluster import cluster_client

    async with cluster_client(options) as client:
        sent = await client.scatter(list(records))  # each record crosses the network once
        futures = [
            client.submit(_decide, sent[g], ply, budget, seed, pure=False)
            for g, ply, _s, _m in todo
        ]
        where = {future.key: k for k, future in enumerate(futures)}
        decisions: list[Decision | None] = [None] * len(futures)
        done = 0
        async for future in as_completed(futures):  # type: ignore[no-untyped-call]
            decisions[where[future.key]] = await future
            done += 1
            report(done, len(todo))
    return [d for d in decisions if d is not None]


def analyse_record(
    record: dict[str, Any],
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    seats: Iterable[int] | None = None,
    progress: OnProgress | None = None,
) -> dict[str, Any]:
    """The analysis block of one record, in this process."""
    return analyse_games([record], budget, seed, seats, 1, progress)[0]
