"""The worker's side of a cluster tournament: one referee Arena per Dask worker process.

The client creates one `ArenaActor` (a Dask actor) on each worker and calls it once per game. Its
methods are coroutines, so Dask runs them on the worker's own event loop, and the referee runs
there too: one `Arena` per tournament (bot processes pooled across games exactly as locally). A
game costs one call and its reply, straight between client and worker (or relayed by the
scheduler, which then only forwards them): no task to schedule per game (a Dask task per game
cost 7-10 ms of CPU for a game of some 30 ms, on the client, the scheduler and the worker,
against about 1 ms for a call: docs/cluster.md).

The worker never writes results: it returns the game's outcome to the client, which alone records
it. What the worker cannot do (unpack an entry, start an entry whose program it lacks, isolate bots
as asked) is a `MachineError`: the client plays the game elsewhere, a bounded number of times.
What a bot does wrong is a result, as locally. A game may bring back each seat's log of that game
alone (`ArenaActor.play_logged`: the ladder's), which the client stores where a local game's go.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import tempfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournaments.domain.arena import play_game, process_cap, this_machine
from tournaments.domain.bundles import PortableEntry, cache_dir, resolve_spec, unpack
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import GameOutcome

KEEP_ARENAS = 2  # tournaments whose bots a worker keeps running (older ones are closed)
# Room beyond the referee's cap for the line it puts first in a seat's log it cut (copy_log).
CUT_NOTE_ROOM = 256


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
    """What a worker needs to play one game (its entries' bundles are sent to it beforehand)."""

    run_key: str  # one tournament run: its entries and settings
    game: ScheduledGame
    seats: tuple[PortableEntry, ...]  # the seats' entries (several seats may share one)
    settings: MatchSettings
    isolation: str  # the level the client asked for: sandbox, process or none
    field: int = 2  # entries in the tournament, and players per game: for the process cap
    players: int = 2
    bot_env: tuple[tuple[str, str], ...] = ()  # every bot's variables, resolved on the client


class _ArenaHost:
    """The Arenas of this worker process, on the worker's event loop, one per tournament run."""

    def __init__(self) -> None:
        self.arenas: OrderedDict[str, Any] = OrderedDict()
        self._starting: dict[str, asyncio.Lock] = {}

    async def arena(self, task: GameTask, specs: dict[str, str], games_at_once: int) -> Any:
        """This run's started Arena, knowing `specs` (name -> spec on this worker)."""
        run_key = task.run_key
        arena = self.arenas.get(run_key)
        if arena is None:
            # The first games of a run arrive together: one of them starts the Arena.
            async with self._starting.setdefault(run_key, asyncio.Lock()):
                arena = self.arenas.get(run_key) or await self._start(task, specs, games_at_once)
        self.arenas.move_to_end(run_key)
        arena.entries.update(specs)
        from referee import Limits

        for entry in task.seats:  # per-entry limits and variables, as locally
            if entry.name in specs:  # (each in its own unpacked folder: nothing to hide)
                arena.add_entry(
                    entry.name,
                    specs[entry.name],
                    Limits(memory=entry.memory) if entry.memory else None,
                    dict(entry.env) if entry.env else None,
                )
        return arena

    async def _start(self, task: GameTask, specs: dict[str, str], games_at_once: int) -> Any:
        from referee import Arena

        # Bot processes capped as locally, for the games this worker plays at once.
        arena = Arena(
            dict(specs),
            log_dir=run_logs(task.run_key),
            max_processes=process_cap(task.field, task.players, games_at_once),
            isolation=task.isolation,
            ponder=task.settings.ponder,
            bot_env=dict(task.bot_env),
        )
        await arena.start()
        self.arenas[task.run_key] = arena
        while len(self.arenas) > KEEP_ARENAS:
            _, old = self.arenas.popitem(last=False)
            await old.close()
        return arena

    async def close_run(self, run_key: str) -> None:
        self._starting.pop(run_key, None)
        arena = self.arenas.pop(run_key, None)
        if arena is not None:
            await arena.close()

    async def close(self) -> None:
        arenas, self.arenas = list(self.arenas.values()), OrderedDict()
        await asyncio.gather(*(a.close() for a in arenas), return_exceptions=True)


def run_logs(run_key: str) -> Path:
    """The folder of a run's logs on this worker: its bots' processes' logs, and the seats'
    logs of the games in flight that bring them back."""
    return cache_dir() / "logs" / run_key[:16]


def read_seat_log(path: Path) -> bytes | None:
    """A seat's log of one game as the referee wrote it (None where it could not copy one): at
    most its cap, `GAME_LOG_LIMIT` bytes and its note of what it cut, whatever the file holds."""
    from referee import GAME_LOG_LIMIT

    try:
        with open(path, "rb") as log:
            return log.read(GAME_LOG_LIMIT + CUT_NOTE_ROOM)
    except OSError:  # none copied (the bot's own log was unreadable): as locally, no log
        return None


_host: _ArenaHost | None = None


def _arena_host() -> _ArenaHost:
    global _host
    if _host is None:
        _host = _ArenaHost()
    return _host


async def close_arenas() -> None:
    """End this worker's bots and referee (the worker is closing)."""
    global _host
    host, _host = _host, None
    if host is not None:
        await host.close()


async def close_run(run_key: str) -> None:
    """End the bots of one tournament run on this worker (the run is over); run by the client
    on every worker (`Client.run` runs a coroutine function on the worker's event loop)."""
    if _host is not None:
        await _host.close_run(run_key)


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return socket.gethostname()


def describe_worker() -> dict[str, Any]:
    """What the client shows of a worker before the run: host, CPUs, isolation."""
    machine = this_machine()
    return {"host": machine.host, "cpus": machine.cpus, "isolation": machine.isolation}


_probed: dict[str, str | None] = {}


async def _cannot_isolate(level: str) -> str | None:
    """What this machine lacks to isolate bots at `level` (None: nothing), tried once."""
    if level not in _probed:
        from referee import probe

        _probed[level] = await asyncio.to_thread(probe, level)  # starts a process: off the loop
    return _probed[level]


class ArenaActor:
    """A Dask actor, one per worker and run: receives the entries' bundles, plays games.

    At most `games_at_once` games play at once (the worker's threads, as `dask worker
    --nthreads` says); the client may send one more, which waits here so the worker never idles
    while the client commits a result."""

    def __init__(self, games_at_once: int) -> None:
        self.games_at_once = max(1, games_at_once)
        self.folders: dict[str, Path] = {}  # bundle digest -> its unpacked folder
        self.checked: set[str] = set()  # specs known to start on this worker
        self._playing: asyncio.Semaphore | None = None

    async def receive(self, digest: str, data: bytes) -> None:
        """Unpack bundle `digest` (once per host: its cache is shared by the worker processes)."""
        try:
            self.folders[digest] = await asyncio.to_thread(unpack, digest, data, cache_dir())
        except (OSError, ValueError, EOFError) as exc:
            raise MachineError(
                _worker_name(), f"cannot unpack entry files into {cache_dir()}: {exc}"
            ) from None

    def _specs(self, task: GameTask, worker: str) -> dict[str, str]:
        """The seats' entries as specs on this worker, each checked once."""
        from referee import check_entry

        specs = {}
        for entry in task.seats:
            missing = [d for d in entry.bundles if d not in self.folders]
            if missing:  # the client sends them first: a worker replaced meanwhile, say
                raise MachineError(
                    worker, f"entry {entry.name!r}: files {missing[0][:12]} never arrived"
                )
            spec = resolve_spec(entry.spec, self.folders)
            if spec not in self.checked:
                try:
                    check_entry(spec)
                except ValueError as exc:
                    raise MachineError(
                        worker, f"cannot start entry {entry.name!r}: {exc}"
                    ) from None
                self.checked.add(spec)
            specs[entry.name] = spec
        return specs

    async def play(self, task: GameTask) -> GameOutcome:
        """Play `task.game` on this worker's Arena and return its outcome."""
        return await self._play(task)

    async def play_logged(self, task: GameTask) -> tuple[GameOutcome, list[bytes | None]]:
        """`play`, and each seat's log of this game alone (`read_seat_log`), which the client
        stores: the worker's copies go once read (its bots' process logs stay, as in a run)."""
        folder = run_logs(task.run_key)
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
        game_logs = Path(await asyncio.to_thread(tempfile.mkdtemp, prefix="game-", dir=folder))
        try:
            # Named by seat number: nothing in the path comes from an entry.
            paths = [game_logs / f"seat-{i}.log" for i in range(len(task.game.seats))]
            outcome = await self._play(task, paths)
            texts = await asyncio.to_thread(lambda: [read_seat_log(p) for p in paths])
        finally:
            await asyncio.to_thread(shutil.rmtree, game_logs, True)
        return outcome, texts

    async def _play(self, task: GameTask, seat_logs: list[Path] | None = None) -> GameOutcome:
        worker = _worker_name()
        missing = await _cannot_isolate(task.isolation)
        if missing is not None:
            raise MachineError(
                worker,
                f"cannot isolate bots as asked ({task.isolation}: "
                f"{missing}); see docs/cluster.md and docs/security.md",
            )
        specs = self._specs(task, worker)
        if self._playing is None:
            self._playing = asyncio.Semaphore(self.games_at_once)
        async with self._playing:
            host = _arena_host()
            arena = await host.arena(task, specs, self.games_at_once)
            machine = this_machine(arena.isolation)
            return await play_game(arena, task.game, task.settings, machine, seat_logs)


try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # without Dask nothing here runs as a worker
    WorkerPlugin = object  # type: ignore[assignment,misc]


class ArenaPlugin(WorkerPlugin):  # type: ignore[misc,valid-type]
    """Registered by the client: a closing worker ends its bots and referee."""

    async def teardown(self, worker: Any) -> None:
        await close_arenas()
