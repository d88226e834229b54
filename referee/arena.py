"""The Arena: the API tournaments call. Runs matches between bot processes through a referee.

    async with Arena(["random", "path/bot.py"]) as arena:
        result = await arena.play(["random", "path/bot.py"], MatchConfig(seed=7))

An Arena starts an in-process referee server (a unix socket in a temporary directory unless
`listen` says otherwise), launches bot processes on demand and reuses them across games (one
stream carries many games). A bot that crashed or forfeited is killed and relaunched for its
next game. Several `play()` calls may run at once.

Its settings come in two groups: `BotSettings`, how it runs its bots (isolation, limits,
variables, reuse, the process cap), and `Network`, where it serves beyond its own bots' socket
(`listen`, TLS, tokens, the referee's API). The old flat keywords (`Arena(isolation=...)`) still
work and land in those groups.

Its bots are kept in a `BotPool` (referee.pool): held, busy and idle per entry, and the rule that
ends the least recently used idle ones past `BotSettings.max_processes`. A match is played by
`referee.match.play_match`; the Arena finds its seats' bots and keeps their logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import logging
import os
import secrets
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any, TypedDict, Unpack

from referee import sandbox
from referee.clocks import Clock, require_cpu_clock
from referee.events import MatchEvent
from referee.faults import BotFault, Termination
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
from referee.match import Seat, build_seats, play_match, replay_bots, seat_results
from referee.match_types import MatchConfig, MatchResult
from referee.pool import Bot, BotPool, NoBot, SeatBot
from referee.replay import build_replay
from referee.sandbox import Limits
from referee.seeds import bot_seeds
from referee.server import Exposure, MatchBoard, RefereeServer, refuse_exposure
from referee.service import run_match_request
from referee.sessions import BotSession
from referee.tokens import TokenFile

OFF = ("0", "false", "no", "off")
log = logging.getLogger("referee.arena")

SOCKET_NAME = "referee.sock"


def _default_limits() -> Limits:
    return Limits(
        memory=ADDRESS_SPACE_LIMIT, cpu_seconds=CPU_SECONDS_LIMIT, file_size=FILE_SIZE_LIMIT
    )


@dataclass
class BotSettings:
    """How an Arena runs its bots.

    `isolation`: none, process or sandbox (None: the strongest this machine offers;
    IsolationError, naming what is missing, for one it cannot provide). `bot_env`: variables
    every bot gets; `entry_limits` and `entry_env`: per entry name. `hidden`: paths no bot may
    see even in its own folder (the sandbox hides them). `ponder`: bots keep their CPU between
    their moves (by default they are frozen). `warm_start`: a warm Python process kept ready
    (None: unless AZUL_ARENA_WARM_START is 0, false, no or off). `max_processes`: the most bot
    processes kept alive (referee.pool). `build_timeout`: the longest a bot folder's build may
    take here, whatever its bot.toml asks for (None: what it asks)."""

    startup_timeout: float = 10.0  # seconds from launch to Hello
    reuse: bool = True  # a healthy bot plays its entry's next game too
    ping_interval: float = 10.0  # keep-alive pings of idle bots (0: none)
    ping_timeout: float = 5.0
    limits: Limits = field(default_factory=_default_limits)  # every bot's, unless its entry's
    warm_start: bool | None = None
    isolation: str | None = None
    bot_env: dict[str, str] = field(default_factory=dict)
    entry_limits: dict[str, Limits] = field(default_factory=dict)
    entry_env: dict[str, dict[str, str]] = field(default_factory=dict)
    hidden: list[Path] = field(default_factory=list)
    ponder: bool = False
    max_processes: int | None = None
    build_timeout: float | None = None


@dataclass
class Network:
    """Where an Arena serves beyond its own bots' socket.

    `listen`: the bots' address for remote bots and the operator's API (TCP to operators only:
    `referee.access`). An address reachable from the network needs `tls` and an operator
    credential, or `insecure` (`referee.server.refuse_exposure`).
    `tls` (certificate chain, key) and `tokens` (issued to remote entries and operators). The
    referee's own API (RunMatch, WatchMatch) is served on `listen` and on the `api` addresses,
    with `client_ca` and `public_watch` as `RefereeServer` takes them; never on the socket the
    Arena's own bots are given."""

    listen: str | None = None
    tls: tuple[bytes, bytes] | None = None
    tokens: TokenFile | None = None
    api: list[str] = field(default_factory=list)
    client_ca: bytes | None = None
    public_watch: bool = False
    insecure: bool = False  # serve a network address without TLS or an operator anyway


# An Arena's working folder in the temporary directory (its socket, its bots' folders), and the
# lock file it holds there while it lives.
ARENA_PREFIX = "azul-arena-"
ARENA_LOCK = "arena.lock"
SWEEP_AFTER = 60.0  # seconds: a folder younger than this may belong to an Arena still starting


def sweep_dead_arenas(tmp: Path, older_than: float = SWEEP_AFTER) -> list[Path]:
    """Remove the working folders of Arenas whose process is gone without closing them (killed,
    or the machine stopped): their lock is free. A folder in use, another user's, or one
    younger than `older_than` seconds is left alone. Returns what was removed."""
    removed = []
    now = time.time()
    for folder in tmp.glob(ARENA_PREFIX + "*"):
        try:
            found = os.lstat(folder)
            if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
                continue
            # Never waits: not on a pipe put there in its place, nor on a lock held.
            fd = os.open(folder / ARENA_LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:  # gone meanwhile, or no lock file (not an Arena's to judge)
            continue
        try:
            lock = os.fstat(fd)
            if not stat.S_ISREG(lock.st_mode) or now - lock.st_mtime < older_than:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # its Arena lives
            continue
        finally:
            os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed.append(folder)
    return removed


class ArenaOptions(TypedDict, total=False):
    """The Arena's flat keywords, each landing in `BotSettings` or `Network` (the memory, CPU
    and file-size limits in `BotSettings.limits`)."""

    startup_timeout: float
    reuse: bool
    ping_interval: float
    ping_timeout: float
    address_space: int
    cpu_seconds: int
    file_size: int
    warm_start: bool | None
    isolation: str | None
    bot_env: dict[str, str] | None
    entry_limits: dict[str, Limits] | None
    entry_env: dict[str, dict[str, str]] | None
    hidden: list[Path] | None
    ponder: bool
    max_processes: int | None
    build_timeout: float | None
    listen: str | None
    tls: tuple[bytes, bytes] | None
    tokens: TokenFile | None
    api: list[str] | None
    client_ca: bytes | None
    public_watch: bool
    insecure: bool


_LIMITS = {"address_space": "memory", "cpu_seconds": "cpu_seconds", "file_size": "file_size"}
_NETWORK = frozenset(f.name for f in dataclasses.fields(Network))
_BOTS = frozenset(f.name for f in dataclasses.fields(BotSettings))
_EMPTY: dict[str, Any] = {
    "bot_env": {},
    "entry_limits": {},
    "entry_env": {},
    "hidden": [],
    "api": [],
}


def _grouped(
    bots: BotSettings | None, network: Network | None, options: ArenaOptions
) -> tuple[BotSettings, Network]:
    """The settings groups with the flat keywords `options` put in their places (None for a
    collection: an empty one)."""
    bots = dataclasses.replace(bots) if bots is not None else BotSettings()
    network = dataclasses.replace(network) if network is not None else Network()
    for name, value in options.items():
        value = _EMPTY[name] if value is None and name in _EMPTY else value
        if name in _LIMITS:
            limits: dict[str, Any] = {_LIMITS[name]: value}
            bots.limits = dataclasses.replace(bots.limits, **limits)
        elif name in _NETWORK or name in _BOTS:
            setattr(network if name in _NETWORK else bots, name, value)
        else:
            raise TypeError(f"Arena() got an unexpected keyword argument {name!r}")
    # Its own collections: add_entry grows them, and the caller's settings stay as given.
    bots.bot_env, bots.entry_env = dict(bots.bot_env), dict(bots.entry_env)
    bots.entry_limits, bots.hidden = dict(bots.entry_limits), [Path(h) for h in bots.hidden]
    network.api = list(network.api)
    return bots, network


def _is_python(entry: str) -> bool:
    try:
        return python_target(entry) is not None
    except ValueError:  # not an entry at all: its launch will say so
        return False


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


def _seat_log(worker: SeatBot, target: Path | None) -> _SeatLog:
    """Where a seat's lines of the game about to start are: a bot's first game from the start
    of its log (its start-up included), a later one from where its log ends now (what it wrote
    before belongs to earlier games); a seat that could not start, its launch's whole log."""
    if isinstance(worker, NoBot):
        return _SeatLog(Path(worker.log_path) if worker.log_path else None, 0, target)
    if worker.process is None:  # a remote bot: its output is its own machine's
        return _SeatLog(None, 0, target)
    path = worker.process.log_path
    return _SeatLog(path, 0 if worker.games == 0 else log_size(path), target)


class Arena:
    """Runs matches between entries; see the module docstring."""

    def __init__(
        self,
        entries: dict[str, str] | list[str] | None = None,
        log_dir: Path | None = None,
        *,
        bots: BotSettings | None = None,
        network: Network | None = None,
        **options: Unpack[ArenaOptions],
    ) -> None:
        """`entries`: name -> spec (a list: each its own name). `bots` and `network`: the
        settings (`BotSettings`, `Network`); `options`, the same as flat keywords.
        RunMatch seats only built-in bots, remote bots by token and `entries`
        (`referee.service`). ExposureError (a ValueError) when `network` would serve the
        network in clear or to nobody in particular (`referee.server.refuse_exposure`)."""
        self.settings, self.network = _grouped(bots, network, options)
        net = self.network
        exposure = Exposure.of(net.listen, net.api, net.tls, net.tokens, net.client_ca)
        # Before anything starts: what `insecure` lets through, for the caller to warn of.
        self.exposure_problems = refuse_exposure(exposure, net.insecure)
        self.isolation = sandbox.require(self.settings.isolation)
        entries = entries or {}
        self.entries = dict(entries) if isinstance(entries, dict) else {e: e for e in entries}
        self.log_dir = Path(log_dir) if log_dir else None
        self.pool: BotPool[Bot] = BotPool(self.settings.max_processes)
        self._tmp: Path | None = None
        self._lock: IO[str] | None = None  # `_tmp`'s lock file, open while this Arena lives
        # One warm Python process kept ready (sdk.standby): a Python bot then says Hello some
        # 100 ms sooner than a fresh process could.
        # AZUL_ARENA_WARM_START=0 (or false, no, off) starts every bot as a fresh process.
        off = os.environ.get("AZUL_ARENA_WARM_START", "").strip().lower() in OFF
        warm = self.settings.warm_start
        self.warm_start = not off if warm is None else warm
        self._standby: asyncio.Task[BotProcess] | None = None
        self._builds: dict[Path, asyncio.Task[float]] = {}  # bot folders' build steps, once each
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
        sweep_dead_arenas(Path(tempfile.gettempdir()))
        self._tmp = Path(tempfile.mkdtemp(prefix=ARENA_PREFIX))
        # Held while this Arena lives: the kernel lets go of it when the process ends, however
        # it ends, so a later Arena knows this folder's owner is gone (`sweep_dead_arenas`).
        # Made while the folder is still mkdtemp's 0700, and 0600: nobody else may hold it.
        fd = os.open(self._tmp / ARENA_LOCK, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        self._lock = os.fdopen(fd, "w")
        fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.chmod(self._tmp, 0o711)
        if self.log_dir is None:
            self.log_dir = Path(tempfile.gettempdir()) / "azul-arena-logs" / self._tmp.name
        # The socket alone in its folder: the sandbox shows bots that folder, nothing else.
        # Its owner's alone (bots run as this user): no other user can reach the socket, from
        # the moment it is bound (referee.server._owner_only).
        socket_dir = self._tmp / "socket"
        socket_dir.mkdir(mode=0o700)
        local = f"unix:{socket_dir / SOCKET_NAME}"
        net = self.network
        listen = net.listen or local
        # Frozen bots answer no HTTP/2 keepalive: only remote peers (on `listen`) get it. The
        # Arena's own bots get a socket of their own that serves the bot stream alone.
        self.server = RefereeServer(
            listen,
            run_match=lambda req: run_match_request(self, req),
            also=[local] if listen != local else [],
            keepalive=net.listen is not None,
            tls=net.tls,
            tokens=net.tokens,
            api=list(net.api),
            client_ca=net.client_ca,
            public_watch=net.public_watch,
            listen_api=net.listen is not None,
        )
        await self.server.start()
        hidden = (*self.settings.hidden, self.log_dir)
        self._launching = Isolation(
            self.isolation, self._tmp, socket_dir, hidden, self.settings.bot_env
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
        if self.network.listen is None:
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
        workers = self.pool.clear()
        await asyncio.gather(*(self.retire(w) for w in workers), return_exceptions=True)
        if self.server is not None:
            await self.server.stop(0.2)
            self.server = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    async def retire(self, worker: SeatBot) -> None:
        """End a bot: the pool forgets it and its process (if the Arena launched it) ends (a
        NoBot has nothing to end)."""
        if isinstance(worker, NoBot):
            return
        self.pool.drop(worker)
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
            self.settings.entry_limits[name] = limits
        if env is not None:
            self.settings.entry_env[name] = env
        if own is not None and own not in self.settings.hidden:
            self.settings.hidden.append(own)
            if self._launching is not None:
                self._launching.hidden = (*self._launching.hidden, own)

    async def acquire(self, name: str) -> SeatBot:
        """An idle connected bot for `name`, or a freshly launched one (NoBot: why none)."""
        while (worker := self.pool.take(name)) is not None:
            if worker.alive():
                return worker
            await self.retire(worker)
        # Counted from now, so that launches at once do not overshoot the cap.
        with self.pool.starting(name):
            await self._make_room()
            return await self.spawn(name)

    def live_processes(self) -> int:
        """Bot processes alive or starting: busy, idle, being launched, and the warm standby."""
        return self.pool.live() + (self._standby is not None)

    async def _make_room(self) -> None:
        """End the least recently used idle bots until the live processes fit the cap."""
        while (victim := self.pool.evict(extra=self._standby is not None)) is not None:
            await self.retire(victim)

    # -- the warm standby (sdk/standby.py) ------------------------------------------------------

    def _start_standby(self) -> None:
        # One standby at a time: bots starting together would otherwise each start one and
        # overwrite the last, leaving processes nobody ends until the Arena's process exits.
        if self._closing or not self.warm_start or self._standby is not None:
            return
        # As much memory as the largest entry may have: an entry's own limit is set on assign.
        own = self.settings.limits
        memory = max([own.memory, *(lim.memory for lim in self.settings.entry_limits.values())])
        limits = dataclasses.replace(own, memory=memory)
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
        target = python_target(entry)  # ValueError for no entry at all: spawn reports it
        limits = self.settings.entry_limits.get(name, self.settings.limits)
        env = self.settings.entry_env.get(name, {})
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
        folder = cap_build_timeout(read_folder(entry), self.settings.build_timeout)
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

    async def spawn(self, name: str, retried: bool = False) -> SeatBot:
        """A fresh bot for entry `name`, connected and busy in the pool (NoBot: why it could
        not start). `acquire` reuses an idle one first; this always launches."""
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
            return NoBot(Termination.CRASH, f"cannot start {name!r}: {exc}", str(where))
        failure = await self._hello(process, hello, str(log_path))
        if failure is not None:
            self.server.hub.forget(token)
            if not hello.done():
                hello.cancel()
            await process.kill()
            if process.warm and failure.termination is Termination.CRASH and not retried:
                # The bot's own crash, or its standby's? A fresh process tells: if it says Hello,
                # the standbys are the trouble here and warm start stops.
                worker = await self.spawn(name, retried=True)
                if isinstance(worker, Bot):
                    self._cold_from_now_on(
                        f"a warm {name!r} died before Hello, a fresh one did not (see {log_path})"
                    )
                return worker
            return failure
        return self._connected(name, hello.result(), process)

    async def _hello(
        self, process: BotProcess, hello: asyncio.Future[BotSession], log_path: str
    ) -> NoBot | None:
        """Wait for a launched bot's Hello: None once it said it, else why it did not."""
        exit_wait = asyncio.ensure_future(process.process.wait())
        timeout = self.settings.startup_timeout
        try:
            waiting: set[asyncio.Future[Any]] = {hello, exit_wait}
            done, _ = await asyncio.wait(
                waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            exit_wait.cancel()
        if hello in done and hello.exception() is None:
            return None
        if hello in done:
            error = hello.exception()
            kind = error.kind if isinstance(error, BotFault) else Termination.MALFORMED
            return NoBot(kind, str(error), log_path)
        if process.exited():
            kind, why = self._death(process)
            code = process.process.returncode
            return NoBot(
                kind, f"exited with {code} before Hello" + (f": {why}" if why else ""), log_path
            )
        return NoBot(Termination.NO_HELLO, f"no Hello within {timeout}s", log_path)

    def _connected(self, name: str, session: BotSession, process: BotProcess) -> Bot:
        """A launched bot that said Hello, set up (frozen, pinged) and busy in the pool."""
        worker = Bot(name, session, process, spawn_to_hello=time.perf_counter() - process.started)
        if process.group is not None:  # the cpu clock reads it
            session.cpu_counter = process.group.cpu_seconds
        if not self.settings.ponder:  # no CPU until its first move request (the session thaws)
            session.freezer = process
            process.freeze()
        if self.settings.ping_interval > 0:
            worker.keepalive = asyncio.ensure_future(
                session.keepalive(self.settings.ping_interval, self.settings.ping_timeout)
            )
        self.pool.add(worker)
        return worker

    async def declared_rulesets(self, name: str) -> tuple[str, ...] | None:
        """The rulesets entry `name`'s bot lists in its Hello (empty: every ruleset of the classic
        family), or None when it does not start; the bot stays connected for the next game."""
        worker = await self.acquire(name)
        if isinstance(worker, NoBot):
            return None
        self.pool.put_back(worker)
        return worker.session.rulesets

    async def cannot_start(self, name: str) -> str | None:
        """Why entry `name`'s bot cannot start (its termination and detail: a Python bot's
        exception and the line of its code), or None when it says Hello (it stays connected
        for the next game): `match` asks before a game rather than substitute a whole game."""
        worker = await self.acquire(name)
        if isinstance(worker, NoBot):
            return f"{worker.termination}: {worker.detail}" if worker.detail else worker.termination
        self.pool.put_back(worker)
        return None

    async def connect_remote(self, token: str, timeout: float) -> SeatBot:
        """Wait for a remote bot that says Hello with `token` (RefereeService seats)."""
        assert self.server is not None
        entry = f"token:{token}"
        while (worker := self.pool.take(entry)) is not None:
            if worker.session.alive:
                return worker
            self.pool.drop(worker)
        fut = self.server.hub.expect(token)
        try:
            session = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            self.server.hub.forget(token)
            return NoBot(
                Termination.NO_HELLO, f"no bot said Hello with this token within {timeout}s"
            )
        except BotFault as exc:
            return NoBot(exc.kind, exc.detail)
        worker = Bot(entry, session, None)
        self.pool.add(worker)
        return worker

    async def _release(self, worker: Bot, seat: Seat, log: _SeatLog) -> None:
        healthy = seat.termination in (Termination.OK, Termination.UNSUPPORTED_RULESET)
        await self.give_back(worker, healthy, log.save)

    async def give_back(
        self, worker: Bot, healthy: bool, save_log: Callable[[], None] = lambda: None
    ) -> None:
        """`worker` after a game (or anything else that asked it for moves): back to the pool
        when it played cleanly, lives and the Arena reuses bots, else it ends. `save_log` keeps
        its log of the game at the right moment."""
        worker.games += 1
        if healthy and worker.alive() and self.settings.reuse:
            save_log()  # before another game may take it and write on
            self.pool.put_back(worker)
        else:
            await self.retire(worker)
            save_log()  # once it has ended: its last words too

    @staticmethod
    def _death(process: BotProcess) -> tuple[Termination, str]:
        """Why a bot's process died: `memory` (over its memory limit) or `crash`, and the last
        line of its log (a Python bot's traceback ends with the exception)."""
        words = last_words(process.log_path)
        if process.oom_killed() or words.startswith("MemoryError"):
            return Termination.MEMORY, words or "killed over its memory limit"
        return Termination.CRASH, words

    async def _classify(self, workers: Sequence[SeatBot], seat: Seat, fault: BotFault) -> BotFault:
        """A closed stream is a crash (or `memory`) when the bot's process died, else a
        disconnect."""
        worker = workers[seat.index]
        if isinstance(worker, Bot) and worker.process is not None:
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
        bots: Sequence[SeatBot] | None = None,
    ) -> MatchResult:
        """Play one game: `seats` are entry names in seat order (2 to 4). With `seat_logs` (a
        file per seat), each seat's bot output of this game alone is copied to its file, which
        its `SeatResult.log_path` names; else that names its bot process's log (which holds
        every game the process played). `bots`: the seats' bots when the caller found them
        (`acquire`, `connect_remote`: RunMatch's remote seats); else the Arena does."""
        from referee.engine import new_game

        config = config or MatchConfig()
        _check_seats(seats, config, seat_logs, bots)
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
        match_id = match_id or secrets.token_hex(6)
        began = time.perf_counter()
        if config.clock is Clock.CPU:
            require_cpu_clock()
        if bots is None:
            bots = list(await asyncio.gather(*(self.acquire(s) for s in seats)))
        logs = [
            _seat_log(w, None if seat_logs is None else Path(seat_logs[i]))
            for i, w in enumerate(bots)
        ]
        match_seats, faults = build_seats(seats, bots, config)
        cpu_before = [w.cpu() if isinstance(w, Bot) else None for w in bots]
        try:
            outcome = await play_match(
                match_id,
                game,
                match_seats,
                config,
                seed=seed,
                faults=faults,
                bot_seeds=seeds,
                on_event=on_event,
                classify=lambda seat, fault: self._classify(bots, seat, fault),
            )
            cpu_used = [_spent(w, b) for w, b in zip(bots, cpu_before, strict=True)]
        finally:
            await self._release_all(bots, match_seats, logs)
        duration = time.perf_counter() - began
        results = seat_results(outcome, [log.path() for log in logs], cpu_used)
        record = build_replay(
            game.record(),
            match_id=match_id,
            names=list(seats),
            entries=[self.entry_of(s) for s in seats],
            bots=replay_bots(results, outcome.seats),
            plies=outcome.plies,
            faults=outcome.faults,
            config=dict(asdict(config), seed=seed, bot_seeds=list(seeds)),
            duration=duration,
        )
        return MatchResult(
            results, outcome.scores, outcome.ranks, record, duration, match_id, outcome.reason
        )

    async def _release_all(
        self, bots: Sequence[SeatBot], seats: Sequence[Seat], logs: Sequence[_SeatLog]
    ) -> None:
        """After a game: each bot back to the pool (or ended), each seat's log saved."""
        await asyncio.gather(
            *(
                self._release(w, s, log)
                for w, s, log in zip(bots, seats, logs, strict=True)
                if isinstance(w, Bot)
            )
        )
        for worker, log in zip(bots, logs, strict=True):
            if isinstance(worker, NoBot):
                log.save()


def _check_seats(
    seats: Sequence[str],
    config: MatchConfig,
    seat_logs: Sequence[Path] | None,
    bots: Sequence[SeatBot] | None,
) -> None:
    """ValueError, saying what does not fit, for seats no match can be played with."""
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"a match has 2 to 4 seats, not {len(seats)}")
    if seat_logs is not None and len(seat_logs) != len(seats):
        raise ValueError(f"{len(seat_logs)} log files for {len(seats)} seats")
    if bots is not None and len(bots) != len(seats):
        raise ValueError(f"{len(bots)} bots for {len(seats)} seats")


def _spent(bot: SeatBot, before: float | None) -> float | None:
    """CPU seconds a seat's bot used since `before` (None where it is not counted)."""
    after = bot.cpu() if isinstance(bot, Bot) else None
    return None if before is None or after is None else round(after - before, 4)
