"""The tournament runner: play the pending games concurrently and commit each as it finishes.

The runner knows nothing of processes or sockets: it calls a `play(game)` coroutine (in real
use, the referee's `Arena.play` through `tournaments.arena`) from `concurrency` workers and writes
every finished game to the store *before* reporting it. Killing the runner at any point therefore
loses only the games in flight; they are still `pending` in the store and a resume replays them
on the same deal seed.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from tournaments.schedule import ScheduledGame
from tournaments.store import GameOutcome, Store, StoreError

PlayFn = Callable[[ScheduledGame], Awaitable[GameOutcome]]
# Called after each game: (game, outcome or None, error text or None).
DoneFn = Callable[[ScheduledGame, GameOutcome | None, str | None], None]


@dataclass
class RunSummary:
    """What one run did."""

    played: int = 0
    failed: int = 0
    errors: list[tuple[str, str]] = field(default_factory=list)  # (game_id, error) samples
    aborted: str | None = None  # why the run gave up early, if it did
    elapsed: float = 0.0
    store_time: float = 0.0  # seconds spent committing results (for the benchmark's breakdown)
    interrupted: int | None = None  # the signal (SIGINT/SIGTERM) that cancelled the run, if any


async def run_games(
    store: Store,
    games: Sequence[ScheduledGame],
    play: PlayFn,
    concurrency: int,
    on_done: DoneFn | None = None,
    max_consecutive_errors: int | None = None,
) -> RunSummary:
    """Play `games` with at most `concurrency` at a time; commit each result as it finishes.

    A game whose `play` raises is noted in the store (it stays pending, so a later run retries
    it) and the others go on. If every one of the first `max_consecutive_errors` games fails (a
    wrong entry spec, a broken referee), the run stops instead of failing thousands of games.
    """
    summary = RunSummary()
    limit = max_consecutive_errors or max(8, 2 * concurrency)
    queue: asyncio.Queue[ScheduledGame] = asyncio.Queue()
    for game in games:
        queue.put_nowait(game)
    consecutive_errors = 0
    stop = asyncio.Event()
    start = time.perf_counter()

    async def worker() -> None:
        nonlocal consecutive_errors
        while not stop.is_set():
            try:
                game = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                outcome = await play(game)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - one broken game must not stop the others
                error = f"{type(exc).__name__}: {exc}"
                try:
                    store.record_error(game, traceback.format_exc())
                except (StoreError, sqlite3.Error) as store_exc:
                    error += f" (and noting it in the db failed: {store_exc})"
                summary.failed += 1
                if len(summary.errors) < 20:
                    summary.errors.append((game.game_id, error))
                consecutive_errors += 1
                if consecutive_errors >= limit and summary.played == 0:
                    summary.aborted = (f"the first {consecutive_errors} games all failed; "
                                       f"last error: {error}")
                    stop.set()
                if on_done:
                    on_done(game, None, error)
                continue
            t0 = time.perf_counter()
            try:
                store.record(game, outcome)  # committed before anyone hears of the result
            except (StoreError, sqlite3.Error) as exc:
                # Not recorded: count it as failed (it stays pending unless it was already
                # done) and go on with the others rather than crash the whole run.
                error = f"could not record the result in {store.path}: {exc}"
                summary.failed += 1
                if len(summary.errors) < 20:
                    summary.errors.append((game.game_id, error))
                if on_done:
                    on_done(game, None, error)
                continue
            summary.store_time += time.perf_counter() - t0
            summary.played += 1
            consecutive_errors = 0
            if on_done:
                on_done(game, outcome, None)

    workers = [asyncio.create_task(worker()) for _ in range(max(1, concurrency))]
    try:
        await asyncio.gather(*workers)
    finally:
        for w in workers:
            w.cancel()
        # Let the cancelled workers unwind (their games' cleanup) before the caller closes up.
        await asyncio.gather(*workers, return_exceptions=True)
        summary.elapsed = time.perf_counter() - start
    return summary
