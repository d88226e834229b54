"""The tournament runner: play the pending games concurrently and commit each as it finishes.

The runner knows nothing of processes or sockets: it calls a `play(game)` coroutine (in real
use, the referee's `Arena.play` through `tournaments.domain.arena`) from `concurrency` workers and
writes every finished game to the store *before* reporting it. Killing the runner at any point
therefore loses only the games in flight; they are still `pending` in the store and a resume
replays them on the same deal seed.

Which pending game starts next is the `Dispatch`'s choice: the earliest one whose entries are
all free, else the one needing the fewest further processes; a game that needs a second process
for an entry already playing starts only while the machine has cores to spare for it. An entry
in one game at a time needs one bot process, so a field larger than the games in flight runs on
about one process per seat instead of one per entry per concurrent game.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
import traceback
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.store import GameOutcome, GameStore, GameWithdrawn, StoreError

PlayFn = Callable[[ScheduledGame], Awaitable[GameOutcome]]
# Called after each game: (game, outcome or None, error text or None).
DoneFn = Callable[[ScheduledGame, GameOutcome | None, str | None], None]


class StopRun(RuntimeError):
    """Raised by a `play` that can play no more games (its cluster is gone): the run stops, the
    games in flight are still recorded as they finish, and the game it was given stays pending
    without an error of its own (nothing is wrong with it)."""


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
    withdrawn: int = 0  # games whose entry was removed meanwhile: not played, or not recorded

    def add(self, other: RunSummary) -> None:
        """Account for a further run (the next round) in this summary."""
        self.played += other.played
        self.failed += other.failed
        self.withdrawn += other.withdrawn
        self.errors += other.errors[: max(0, 20 - len(self.errors))]
        self.aborted = self.aborted or other.aborted
        self.elapsed += other.elapsed
        self.store_time += other.store_time


# Games in flight per CPU past which another process for a busy entry buys no speed: a game is
# one chain of referee and bot work (at most one core), and about two per core hide its waits.
GAMES_PER_CPU = 2


def parallel_games(cpus: int | None = None) -> int:
    """How many games this machine (`cpus` CPUs, default all of them) plays usefully at once."""
    return GAMES_PER_CPU * max(1, cpus or os.cpu_count() or 1)


class Pool:
    """The runner's plan of the Arena's bot processes, kept across the runs (the rounds) that
    share one Arena: the games each entry is playing, and its processes in a `referee.BotPool`
    (busy and idle per entry), which ends the least recently used idle one past
    `max_processes` by the same rule as the Arena's own pool. The runner asks it rather than
    restating that rule.

    `parallel` is how many games the machine plays usefully at once (`parallel_games()`);
    None, like `max_processes` None, sets no limit (a cluster: each worker has its own Arena).
    """

    def __init__(self, max_processes: int | None = None, parallel: int | None = None) -> None:
        from referee import BotPool, Slot

        self.max_processes = max_processes
        self.parallel = parallel
        self.processes: BotPool[Slot] = BotPool(max_processes)
        self._slot = Slot
        self.busy: Counter[str] = Counter()  # entry -> games it is playing now
        self._playing: dict[str, list[Slot]] = {}  # game id -> the processes it plays on
        self.in_flight = 0
        self.started = 0  # processes started, by the plan's reckoning
        self.changes = 0  # games started and ended so far: a pick only changes with them

    @property
    def held(self) -> dict[str, int]:
        """Entry -> the processes it holds (busy and idle), by the plan."""
        return {entry: self.processes.held(entry) for entry in self.processes.entries()}

    def needs(self, game: ScheduledGame) -> tuple[int, int]:
        """(extra, first): the processes `game` would start for entries whose every process is
        playing, and for entries that hold none."""
        # Called for up to `Dispatch.window` games per pick, several picks per game: plain
        # tuple operations and two look-ups per seat.
        first = extra = 0
        seats = game.seats
        processes = self.processes
        for i, name in enumerate(seats):
            if i and name in seats[:i]:
                continue  # the same entry twice: counted at its first seat
            missing = seats.count(name) - processes.idle(name)
            if missing > 0:
                new = 1 if processes.held(name) == 0 else 0
                first += new
                extra += missing - new
        return extra, first

    def may_start(self, extra: int, first: int) -> bool:
        """Whether the machine and the cap have room for a game needing these processes, rather
        than wait for a game in flight to free an entry (see `Dispatch`)."""
        if not extra or not self.in_flight:
            return True
        if self.parallel is not None and self.in_flight >= self.parallel:
            return False
        return (
            self.max_processes is None
            or self.processes.live() + first + extra <= self.max_processes
        )

    def start(self, game: ScheduledGame) -> None:
        """`game` starts: its seats take idle processes, else new ones; past the cap the pool
        ends idle ones as the Arena will."""
        slots = []
        for name in game.seats:
            slot = self.processes.take(name)
            if slot is None:
                slot = self._slot(name)
                self.processes.add(slot)
                self.started += 1
            slots.append(slot)
            self.busy[name] += 1
        self._playing[game.game_id] = slots
        self.in_flight += 1
        self.changes += 1
        while self.processes.evict() is not None:
            pass

    def release(self, game: ScheduledGame) -> None:
        """`game` has finished (or failed): its entries are free again."""
        for slot in self._playing.pop(game.game_id, []):
            self.processes.put_back(slot)
        for name in game.seats:
            self.busy[name] -= 1
        self.in_flight -= 1
        self.changes += 1


class Dispatch:
    """The pending games, handed out so that bot processes are reused rather than started.

    The policy, in order:
    - the earliest game whose seats all have an idle process; else the one starting the fewest
      processes, *extra* ones (another for an entry that is playing already) counting before
      *first* ones (for an entry holding none: needed sooner or later anyway);
    - a game needing no extra process starts at once; one that needs an extra process starts
      only if it buys parallelism: nothing else is running, or the entries are too few to keep
      the machine busy on one process each (the games in flight, and pending ones none of
      whose entries are already counted, make fewer than `Pool.parallel`: two games per CPU),
      fewer games than that are in flight, and the processes fit under the Arena's cap;
    - else the worker waits for a game to finish, which frees entries (in a field of many
      entries one ends every few tens of milliseconds; a process takes about 100 ms of CPU to
      start).

    So `--concurrency` is the most games at once, reached with extra processes only where they
    pay: 16 entries at `--concurrency 16` on 2 cores play up to 8 games at once on one process
    each, on 64 cores 16 games with two processes each; 2 entries at `--concurrency 4` on 2
    cores play 4 games at once. The tail of a schedule, where few entries are left to pair,
    counts as a small field.

    Only the first `window` pending games are looked at, so a pick costs O(window) however
    long the schedule; the schedule's own order decides among equals. A game that has left the
    schedule (`in_schedule` says no: its entry was removed) is dropped unplayed.
    """

    def __init__(
        self,
        games: Iterable[ScheduledGame],
        pool: Pool | None = None,
        window: int = 256,
        in_schedule: Callable[[ScheduledGame], bool] | None = None,
    ) -> None:
        self._pending: deque[ScheduledGame] = deque(games)
        self.pool = pool if pool is not None else Pool()
        self.window = window
        self.in_schedule = in_schedule
        self.dropped = 0  # games withdrawn from the store before they started
        self._waiting_since: int | None = None  # `pool.changes` when a pick last found none

    def __len__(self) -> int:
        return len(self._pending)

    @property
    def in_flight(self) -> int:
        return self.pool.in_flight

    def take(self) -> ScheduledGame | None:
        """The next game to start (its entries count as busy until `release`), or None when
        nothing should start before a game in flight finishes (or nothing is left)."""
        if self._waiting_since == self.pool.changes:
            return None  # nothing started or ended since the last look: the same answer
        while self._pending:
            best, best_cost = -1, (0, 0)
            for i, game in enumerate(self._pending):
                if i >= self.window:
                    break
                cost = self.pool.needs(game)
                if best < 0 or cost < best_cost:
                    best, best_cost = i, cost
                    if cost == (0, 0):
                        break
            if not self._may_start(*best_cost):
                self._waiting_since = self.pool.changes
                return None  # wait: a game finishing soon frees an entry's process
            game = self._pending[best]
            del self._pending[best]
            if self.in_schedule is not None and not self.in_schedule(game):
                self.dropped += 1
                continue
            self.pool.start(game)
            return game
        return None

    def _may_start(self, extra: int, first: int) -> bool:
        """Whether a game needing these processes should start now (see the class doc)."""
        pool = self.pool
        if not extra or not pool.in_flight:
            return True
        if pool.parallel is not None and self._fills(pool.parallel):
            return False  # the field keeps the machine busy on one process per entry
        return pool.may_start(extra, first)

    def _fills(self, games: int) -> bool:
        """Whether the entries can keep `games` games going on one process each: the games in
        flight, then pending ones (in the window) none of whose entries is counted yet."""
        count = self.pool.in_flight
        counted = {name for name, n in self.pool.busy.items() if n > 0}
        for i, game in enumerate(self._pending):
            if count >= games or i >= self.window:
                break
            if counted.isdisjoint(game.seats):
                counted.update(game.seats)
                count += 1
        return count >= games

    def release(self, game: ScheduledGame) -> None:
        """`game` has finished (or failed): its entries are free again."""
        self.pool.release(game)


async def run_games(  # the run's store, games and knobs
    store: GameStore,
    games: Sequence[ScheduledGame],
    play: PlayFn,
    concurrency: int,
    on_done: DoneFn | None = None,
    max_consecutive_errors: int | None = None,
    pool: Pool | None = None,
) -> RunSummary:
    """Play `games` with at most `concurrency` at a time; commit each result as it finishes.

    A game whose `play` raises is noted in the store (it stays pending, so a later run retries
    it) and the others go on. If every one of the first `max_consecutive_errors` games fails (a
    wrong entry spec, a broken referee), the run stops instead of failing thousands of games.
    `pool` plans the Arena's bot processes for the `Dispatch` to reuse them by (None: no
    cap and no limit on extra processes). A game withdrawn from the schedule (its entry was
    removed) is not started, and not recorded if it was playing; it counts as `withdrawn`.
    """
    run = _Run(store, Dispatch(games, pool, in_schedule=store.scheduled), play, on_done)
    run.limit = max_consecutive_errors or max(8, 2 * concurrency)
    start = time.perf_counter()
    workers = [asyncio.create_task(run.worker()) for _ in range(max(1, concurrency))]
    try:
        await asyncio.gather(*workers)
    finally:
        for w in workers:
            w.cancel()
        # Let the cancelled workers unwind (their games' cleanup) before the caller closes up.
        await asyncio.gather(*workers, return_exceptions=True)
        run.summary.elapsed = time.perf_counter() - start
        run.summary.withdrawn += run.dispatch.dropped
    return run.summary


class _Run:
    """One `run_games`: its workers, each taking the next game from the dispatch, playing it
    and recording it."""

    def __init__(
        self, store: GameStore, dispatch: Dispatch, play: PlayFn, on_done: DoneFn | None
    ) -> None:
        self.store, self.dispatch, self.play, self.on_done = store, dispatch, play, on_done
        self.summary = RunSummary()
        self.limit = 8
        self.freed = asyncio.Condition()  # notified when a game ends: a worker may start one
        self.consecutive_errors = 0
        self.stop = asyncio.Event()

    async def wake(self, everyone: bool = False) -> None:
        # One waiting worker per game that ends (it wakes the next if it could start a game):
        # a pick looks at up to 256 games, and 15 idle workers picking at every game's end
        # cost the referee's event loop more than the games at --concurrency 16.
        async with self.freed:
            if everyone:
                self.freed.notify_all()
            else:
                self.freed.notify(1)

    async def release(self, game: ScheduledGame) -> None:
        self.dispatch.release(game)
        await self.wake()

    async def worker(self) -> None:
        dispatch = self.dispatch
        try:
            while not self.stop.is_set():
                game = dispatch.take()
                if game is None:
                    if not dispatch or not dispatch.in_flight:
                        return
                    async with self.freed:
                        await self.freed.wait()
                    continue
                await self.wake(everyone=not dispatch)  # the next may start one too, or leave
                await self.play_one(game)
        finally:
            await self.wake(everyone=True)  # stopped or out of games: the others leave too

    async def play_one(self, game: ScheduledGame) -> None:
        try:
            outcome = await self.play(game)
        except asyncio.CancelledError:
            raise
        except StopRun as exc:
            await self.release(game)
            self.summary.aborted = self.summary.aborted or str(exc)
            self.stop.set()
            return
        except Exception as exc:
            await self.release(game)
            self.failed(game, exc)
            return
        await self.release(game)
        self.record(game, outcome)

    def failed(self, game: ScheduledGame, exc: Exception) -> None:
        """`game`'s play raised: noted in the store, and the run stops when the first ones all
        failed."""
        summary = self.summary
        error = f"{type(exc).__name__}: {exc}"
        try:
            self.store.record_error(game, traceback.format_exc())
        except (StoreError, sqlite3.Error) as store_exc:
            error += f" (and noting it in the db failed: {store_exc})"
        self.note_failure(game, error)
        self.consecutive_errors += 1
        if self.consecutive_errors >= self.limit and summary.played == 0:
            summary.aborted = (
                f"the first {self.consecutive_errors} games all failed; last error: {error}"
            )
            self.stop.set()
        if self.on_done:
            self.on_done(game, None, error)

    def note_failure(self, game: ScheduledGame, error: str) -> None:
        self.summary.failed += 1
        if len(self.summary.errors) < 20:
            self.summary.errors.append((game.game_id, error))

    def record(self, game: ScheduledGame, outcome: GameOutcome) -> None:
        """Commit `game`'s result before anyone hears of it."""
        t0 = time.perf_counter()
        try:
            self.store.record(game, outcome)
        except GameWithdrawn:
            self.summary.withdrawn += 1
            return
        except (StoreError, sqlite3.Error) as exc:
            # Not recorded: count it as failed (it stays pending unless it was already
            # done) and go on with the others rather than crash the whole run.
            error = f"could not record the result in {self.store.path}: {exc}"
            self.note_failure(game, error)
            if self.on_done:
                self.on_done(game, None, error)
            return
        self.summary.store_time += time.perf_counter() - t0
        self.summary.played += 1
        self.consecutive_errors = 0
        if self.on_done:
            self.on_done(game, outcome, None)
