"""The worker's side of a cluster tournament: one referee Arena per Dask worker process.

A Dask worker runs tasks in threads; the referee is asyncio. So each worker process keeps one
event loop in a thread of its own, and on it one `Arena` per tournament (bot processes pooled
across games exactly as locally); a task (`play_on_worker`) unpacks the entries it needs, hands
the game to that loop and blocks until the game is over. The worker never writes results: it
returns the game's outcome to the client, which alone records it.

What the worker cannot do (unpack an entry, start an entry whose program it lacks, isolate bots
as asked) is a `MachineError`: the client plays the game elsewhere, a bounded number of times.
What a bot does wrong is a result, as locally.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections import OrderedDict
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tournaments.arena import (
    GameSettings,
    play_game,
    process_cap,
    this_machine,
)
from tournaments.bundles import PortableEntry, cache_dir, resolve_spec, unpack
from tournaments.schedule import ScheduledGame
from tournaments.store import GameOutcome

T = TypeVar("T")
KEEP_ARENAS = 2  # tournaments whose bots a worker keeps running (older ones are closed)


class MachineError(RuntimeError):
    """The worker could not play the game, through no fault of the bots."""

    def __init__(self, worker: str, message: str) -> None:
        super().__init__(f"worker {worker}: {message}")
        self.worker = worker

    def __reduce__(self) -> tuple[Any, ...]:  # travels back to the client pickled
        return (_machine_error, (self.worker, str(self)))


def _machine_error(worker: str, text: str) -> MachineError:
    error = MachineError(worker, "")
    error.args = (text,)
    return error


@dataclass(frozen=True)
class GameTask:
    """What a worker needs to play one game; bundles travel beside it as Dask data."""

    run_key: str  # one tournament run: its entries and settings
    game: ScheduledGame
    seats: tuple[PortableEntry, ...]  # the seats' entries (several seats may share one)
    settings: GameSettings
    isolation: str  # the level the client asked for: sandbox, process or none
    field: int = 2  # entries in the tournament, and players per game: for the process cap
    players: int = 2
    bot_env: tuple[tuple[str, str], ...] = ()  # every bot's variables, resolved on the client


class _ArenaHost:
    """The event loop thread and the Arenas of this worker process."""

    def __init__(self) -> None:
        from referee.loop import new_loop

        self.loop = new_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="azul-arena-referee",
                                       daemon=True)
        self.thread.start()
        self.arenas: OrderedDict[str, Any] = OrderedDict()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    async def arena(self, task: GameTask, specs: dict[str, str]) -> Any:
        """This run's started Arena, knowing `specs` (name -> spec on this worker)."""
        from referee import Arena
        from referee.sandbox import Limits

        run_key = task.run_key
        arena = self.arenas.get(run_key)
        if arena is None:
            log_dir = cache_dir() / "logs" / run_key[:16]
            # Bot processes capped as locally, for the games this worker plays at once.
            cap = process_cap(task.field, task.players, _threads())
            arena = Arena(dict(specs), log_dir=log_dir, max_processes=cap,
                          isolation=task.isolation, ponder=task.settings.ponder,
                          bot_env=dict(task.bot_env))
            self.arenas[run_key] = arena
            await arena.start()
            while len(self.arenas) > KEEP_ARENAS:
                _, old = self.arenas.popitem(last=False)
                await old.close()
        self.arenas.move_to_end(run_key)
        arena.entries.update(specs)
        for entry in task.seats:  # per-entry limits and variables, as locally
            if entry.memory:
                arena.entry_limits[entry.name] = Limits(memory=entry.memory)
            if entry.env:
                arena.entry_env[entry.name] = dict(entry.env)
        return arena

    async def play(self, task: GameTask, specs: dict[str, str]) -> GameOutcome:
        arena = await self.arena(task, specs)
        return await play_game(arena, task.game, task.settings, this_machine(arena.isolation))

    async def close_run(self, run_key: str) -> None:
        arena = self.arenas.pop(run_key, None)
        if arena is not None:
            await arena.close()

    async def _close(self) -> None:
        arenas, self.arenas = list(self.arenas.values()), OrderedDict()
        await asyncio.gather(*(a.close() for a in arenas), return_exceptions=True)

    def close(self) -> None:
        try:
            self.run(self._close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


_host: _ArenaHost | None = None
_host_lock = threading.Lock()


def _arena_host() -> _ArenaHost:
    global _host
    with _host_lock:
        if _host is None:
            _host = _ArenaHost()
        return _host


def close_arenas() -> None:
    """End this worker's bots and referee (the worker is closing)."""
    global _host
    with _host_lock:
        host, _host = _host, None
    if host is not None:
        host.close()


def close_run(run_key: str) -> None:
    """End the bots of one tournament run on this worker (the run is over)."""
    with _host_lock:
        host = _host
    if host is not None:
        host.run(host.close_run(run_key))


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return socket.gethostname()


def _threads() -> int:
    """Games this worker plays at once (its Dask threads)."""
    try:
        from distributed import get_worker

        return int(get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):
        return 1


def describe_worker() -> dict[str, Any]:
    """What the client shows of a worker before the run: host, CPUs, isolation."""
    machine = this_machine()
    return {"host": machine.host, "cpus": machine.cpus, "isolation": machine.isolation}


def _specs_here(task: GameTask, bundles: dict[str, bytes], worker: str) -> dict[str, str]:
    """The seats' entries as specs on this worker: bundles unpacked, programs checked."""
    from referee.launcher import check_entry

    cache = cache_dir()
    folders: dict[str, Path] = {}
    for digest, data in bundles.items():
        try:
            folders[digest] = unpack(digest, data, cache)
        except (OSError, ValueError, EOFError) as exc:
            raise MachineError(worker, f"cannot unpack entry files into {cache}: {exc}") from None
    specs = {}
    for entry in task.seats:
        spec = resolve_spec(entry.spec, folders)
        try:
            check_entry(spec)
        except ValueError as exc:
            raise MachineError(worker, f"cannot start entry {entry.name!r}: {exc}") from None
        specs[entry.name] = spec
    return specs


def play_on_worker(task: GameTask, bundles: dict[str, bytes]) -> GameOutcome:
    """The Dask task: play `task.game` on this worker's Arena and return its outcome."""
    worker = _worker_name()
    from referee.sandbox import probe

    missing = probe(task.isolation)
    if missing is not None:
        raise MachineError(worker, f"cannot isolate bots as asked ({task.isolation}: "
                                   f"{missing}); see docs/cluster.md and docs/security.md")
    specs = _specs_here(task, bundles, worker)
    return _arena_host().run(_arena_host().play(task, specs))


try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # without Dask nothing here runs as a worker
    WorkerPlugin = object  # type: ignore[assignment,misc]


class ArenaPlugin(WorkerPlugin):  # type: ignore[misc,valid-type]
    """Registered by the client: a closing worker ends its bots and referee."""

    def teardown(self, worker: Any) -> None:
        close_arenas()
