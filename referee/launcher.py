"""The bot launcher: every entry runs as its own process, in its own process group, with limits.

An entry is a built-in bot name (`builtin_bots`), a Python file with a Bot subclass
(`path/bot.py` or `path/bot.py:ClassName`), a bot folder whose bot.toml says how it starts (see
referee/folders.py; it runs in its folder), or any command line (it contains a space: `node
bot.js`). The process learns the referee's address and its token from the environment
(AZUL_ARENA_REFEREE, AZUL_ARENA_TOKEN); its stdout and stderr go to a log file.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import re
import resource
import shlex
import shutil
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import sandbox
from referee.cgroups import BotCgroup, joined
from referee.folders import BotFolder, is_folder_entry, python_bot, read_folder
from referee.priority import follow_sessions, process_tree
from referee.procfs import stat_fields
from referee.protocol.loop import spawn
from referee.sandbox import Limits, Place
from referee.stopping import Stopper

ADDRESS_SPACE_LIMIT = Limits.memory  # bytes; a runaway bot fails its own allocations
CPU_SECONDS_LIMIT = Limits.cpu_seconds
FILE_SIZE_LIMIT = Limits.file_size  # bytes per file written, its log included: no filling the disk
DEFAULT_LIMITS = Limits()
TITLE_ROOM = 1024  # characters a standby keeps for the command line it will show (launch_standby)


BOTS_GROUP = "azul_arena.bots"


@functools.cache
def builtin_bots() -> dict[str, str]:
    """The built-in bots, name -> `module:Class`: the `azul_arena.bots` entry points of every
    installed package (this project's are in its pyproject.toml)."""
    from importlib.metadata import entry_points

    return {point.name: point.value for point in entry_points(group=BOTS_GROUP)}


@functools.cache
def _builtin_class(name: str) -> Any:
    """The class of the built-in bot `name` (an sdk.Bot, which the referee does not import),
    loaded through its entry point; None: no such bot."""
    from importlib.metadata import entry_points

    for point in entry_points(group=BOTS_GROUP, name=name):
        return point.load()
    return None


def builtin_parameters(name: str) -> dict[str, str]:
    """The parameters the built-in bot `name` takes, name -> what it means: its class's
    `parameters` (sdk.Bot)."""
    return dict(getattr(_builtin_class(name), "parameters", {}))


def parse_builtin(spec: str) -> tuple[str, dict[str, int]] | None:
    """`(name, parameters)` of a built-in spec (`mcts`, `mcts:iterations=400`), None when `spec`
    names no built-in; ValueError, saying what the bot takes, for a parameter it does not take
    or a value that is not a positive whole number (or 0, for the class's `may_be_zero`).

    A built-in may take parameters after its name, `NAME:KEY=VALUE[,KEY=VALUE...]`, on the
    command line and in a TOML entry's `builtin`: whole numbers passed to the bot's
    class as keyword arguments (the search bots' fixed budgets: the same work a move on any
    machine at any load, so a ladder of them replays exactly; switches such as `expert:net=0`)."""
    name, sep, rest = spec.strip().partition(":")
    if name not in builtin_bots() or (sep and "=" not in rest):
        return None  # not a built-in (a `module:Class` or a file's `path.py:Class`)
    params: dict[str, int] = {}
    takes = builtin_parameters(name) if sep else {}
    for item in rest.split(",") if sep else []:
        key, _, value = (part.strip() for part in item.partition("="))
        if key not in takes:
            offered = "; ".join(f"{k}: {v}" for k, v in takes.items()) if takes else "no parameters"
            raise ValueError(
                f"the built-in bot {name} has no parameter {key!r}; it takes "
                f"{offered} (e.g. mcts:iterations=400)"
            )
        # The bot's class (an sdk.Bot, which the referee does not import) says what it takes.
        params[key] = _builtin_class(name).parameter(name, key, value)
    return name, params


def builtin_target(spec: str) -> str | None:
    """What `python -m sdk.run` runs for a built-in spec: `module:Class`, with its parameters
    as `?key=value,...` (`sdk.run.load_bot` reads them); None when `spec` names no built-in."""
    found = parse_builtin(spec)
    if found is None:
        return None
    name, params = found
    query = ",".join(f"{k}={v}" for k, v in params.items())
    return builtin_bots()[name] + (f"?{query}" if query else "")


def python_target(entry: str) -> str | None:
    """What `python -m sdk.run` runs for `entry` (`module:Class` or `/abs/path/bot.py[:Class]`), or
    None for a command line; raises ValueError for an entry that is none of them."""
    table = builtin_bots()
    builtin = builtin_target(entry)  # with its parameters (mcts:iterations=400)
    if builtin is not None:
        return builtin
    in_folder = python_bot(entry)
    if in_folder is not None:
        return str(in_folder.resolve())
    if " " in entry.strip() or is_folder_entry(entry):
        return None
    path = entry.rsplit(":", 1)[0] if re.search(r"\.py:\w+$", entry) else entry
    if path.endswith(".py"):
        if not Path(path).is_file():
            raise ValueError(f"bot file not found: {path}")
        return str(Path(path).resolve()) + entry[len(path) :]
    raise ValueError(
        f"unknown bot entry {entry!r}: not a built-in "
        f"({', '.join(sorted(table))}), a .py file, a bot folder or a "
        "command line"
    )


def check_entry(entry: str) -> None:
    """Raise ValueError, saying what is wrong, unless `entry` can be launched: a built-in, an
    existing .py file, a bot folder with a valid bot.toml, or a command line whose program is on
    PATH or an existing file. (A folder's program made by its build step may not exist yet.)"""
    program = entry_argv(entry)[0]
    if is_folder_entry(entry) and read_folder(entry).build:
        return
    if shutil.which(program) is None and not (os.sep in program and Path(program).is_file()):
        kind = "bot folder" if is_folder_entry(entry) else "command line entry"
        raise ValueError(
            f"program {program!r} of the {kind} {entry!r} is neither on "
            "PATH nor an existing file (give the full path, or install it)"
        )


def slug(text: str) -> str:
    """A file-name-safe short form of an entry."""
    first = Path(text.split()[0]) if text.strip() else Path("bot")
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", first.name or first.resolve().name or "bot")[:40]


def _limit(pid: int, which: int, value: int) -> None:
    with contextlib.suppress(OSError, ValueError):
        resource.prlimit(pid, which, (value, value))


def bot_environment(**extra: str) -> dict[str, str]:
    """The environment of a process the referee starts that is not a bot's (a benchmark's echo
    client): the one a bot at level `process` gets, with `extra`."""
    return sandbox.environment("process", Path(tempfile.gettempdir()), extra)


def _tree_cpu(pid: int) -> float | None:
    """CPU seconds of `pid` and its descendants (waited-for children included), from /proc."""
    total, ticks, seen = 0, os.sysconf("SC_CLK_TCK"), False
    for member in process_tree(pid):
        try:
            fields = stat_fields(member)
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
            seen = True
        except (OSError, ValueError, IndexError):
            continue
    return total / ticks if seen else None


@dataclass(frozen=True)
class Program:
    """How an entry runs: its command line and the folder of its own files (None for a
    built-in). In the sandbox the folder is shown at /bot and the command line names it so."""

    argv: list[str]
    bot_dir: Path | None
    own_dir: bool = False  # started in its folder (a Python file; else in the referee's)


def entry_program(entry: str, level: str = "process") -> Program:
    """The command line that runs `entry` at `level` and its files' folder (raises ValueError
    for an entry that is none of a built-in, a .py file or a command line)."""
    target = python_target(entry)
    inside = level == "sandbox"
    if target is not None:
        if not target.startswith("/"):  # a built-in: the project's own module
            return Program([sys.executable, "-m", "sdk.run", target], None)
        file, colon, cls = target.partition(":") if ".py:" in target else (target, "", "")
        if inside:
            target = f"{sandbox.BOT_DIR}/{Path(file).name}{colon}{cls}"
        return Program([sys.executable, "-m", "sdk.run", target], Path(file).parent, own_dir=True)
    if is_folder_entry(entry):  # a bot folder runs in its folder (shown at /bot)
        found = read_folder(entry)
        argv = found.argv()
        if inside:
            argv = [_inside(a, found.path) for a in argv]
        return Program(argv, found.path, own_dir=True)
    argv = shlex.split(entry)
    # A command line's own files: the folder of its first argument that names a file (its
    # program too, unless that is an interpreter the system or the referee's Python provides;
    # a program under /opt is a bot's: the sandbox does not show /opt).
    shown = ("/usr/", "/bin/", "/sbin/", "/lib", sys.prefix + "/", sys.base_prefix + "/")
    files = [
        Path(a).resolve()
        for i, a in enumerate(argv)
        if Path(a).is_file() and not (i == 0 and (os.path.abspath(a) + "/").startswith(shown))
    ]
    folder = files[0].parent if files else None
    if inside and folder is not None:
        argv = [_inside(a, folder) for a in argv]
    return Program(argv, folder)


def _inside(arg: str, bot_dir: Path) -> str:
    """`arg` as the sandbox sees it: a path inside the bot's folder moves to /bot."""
    path = Path(arg)
    if not path.exists():
        return arg
    try:
        return f"{sandbox.BOT_DIR}/{path.resolve().relative_to(bot_dir)}"
    except ValueError:
        return arg


def entry_argv(entry: str) -> list[str]:
    """The command line that runs `entry` outside the sandbox (ValueError for no entry)."""
    return entry_program(entry).argv


@dataclass
class Isolation:
    """How an Arena starts its bots: the level (sandbox.LEVELS), the folder where it makes their
    private folders, the folder holding only the referee's socket (shown in the sandbox), the
    paths no bot may see even in its own folder (the database, the logs, other entries), and the
    variables the organiser passes to every bot (--bot-env)."""

    level: str
    workdir: Path
    socket_dir: Path | None = None
    hidden: tuple[Path, ...] = ()
    env: dict[str, str] = field(default_factory=dict)

    def place(self, bot_dir: Path | None) -> Place:
        home = Path(tempfile.mkdtemp(prefix="bot-", dir=self.workdir))
        return Place(home, bot_dir, self.socket_dir, self.hidden)


@dataclass
class BotProcess:
    """A launched bot: its process, its log file, its cgroup, and how to freeze and end it."""

    entry: str
    process: asyncio.subprocess.Process
    log_path: Path
    started: float
    place: Place | None = None
    group: BotCgroup | None = None
    level: str = "process"
    warm: bool = False  # a standby process that became this bot (assign)
    frozen: bool = False
    _stop: Stopper | None = field(default=None, repr=False)  # what `freeze` stopped
    _held: bool = field(default=False, repr=False)  # frozen by its cgroup's freezer
    _killed: bool = field(default=False, repr=False)

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> bool:
        return self.process.returncode is not None

    async def wait_exit(self, timeout: float) -> int | None:
        """The exit code if the process ends within `timeout` seconds, else None."""
        try:
            return await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            return None

    def _signal(self, signum: int) -> list[int]:
        """Send `signum` to every process of the bot: each one in its cgroup (even one that left
        its process group; the pids are returned), else its process group."""
        pids = self.group.pids() if self.group is not None else []
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signum)
        if not pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signum)
        return pids

    def freeze(self) -> None:
        """Stop all its processes: no CPU until `thaw`. With a v2 cgroup, its freezer (one
        write, forks under way included: referee.cgroups); else, with a cgroup, each process
        through its process group, then looked at again until all are stopped
        (referee.stopping); without one, its process group (SIGSTOP)."""
        if not self.frozen and not self._killed and self.process.returncode is None:
            self.frozen = True
            if self.group is not None and self.group.hold(True):
                self._held = True
                return
            stop = Stopper(self.group.pids, self.pid) if self.group is not None else None
            self._stop = stop if stop is not None and stop.stop() else None
            if self._stop is None:
                self._signal(signal.SIGSTOP)

    @property
    def settled(self) -> bool:
        """Whether its freeze is complete: every process in the freezer's trap, or found
        stopped with none new (a freeze by signals looks again at its cgroup until then)."""
        if self._held:
            return self.group is not None and self.group.frozen()
        return self._stop is None or self._stop.settled

    def thaw(self) -> None:
        """Continue what `freeze` stopped, the bot's own process first."""
        if self.frozen:
            self.frozen = False
            held, self._held = self._held, False
            if held and self.group is not None and self.group.hold(False):
                return
            stop, self._stop = self._stop, None
            if stop is None:
                self._signal(signal.SIGCONT)
            else:
                stop.resume()

    def cpu_seconds(self) -> float | None:
        """CPU time its processes used so far (cgroup, else /proc)."""
        found = self.group.cpu_seconds() if self.group is not None else None
        return found if found is not None else _tree_cpu(self.pid)

    def oom_killed(self) -> bool:
        return self.group is not None and self.group.oom_killed()

    async def kill(self, grace: float = 0.3) -> None:
        """End all its processes: SIGTERM, then SIGKILL after `grace` seconds; then every
        process left in its cgroup. Its private folders go too.

        The group is signalled even when the leader already exited, so that children a bot
        started (and would leave behind as orphans) die with it.
        """
        if self._killed:
            return
        self._killed = True
        self._signal(signal.SIGTERM)
        self.frozen = True
        self.thaw()  # a stopped process acts on its SIGTERM only once continued
        await self.wait_exit(grace)
        self._signal(signal.SIGKILL)
        await self.wait_exit(2.0)
        if self.group is not None:
            for _ in range(50):  # escaped processes: until none is left (they cannot hide)
                pids = self.group.pids()
                if not pids:
                    break
                self._signal(signal.SIGKILL)
                await asyncio.sleep(0.02)
            self.group.remove()
        if self.place is not None:
            shutil.rmtree(self.place.home, ignore_errors=True)


async def _start(  # noqa: PLR0913  # the parts of one launch, all keyword-passed by launch()
    argv: list[str],
    extra_env: dict[str, str],
    log_path: Path,
    level: str,
    limits: Limits,
    place: Place,
    entry: str,
    cwd: Path | None = None,
    stdin: int = asyncio.subprocess.DEVNULL,
) -> BotProcess:
    """Start `argv` at `level`, limited, its output going to `log_path`."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    env = sandbox.environment(level, place.home, extra_env)
    group = BotCgroup.create(limits.processes, limits.memory)
    full = joined(group, sandbox.command(argv, level, limits, place, env))
    try:
        with open(log_path, "xb") as log:  # its own file: never one another bot writes
            started = time.perf_counter()
            process = await spawn(
                *full,
                stdin=stdin,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                env=env,
                cwd=None if cwd is None or level == "sandbox" else cwd,
                start_new_session=True,
            )  # its own session => its own process group
        follow_sessions(process.pid)  # as low as the referee, in its session too
    except BaseException:
        if group is not None:
            group.remove()
        raise
    if level == "none":
        # Limits set from here with prlimit rather than a preexec_fn, which is unsafe in a
        # threaded parent (grpc runs threads); the window before they apply is microseconds.
        _limit(process.pid, resource.RLIMIT_AS, limits.memory)
        _limit(process.pid, resource.RLIMIT_CPU, limits.cpu_seconds)
        _limit(process.pid, resource.RLIMIT_FSIZE, limits.file_size)  # past it: SIGXFSZ
    return BotProcess(entry, process, log_path, started, place, group, level)


async def launch(
    entry: str,
    address: str,
    token: str,
    log_path: Path,
    isolation: Isolation,
    limits: Limits = DEFAULT_LIMITS,
    env: dict[str, str] | None = None,
) -> BotProcess:
    """Start `entry` as a bot process that will dial `address` (as the bot sees it) and say
    Hello with `token`; `env`: the variables the organiser passes to this entry."""
    program = entry_program(entry, isolation.level)
    extra = {
        **isolation.env,
        **(env or {}),
        "AZUL_ARENA_REFEREE": address,
        "AZUL_ARENA_TOKEN": token,
    }
    return await _start(
        program.argv,
        extra,
        log_path,
        isolation.level,
        limits,
        isolation.place(program.bot_dir),
        entry,
        program.bot_dir if program.own_dir else None,
    )


async def launch_standby(
    log_path: Path, isolation: Isolation, limits: Limits = DEFAULT_LIMITS
) -> BotProcess:
    """Start a warm Python bot process (sdk.standby) that waits to be told which bot to be:
    isolated and limited like any bot (`limits.memory`: the largest an entry may get); `assign`
    makes it one. In the sandbox it sees an empty /bot, filled when it is assigned."""
    # The padding argument reserves room in the process's argv memory for the command line it
    # will show once it is a bot (sdk.standby.show_as), so that setproctitle can leave the
    # environment's memory alone (SPT_NOENV): /proc/PID/environ still lists what it started with.
    argv = [sys.executable, "-m", "sdk.standby", "-" * TITLE_ROOM]
    place = isolation.place(None)
    if isolation.level == "sandbox":
        place.bot_dir = place.home / "bot"
        place.bot_dir.mkdir()
    return await _start(
        argv,
        {**isolation.env, "SPT_NOENV": "1"},
        log_path,
        isolation.level,
        limits,
        place,
        "",
        stdin=asyncio.subprocess.PIPE,
    )


MAX_COPIED_FILES = 2000  # a warm sandboxed bot's folder is copied in; past this, it starts cold


def _show_files(source: Path, target: Path, hidden: tuple[Path, ...]) -> None:
    """Make `source`'s files appear in `target` (hard links, else copies), but none of
    `hidden`; raises OSError past MAX_COPIED_FILES files."""
    hide = {h.resolve() for h in hidden}
    count = 0
    for root, dirs, files in os.walk(source):
        here = Path(root)
        dirs[:] = [d for d in dirs if (here / d).resolve() not in hide]
        out = target / here.relative_to(source)
        out.mkdir(exist_ok=True)
        for name in files:
            path = here / name
            if path.resolve() in hide or path.is_symlink():
                continue
            count += 1
            if count > MAX_COPIED_FILES:
                raise OSError(f"more than {MAX_COPIED_FILES} files in {source}")
            try:
                os.link(path, out / name)
            except OSError:
                shutil.copy2(path, out / name)


def assign(
    standby: BotProcess,
    entry: str,
    address: str,
    token: str,
    log_path: Path,
    limits: Limits,
    env: dict[str, str] | None = None,
) -> None:
    """Make a standby process (launch_standby) the Python bot `entry`, dialling `address` with
    `token`, under `limits` (its memory: no more than the standby's); its log file is renamed to
    `log_path` (a new name: `log_name`). Raises OSError if it cannot (the caller starts the bot
    cold)."""
    stdin = standby.process.stdin
    if stdin is None or stdin.is_closing():
        raise OSError("the standby process is no longer listening")
    program = entry_program(entry, standby.level)
    place = standby.place
    if program.bot_dir is not None and standby.level == "sandbox":
        assert place is not None and place.bot_dir is not None
        _show_files(program.bot_dir, place.bot_dir, place.hidden)
    if standby.group is not None:
        standby.group.set_memory(limits.memory)
    order = {
        "target": program.argv[-1],
        "referee": address,
        "token": token,
        "memory": limits.memory,
        "env": env or {},
        "cwd": str(program.bot_dir or "") if standby.level != "sandbox" else "",
    }
    stdin.write((json.dumps(order) + "\n").encode())
    stdin.close()
    with contextlib.suppress(OSError):
        os.link(standby.log_path, log_path)  # unlike a rename, never over an existing file
        standby.log_path.unlink()
        standby.log_path = log_path
    standby.entry, standby.warm = entry, True
    standby.started = time.perf_counter()  # spawn-to-Hello counts from here


BUILD_LIMITS = Limits(
    memory=8 << 30, cpu_seconds=3600, file_size=1 << 30, processes=256, tmp_size=1 << 30
)  # a compiler needs more than a bot


def build_wrapper(
    folder: BotFolder, isolation: Isolation, limits: Limits = BUILD_LIMITS
) -> tuple[Callable[[list[str]], list[str]], dict[str, str]]:
    """What puts a bot folder's build command (referee.folders.build) at the Arena's isolation
    level, and the environment to start it with: the same sandbox as its bot, but its folder
    writable (the build writes its output there), bigger limits, and the same clean environment
    (every process started, bwrap and the other wrappers included: a wrapper that stays, as
    bwrap does as the namespace's PID 1, shows its environment in /proc); its time limit is
    the folder's."""
    place = isolation.place(folder.path)
    place.writable, place.mount_at = True, str(folder.path)
    env = sandbox.environment(isolation.level, place.home, dict(isolation.env))

    def wrap(argv: list[str]) -> list[str]:
        return sandbox.command(argv, isolation.level, limits, place, env)

    return wrap, env


def last_words(log_path: Path, keep: int = 200) -> str:
    """The last line of a bot's log (for a Python bot that died: its exception), clipped."""
    try:
        with open(log_path, "rb") as log:
            log.seek(max(0, log.seek(0, os.SEEK_END) - 8192))
            lines = log.read().decode(errors="replace").splitlines()
    except OSError:
        return ""
    line = next((x.strip() for x in reversed(lines) if x.strip()), "")
    line = line if len(line) <= keep else line[:keep] + "..."
    return line + _where(lines)


_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?')


def _where(lines: list[str]) -> str:
    """Where the traceback that ends `lines` points in the bot's code, as " (bot.py line 5, in
    helper)": its last frame (the SDK prints only the bot's own); "" when it has none."""
    for text in reversed(lines[-60:]):
        if text.startswith("Traceback") or "choose_move raised" in text:
            break
        found = _FRAME.match(text)
        if found:
            name, number, function = found.groups()
            return f" ({os.path.basename(name)} line {number}" + (
                f", in {function})" if function and function != "<module>" else ")"
            )
    return ""


GAME_LOG_LIMIT = 1 << 20  # bytes of one seat's log kept per game: the end (where a crash is)


def log_name(folder: Path, prefix: str, suffix: str = "") -> Path:
    """A name for a new log file in `folder`: `PREFIX-IDSUFFIX.log`, ID random, no file yet (a bot's
    is created exclusively as it starts: `_start`, `assign`). Several Arenas (ladder workers
    sharing one data folder, in one process or many) never share a file, as names made of a
    counter that restarts with each Arena did."""
    folder.mkdir(parents=True, exist_ok=True)
    while True:
        path = folder / f"{prefix}-{uuid.uuid4().hex[:16]}{suffix}.log"
        if not path.exists():
            return path


def new_log(folder: Path, prefix: str, suffix: str = "") -> Path:
    """A log file of its own in `folder` (`log_name`), created empty with O_EXCL."""
    while True:
        path = log_name(folder, prefix, suffix)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue  # taken meanwhile: another ID
        return path


def log_size(path: Path) -> int:
    """How many bytes a log holds now (0 for none): where the next game's lines start."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def copy_log(source: Path, start: int, target: Path, limit: int = GAME_LOG_LIMIT) -> bool:
    """Write what `source` holds from byte `start` on (its last `limit` bytes at most, with a
    line saying what was cut) to `target`, replacing it whole (a temporary file renamed: a game
    played twice leaves one copy, never two mixed). False when `source` cannot be read."""
    try:
        with open(source, "rb") as log:
            end = log.seek(0, os.SEEK_END)
            begin = min(max(start, end - limit), end)
            log.seek(begin)
            data = log.read(end - begin)
    except OSError:
        return False
    if begin > start:
        data = f"[the first {begin - start} bytes of this game's log are cut]\n".encode() + data
    write_seat_log(target, data)
    return True


def write_seat_log(target: Path, data: bytes) -> None:
    """Write a seat's log of one game whole, replacing any earlier copy in one step (a game
    played again leaves one copy, and a reader never sees half of one)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".seat-", suffix=".log", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
