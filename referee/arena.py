"""The Arena: the API tournaments call. Runs matches between bot processes through a referee.

    async with Arena(["random", "path/bot.py"]) as arena:
        result = await arena.play(["random", "path/bot.py"], MatchConfig(seed=7))

An Arena starts an in-process referee server (a unix socket in a temporary directory unless
`listen` says otherwise), launches bot processes on demand and reuses them across games (one
stream carries many games). A bot that crashed or forfeited is killed and relaunched for its
next game. Several `play()` calls may run at once.

With `max_processes`, the idle bots form a least-recently-used cache: before a new process
starts, idle ones (the longest unused first) are ended until the live processes (busy, idle,
starting and the warm standby) fit under the cap. Busy bots are never ended, so a cap below
the seats of the games in flight is exceeded rather than stalling a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import os
import random
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from referee import sandbox
from referee.clocks import SeatClock, require_cpu_clock
from referee.events import MatchEvent
from referee.folders import BuildError, build, cap_build_timeout, is_folder_entry, read_folder
from referee.launcher import (
    ADDRESS_SPACE_LIMIT,
    CPU_SECONDS_LIMIT,
    FILE_SIZE_LIMIT,
    BotProcess,
    Isolation,
    assign,
    build_wrapper,
    builtin_bots,
    copy_log,
    last_words,
    launch,
    launch_standby,
    log_name,
    log_size,
    new_log,
    python_target,
    slug,
)
from referee.match import MatchRunner, Seat
from referee.match_types import MatchConfig, MatchResult, SeatResult
from referee.replay import build_replay
from referee.sandbox import Limits
from referee.seeds import bot_seeds
from referee.server import MatchBoard, RefereeServer
from referee.service import run_match_request
from referee.sessions import BotFault, BotSession
from referee.tokens import TokenFile

OFF = ("0", "false", "no", "off")
log = logging.getLogger("referee.arena")

SOCKET_NAME = "referee.sock"


@dataclass(eq=False)
class _Worker:
    """A connected bot: its session and, when the Arena launched it, its process."""

    entry: str
    session: BotSession
    process: BotProcess | None
    keepalive: asyncio.Task[None] | None = None
    spawn_to_hello: float = 0.0  # seconds from process start (or a standby's assign) to Hello
    last_used: int = 0  # the Arena's release counter when it last went idle (LRU order)
    games: int = 0  # games it has played: its first one's log starts with its start-up


def _cpu(worker: _Worker | _Failed) -> float | None:
    process = worker.process if isinstance(worker, _Worker) else None
    return process.cpu_seconds() if process is not None else None


def _is_python(entry: str) -> bool:
    try:
        return python_target(entry) is not None
    except ValueError:  # not an entry at all: its launch will say so
        return False


@dataclass
class _Failed:
    termination: str
    detail: str = ""
    log_path: str = ""


@dataclass
class _SeatLog:
    """A seat's log of one game: its bot's lines are in `source` (its process's log) from byte
    `start`; with a `target`, `save` copies them there (the game's own file)."""

    source: Path | None
    start: int = 0
    target: Path | None = None
    saved: bool = False

    def save(self) -> None:
        if self.target is not None and self.source is not None and not self.saved:
            self.saved = copy_log(self.source, self.start, self.target)

    def path(self) -> str:
        """The seat's `SeatResult.log_path`: the game's own file (none if nothing was copied),
        else, with no target, its process's log."""
        if self.target is None:
            return str(self.source or "")
        return str(self.target) if self.saved else ""


def _seat_log(worker: _Worker | _Failed, target: Path | None) -> _SeatLog:
    """Where a seat's lines of the game about to start are: a bot's first game from the start
    of its log (its start-up included), a later one from where its log ends now (what it wrote
    before belongs to earlier games); a seat that could not start, its launch's whole log."""
    if isinstance(worker, _Failed):
        return _SeatLog(Path(worker.log_path) if worker.log_path else None, 0, target)
    if worker.process is None:  # a remote bot: its output is its own machine's
        return _SeatLog(None, 0, target)
    path = worker.process.log_path
    return _SeatLog(path, 0 if worker.games == 0 else log_size(path), target)


def _unsupported(declared: tuple[str, ...], ruleset: str) -> _Failed | None:
    """The forfeit of a bot whose Hello does not list `ruleset` (a Hello that lists no ruleset
    this referee knows means the classic family, as `bot check` reads it), or None when it
    plays it."""
    from referee.engine import rulesets_played

    plays = rulesets_played(declared)
    if ruleset in plays:
        return None
    return _Failed(
        "unsupported_ruleset", f"this game is {ruleset}; its Hello says it plays {', '.join(plays)}"
    )


class Arena:
    """Runs matches between entries; see the module docstring."""

    def __init__(  # noqa: PLR0913  # keyword-only options, each with a default
        self,
        entries: dict[str, str] | list[str] | None = None,
        log_dir: Path | None = None,
        startup_timeout: float = 10.0,
        *,
        listen: str | None = None,
        reuse: bool = True,
        ping_interval: float = 10.0,
        ping_timeout: float = 5.0,
        address_space: int = ADDRESS_SPACE_LIMIT,
        cpu_seconds: int = CPU_SECONDS_LIMIT,
        file_size: int = FILE_SIZE_LIMIT,
        warm_start: bool | None = None,
        isolation: str | None = None,
        bot_env: dict[str, str] | None = None,
        entry_limits: dict[str, Limits] | None = None,
        entry_env: dict[str, dict[str, str]] | None = None,
        hidden: list[Path] | None = None,
        ponder: bool = False,
        max_processes: int | None = None,
        tls: tuple[bytes, bytes] | None = None,
        tokens: TokenFile | None = None,
        api: list[str] | None = None,
        client_ca: bytes | None = None,
        public_watch: bool = False,
        build_timeout: float | None = None,
    ) -> None:
        """`isolation`: none, process or sandbox (None: the strongest this machine offers;
        IsolationError, naming what is missing, for one it cannot provide). `bot_env`: variables
        every bot gets; `entry_limits` and `entry_env`: per entry name. `hidden`: paths no bot
        may see even in its own folder (the sandbox hides them). `ponder`: bots keep their CPU
        between their moves (by default they are frozen). `tls` (certificate chain, key) and
        `tokens` (issued to remote entries and operators): for `listen` (referee serve).

        The referee's own API (RunMatch, WatchMatch) is served on `listen` (on TCP to operators
        only: `referee.access`) and on the `api` addresses, with `client_ca` and `public_watch`
        as `RefereeServer` takes them; never on the socket the Arena's own bots are given.
        RunMatch seats only built-in bots, remote bots by token and the `entries` given here
        (`referee.service`). `build_timeout`: the longest a bot folder's build may take here,
        whatever its bot.toml asks for (None: what it asks)."""
        self._tls, self._tokens = tls, tokens
        self._api, self._client_ca, self._public_watch = list(api or []), client_ca, public_watch
        self.isolation = sandbox.require(isolation)
        self.bot_env = dict(bot_env or {})
        self.entry_limits = dict(entry_limits or {})
        self.entry_env = dict(entry_env or {})
        self.hidden = [Path(h) for h in hidden or []]
        self.ponder = ponder
        entries = entries or {}
        self.entries = dict(entries) if isinstance(entries, dict) else {e: e for e in entries}
        self.log_dir = Path(log_dir) if log_dir else None
        self.startup_timeout = startup_timeout
        self.reuse = reuse
        self.ping_interval, self.ping_timeout = ping_interval, ping_timeout
        self.limits = Limits(memory=address_space, cpu_seconds=cpu_seconds, file_size=file_size)
        self._listen = listen
        self._tmp: Path | None = None
        self._idle: dict[str, list[_Worker]] = {}
        self._workers: set[_Worker] = set()
        self.max_processes = max_processes
        self._starting = 0  # processes being launched, not yet in _workers
        self._released = itertools.count(1)
        # One warm Python process kept ready (sdk.standby): a Python bot then says Hello some
        # 100 ms sooner than a fresh process could.
        # AZUL_ARENA_WARM_START=0 (or false, no, off) starts every bot as a fresh process.
        off = os.environ.get("AZUL_ARENA_WARM_START", "").strip().lower() in OFF
        self.warm_start = not off if warm_start is None else warm_start
        self._standby: asyncio.Task[BotProcess] | None = None
        self._builds: dict[Path, asyncio.Task[float]] = {}  # bot folders' build steps, once each
        self.build_timeout = build_timeout
        self._closing = False
        self.server: RefereeServer | None = None
        self._launching: Isolation | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> Arena:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        self._tmp = Path(tempfile.mkdtemp(prefix="azul-arena-"))
        os.chmod(self._tmp, 0o711)
        if self.log_dir is None:
            self.log_dir = Path(tempfile.gettempdir()) / "azul-arena-logs" / self._tmp.name
        # The socket alone in its folder: the sandbox shows bots that folder, nothing else.
        socket_dir = self._tmp / "socket"
        socket_dir.mkdir()
        local = f"unix:{socket_dir / SOCKET_NAME}"
        listen = self._listen or local
        # Frozen bots answer no HTTP/2 keepalive: only remote peers (on `listen`) get it. The
        # Arena's own bots get a socket of their own that serves the bot stream alone.
        self.server = RefereeServer(
            listen,
            run_match=lambda req: run_match_request(self, req),
            also=[local] if listen != local else [],
            keepalive=self._listen is not None,
            tls=self._tls,
            tokens=self._tokens,
            api=self._api,
            client_ca=self._client_ca,
            public_watch=self._public_watch,
            listen_api=self._listen is not None,
        )
        await self.server.start()
        self._launching = Isolation(
            self.isolation, self._tmp, socket_dir, tuple([*self.hidden, self.log_dir]), self.bot_env
        )
        self._bot_address = (
            f"unix:{sandbox.SOCKET_DIR}/{SOCKET_NAME}" if self.isolation == "sandbox" else local
        )
        if self.warm_start and any(_is_python(e) for e in self.entries.values()):
            self._start_standby()  # warming up while the first bots start

    @property
    def address(self) -> str:
        assert self.server is not None, "the Arena is not started"
        return self.server.address

    @property
    def board(self) -> MatchBoard:
        """The events of the matches this Arena plays, for WatchMatch."""
        assert self.server is not None, "the Arena is not started"
        return self.server.board

    @staticmethod
    def builtin_bots() -> frozenset[str]:
        """The names of the built-in bots any seat may name."""
        return frozenset(builtin_bots())

    @property
    def api_address(self) -> str:
        """Where an operator calls RunMatch and WatchMatch: the first `api` address, else
        `listen` (an Arena with neither serves no API)."""
        assert self.server is not None, "the Arena is not started"
        if self.server.api_addresses:
            return self.server.api_addresses[0]
        if self._listen is None:
            raise ValueError("this Arena serves no referee API: give it `api` or `listen`")
        return self.server.address

    async def close(self) -> None:
        self._closing = True  # no new standby from here on
        if self._standby is not None:
            standby, self._standby = self._standby, None
            await self._end_standby(standby)
        for task in self._builds.values():
            task.cancel()  # kills a build still running (referee.folders.build)
        await asyncio.gather(*self._builds.values(), return_exceptions=True)
        workers = list(self._workers)
        self._workers.clear()
        self._idle.clear()
        await asyncio.gather(*(self._retire(w) for w in workers), return_exceptions=True)
        if self.server is not None:
            await self.server.stop(0.2)
            self.server = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    async def _retire(self, worker: _Worker) -> None:
        self._workers.discard(worker)
        if worker.keepalive is not None:
            worker.keepalive.cancel()
        if worker.process is not None:
            await worker.process.kill()

    # -- bots ----------------------------------------------------------------------------------

    def entry_of(self, name: str) -> str:
        return self.entries.get(name, name)

    def add_entry(
        self,
        name: str,
        spec: str,
        limits: Limits | None = None,
        env: dict[str, str] | None = None,
        own: Path | None = None,
    ) -> None:
        """An entry joining after the start (a late entry, a cluster worker's new seat), as
        those given to the constructor: its limits and variables, and its folder `own` hidden
        from the bots started from now on (theirs are already hidden from it)."""
        self.entries[name] = spec
        if limits is not None:
            self.entry_limits[name] = limits
        if env is not None:
            self.entry_env[name] = env
        if own is not None and own not in self.hidden:
            self.hidden.append(own)
            if self._launching is not None:
                self._launching.hidden = (*self._launching.hidden, own)

    async def acquire(self, name: str) -> _Worker | _Failed:
        """An idle connected bot for `name`, or a freshly launched one."""
        idle = self._idle.get(name, [])
        while idle:
            worker = idle.pop()  # the most recently used: the others may age out
            if worker.session.alive and (worker.process is None or not worker.process.exited()):
                return worker
            await self._retire(worker)
        self._starting += 1  # counted from now, so concurrent acquires do not overshoot the cap
        try:
            await self._make_room()
            return await self._spawn(name)
        finally:
            self._starting -= 1

    def live_processes(self) -> int:
        """Bot processes alive or starting: busy, idle, being launched, and the warm standby."""
        return len(self._workers) + self._starting + (self._standby is not None)

    async def _make_room(self) -> None:
        """End the least recently used idle bots until the live processes fit the cap."""
        if self.max_processes is None:
            return
        while self.live_processes() > self.max_processes:
            pools = [pool for pool in self._idle.values() if pool]
            if not pools:
                return  # everyone is busy: the game still gets its bot
            pool = min(pools, key=lambda p: p[0].last_used)  # each pool is oldest first
            await self._retire(pool.pop(0))

    # -- the warm standby (sdk/standby.py) ------------------------------------------------------

    def _start_standby(self) -> None:
        # One standby at a time: bots starting together would otherwise each start one and
        # overwrite the last, leaving processes nobody ends until the Arena's process exits.
        if self._closing or not self.warm_start or self._standby is not None:
            return
        # As much memory as the largest entry may have: an entry's own limit is set on assign.
        memory = max([self.limits.memory, *(lim.memory for lim in self.entry_limits.values())])
        limits = dataclasses.replace(self.limits, memory=memory)
        self._standby = asyncio.ensure_future(self._launch_standby(limits))

    async def _launch_standby(self, limits: Limits) -> BotProcess:
        assert self.log_dir is not None and self._launching is not None
        log_path = log_name(self.log_dir, "standby")  # an OSError here: no standby (_alive)
        return await launch_standby(log_path, self._launching, limits)

    def _cold_from_now_on(self, why: str) -> None:
        if self.warm_start:
            log.warning("%s: Python bots start as fresh processes from now on", why)
        self.warm_start = False

    async def _alive(self, standby: asyncio.Task[BotProcess]) -> BotProcess | None:
        """The standby's process if it runs; else None, and warm start stops with a warning
        (a dead standby's log is kept: it is the only clue)."""
        try:
            process = await standby
        except OSError as exc:
            self._cold_from_now_on(f"cannot start a standby process ({exc})")
            return None
        if process.exited():
            self._cold_from_now_on(f"a standby process died, see {process.log_path}")
            return None
        return process

    async def _end_standby(self, standby: asyncio.Task[BotProcess]) -> None:
        process = await self._alive(standby)
        if process is not None:
            await process.kill()
            with contextlib.suppress(OSError):
                process.log_path.unlink()  # it never became a bot: nothing to read

    async def _take_standby(self) -> BotProcess | None:
        """The warm process, if one is alive (and a new one starts), else None."""
        standby, self._standby = self._standby, None
        process = None if standby is None else await self._alive(standby)
        self._start_standby()  # does nothing once warm start has stopped
        return process

    async def _launch(self, name: str, token: str, log_path: Path) -> BotProcess:
        """A process for entry `name`: the warm standby when `name` is a Python bot, else a new
        one."""
        assert self.server is not None and self._launching is not None
        entry = self.entry_of(name)
        target = python_target(entry)  # ValueError for no entry at all: _spawn reports it
        limits = self.entry_limits.get(name, self.limits)
        env = self.entry_env.get(name, {})
        if self.warm_start and target is not None:
            process = await self._take_standby()
            if process is not None:
                if process.place is not None:  # what is hidden now (an entry may have joined)
                    process.place.hidden = self._launching.hidden
                try:
                    assign(process, entry, self._bot_address, token, log_path, limits, env)
                    return process
                except OSError:  # it stopped listening, or its files cannot be shown: cold
                    await process.kill()
        await self._built(entry)
        return await launch(entry, self._bot_address, token, log_path, self._launching, limits, env)

    async def _built(self, entry: str) -> None:
        """Run a bot folder's build step once per Arena, before its first launch (every launch
        waits for the same build; BuildError, a ValueError, when it failed)."""
        if not is_folder_entry(entry):
            return
        folder = cap_build_timeout(read_folder(entry), self.build_timeout)
        if not folder.build:
            return
        task = self._builds.get(folder.path)
        if task is None:
            assert self.log_dir is not None
            log_path = new_log(self.log_dir, slug(entry), "-build")
            log.info("building %s: %s (log %s)", folder.path, folder.build, log_path)
            assert self._launching is not None
            wrap, env = build_wrapper(folder, self._launching)  # the bots' own isolation
            task = self._builds[folder.path] = asyncio.ensure_future(
                build(folder, log_path, wrap, env)
            )
        await asyncio.shield(task)

    async def _spawn(self, name: str, retried: bool = False) -> _Worker | _Failed:
        assert self.server is not None and self.log_dir is not None
        token, hello = self.server.hub.issue()
        log_path: Path | str = ""
        try:
            # A file of its own (not one another Arena sharing log_dir could also be writing).
            log_path = log_name(self.log_dir, slug(name))
            process = await self._launch(name, token, log_path)
        except (OSError, ValueError) as exc:
            self.server.hub.forget(token)
            where = exc.log_path if isinstance(exc, BuildError) else log_path
            return _Failed("crash", f"cannot start {name!r}: {exc}", str(where))
        exit_wait = asyncio.ensure_future(process.process.wait())
        try:
            waiting: set[asyncio.Future[Any]] = {hello, exit_wait}
            done, _ = await asyncio.wait(
                waiting, timeout=self.startup_timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            exit_wait.cancel()
        failure: _Failed | None = None
        if hello in done and hello.exception() is None:
            session = hello.result()
        elif hello in done:
            error = hello.exception()
            kind = error.kind if isinstance(error, BotFault) else "malformed"
            failure = _Failed(kind, str(error), str(log_path))
        elif process.exited():
            kind, why = self._death(process)
            failure = _Failed(
                kind,
                f"exited with {process.process.returncode} before Hello"
                + (f": {why}" if why else ""),
                str(log_path),
            )
        else:
            failure = _Failed("no_hello", f"no Hello within {self.startup_timeout}s", str(log_path))
        if failure is not None:
            self.server.hub.forget(token)
            if not hello.done():
                hello.cancel()
            await process.kill()
            if process.warm and failure.termination == "crash" and not retried:
                # The bot's own crash, or its standby's? A fresh process tells: if it says Hello,
                # the standbys are the trouble here and warm start stops.
                worker = await self._spawn(name, retried=True)
                if isinstance(worker, _Worker):
                    self._cold_from_now_on(
                        f"a warm {name!r} died before Hello, a fresh one did not (see {log_path})"
                    )
                return worker
            return failure
        worker = _Worker(
            name, session, process, spawn_to_hello=time.perf_counter() - process.started
        )
        if process.group is not None:  # the cpu clock reads it
            session.cpu_counter = process.group.cpu_seconds
        if not self.ponder:  # no CPU until its first move request (the session thaws it)
            session.freezer = process
            process.freeze()
        if self.ping_interval > 0:
            worker.keepalive = asyncio.ensure_future(
                session.keepalive(self.ping_interval, self.ping_timeout)
            )
        self._workers.add(worker)
        return worker

    async def declared_rulesets(self, name: str) -> tuple[str, ...] | None:
        """The rulesets entry `name`'s bot lists in its Hello (empty: every ruleset of the classic
        family), or None when it does not start; the bot stays connected for the next game."""
        worker = await self.acquire(name)
        if isinstance(worker, _Failed):
            return None
        worker.last_used = next(self._released)
        self._idle.setdefault(worker.entry, []).append(worker)
        return worker.session.rulesets

    async def connect_remote(self, token: str, timeout: float) -> _Worker | _Failed:
        """Wait for a remote bot that says Hello with `token` (RefereeService seats)."""
        assert self.server is not None
        idle = self._idle.get(f"token:{token}", [])
        while idle:
            worker = idle.pop()
            if worker.session.alive:
                return worker
        fut = self.server.hub.expect(token)
        try:
            session = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            self.server.hub.forget(token)
            return _Failed("no_hello", f"no bot said Hello with this token within {timeout}s")
        except BotFault as exc:
            return _Failed(exc.kind, exc.detail)
        worker = _Worker(f"token:{token}", session, None)
        self._workers.add(worker)
        return worker

    async def _release(self, worker: _Worker, seat: Seat, log: _SeatLog) -> None:
        healthy = (
            seat.termination in ("ok", "unsupported_ruleset")
            and worker.session.alive
            and (worker.process is None or not worker.process.exited())
        )
        worker.games += 1
        if healthy and self.reuse:
            log.save()  # before another game may take it and write on
            worker.last_used = next(self._released)
            self._idle.setdefault(worker.entry, []).append(worker)
        else:
            await self._retire(worker)
            log.save()  # once it has ended: its last words too

    @staticmethod
    def _death(process: BotProcess) -> tuple[str, str]:
        """Why a bot's process died: `memory` (over its memory limit) or `crash`, and the last
        line of its log (a Python bot's traceback ends with the exception)."""
        words = last_words(process.log_path)
        if process.oom_killed() or words.startswith("MemoryError"):
            return "memory", words or "killed over its memory limit"
        return "crash", words

    async def _classify(
        self, workers: list[_Worker | _Failed], seat: Seat, fault: BotFault
    ) -> BotFault:
        """A closed stream is a crash (or `memory`) when the bot's process died, else a
        disconnect."""
        worker = workers[seat.index]
        if isinstance(worker, _Worker) and worker.process is not None:
            worker.process.thaw()  # its stream is gone: whatever is left must be free to end
            code = await worker.process.wait_exit(1.0)
            if code is not None:
                kind, why = self._death(worker.process)
                return BotFault(kind, f"exited with {code}" + (f": {why}" if why else ""))
        return fault

    # -- matches -------------------------------------------------------------------------------

    async def play(
        self,
        seats: list[str],
        config: MatchConfig | None = None,
        *,
        on_event: Callable[[MatchEvent], None] | None = None,
        match_id: str | None = None,
        seat_logs: Sequence[Path] | None = None,
        _workers: list[_Worker | _Failed] | None = None,
    ) -> MatchResult:
        """Play one game: `seats` are entry names in seat order (2 to 4). With `seat_logs` (a
        file per seat), each seat's bot output of this game alone is copied to its file, which
        its `SeatResult.log_path` names; else that names its bot process's log (which holds
        every game the process played)."""
        from referee.engine import new_game

        config = config or MatchConfig()
        if not 2 <= len(seats) <= 4:
            raise ValueError(f"a match has 2 to 4 seats, not {len(seats)}")
        seed = config.seed if config.seed is not None else secrets.randbits(63)
        game = new_game(
            config.ruleset,
            players=len(seats),
            seed=seed,
            first_player=config.first_player,
            **config.options,
        )
        seeds = config.bot_seeds or bot_seeds(seed, match_id or "match", len(seats))
        if len(seeds) != len(seats):
            raise ValueError(f"{len(seeds)} bot seeds for {len(seats)} seats")
        if seat_logs is not None and len(seat_logs) != len(seats):
            raise ValueError(f"{len(seat_logs)} log files for {len(seats)} seats")
        match_id = match_id or secrets.token_hex(6)
        began = time.perf_counter()
        if config.clock == "cpu":
            require_cpu_clock()
        workers = _workers or list(await asyncio.gather(*(self.acquire(s) for s in seats)))
        # A seat that cannot play: its bot did not start, or its Hello excludes this ruleset.
        failed = [
            w if isinstance(w, _Failed) else _unsupported(w.session.rulesets, config.ruleset)
            for w in workers
        ]
        logs = [
            _seat_log(w, None if seat_logs is None else Path(seat_logs[i]))
            for i, w in enumerate(workers)
        ]
        match_seats = []
        for i, (name, worker) in enumerate(zip(seats, workers, strict=True)):
            own = config.seat_time_per_move[i] if i < len(config.seat_time_per_move) else None
            # A bot with no CPU counter (a remote bot: no cgroup here) keeps the wall clock.
            counted = isinstance(worker, _Worker) and worker.session.cpu_counter is not None
            clock = SeatClock(
                config.time_per_move if own is None else own,
                config.time_bank,
                config.first_move_allowance,
                config.grace,
                kind=config.clock if counted else "wall",
                ceiling=config.ceiling,
                enforced=config.time_limit,
            )
            seat = Seat(i, name, worker.session if isinstance(worker, _Worker) else None, clock)
            if (failure := failed[i]) is not None:
                seat.forfeited, seat.termination = True, failure.termination
                seat.strikes, seat.faults[failure.termination] = 1, 1
            match_seats.append(seat)
        runner = MatchRunner(
            match_id,
            game,
            match_seats,
            fault_policy=config.fault_policy,
            max_strikes=config.max_strikes,
            rng=random.Random(seed ^ 0x5EED),
            emit=on_event,
            bot_seeds=seeds,
            classify=lambda seat, fault: self._classify(workers, seat, fault),
        )
        for seat, failure in zip(match_seats, failed, strict=True):
            if failure is not None:
                runner.faults.append(
                    {
                        "ply": 0,
                        "seat": seat.index,
                        "fault": failure.termination,
                        "detail": failure.detail,
                        "forfeited": True,
                    }
                )
        cpu_before = [_cpu(w) for w in workers]
        try:
            outcome = await runner.run()
            cpu_used = [
                None if b is None or (a := _cpu(w)) is None else round(a - b, 4)
                for w, b in zip(workers, cpu_before, strict=True)
            ]
        finally:
            await asyncio.gather(
                *(
                    self._release(w, s, log)
                    for w, s, log in zip(workers, match_seats, logs, strict=True)
                    if isinstance(w, _Worker)
                )
            )
            for worker, log in zip(workers, logs, strict=True):
                if isinstance(worker, _Failed):
                    log.save()
        duration = time.perf_counter() - began
        results = []
        for seat, log, score, rank in zip(
            outcome.seats, logs, outcome.scores, outcome.ranks, strict=True
        ):
            results.append(
                SeatResult(
                    entry=seat.name,
                    score=score,
                    rank=rank,
                    termination=seat.termination,
                    strikes=seat.strikes,
                    faults=dict(seat.faults),
                    move_time_total=round(seat.move_time_total, 6),
                    moves=seat.moves,
                    substituted=seat.substituted,
                    bot_name=seat.session.name if seat.session else "",
                    log_path=log.path(),
                    cpu_time=cpu_used[seat.index],
                    detail=next(
                        (f["detail"] for f in reversed(outcome.faults) if f["seat"] == seat.index),
                        "",
                    ),
                )
            )
        bots = [
            {
                "name": r.bot_name,
                "version": s.session.version if s.session else "",
                "termination": r.termination,
                "strikes": r.strikes,
                "faults": r.faults,
                "moves": r.moves,
                "move_time_total": r.move_time_total,
                "cpu_time": r.cpu_time,
                "clock": s.clock.kind,
            }
            for r, s in zip(results, outcome.seats, strict=True)
        ]
        record = build_replay(
            game.record(),
            match_id=match_id,
            names=list(seats),
            entries=[self.entry_of(s) for s in seats],
            bots=bots,
            plies=outcome.plies,
            faults=outcome.faults,
            config=dict(asdict(config), seed=seed, bot_seeds=list(seeds)),
            duration=duration,
        )
        return MatchResult(
            results, outcome.scores, outcome.ranks, record, duration, match_id, outcome.reason
        )
