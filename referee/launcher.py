"""The bot launcher: every entry runs as its own process, in its own process group, with limits.

An entry is a built-in bot name (see bots/registry.py), a Python file with a Bot subclass
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
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from referee.folders import is_folder_entry, read_folder

ADDRESS_SPACE_LIMIT = 2 << 30  # bytes; a runaway bot fails its own allocations, not the machine
CPU_SECONDS_LIMIT = 3600  # generous: pooled bots play many games; this only stops a spinning bot
FILE_SIZE_LIMIT = 64 << 20  # bytes per file written, its log included: no filling the disk
TITLE_ROOM = 1024  # characters a standby keeps for the command line it will show (launch_standby)


def python_target(entry: str) -> str | None:
    """What `python -m sdk.run` runs for `entry` (`module:Class` or `/abs/path/bot.py[:Class]`), or
    None for a command line; raises ValueError for an entry that is none of them."""
    from bots.registry import BUILTIN_BOTS

    if entry in BUILTIN_BOTS:
        return BUILTIN_BOTS[entry]
    if " " in entry.strip() or is_folder_entry(entry):
        return None
    path = entry.rsplit(":", 1)[0] if re.search(r"\.py:\w+$", entry) else entry
    if path.endswith(".py"):
        if not Path(path).is_file():
            raise ValueError(f"bot file not found: {path}")
        return str(Path(path).resolve()) + entry[len(path):]
    raise ValueError(f"unknown bot entry {entry!r}: not a built-in "
                     f"({', '.join(sorted(BUILTIN_BOTS))}), a .py file, a bot folder or a "
                     "command line")


def entry_argv(entry: str) -> list[str]:
    """The command line that runs `entry` (raises ValueError for an entry that is none of them;
    FolderError, a ValueError, for a folder whose bot.toml is missing or wrong)."""
    target = python_target(entry)
    if target is not None:
        return [sys.executable, "-m", "sdk.run", target]
    return read_folder(entry).argv() if is_folder_entry(entry) else shlex.split(entry)


def entry_cwd(entry: str) -> Path | None:
    """The directory `entry` runs in: its own for a bot folder, else None (the caller's)."""
    return read_folder(entry).path if is_folder_entry(entry) else None


def check_entry(entry: str) -> None:
    """Raise ValueError, saying what is wrong, unless `entry` can be launched: a built-in, an
    existing .py file, a bot folder with a valid bot.toml, or a command line whose program is on
    PATH or an existing file. (A folder's program made by its build step may not exist yet.)"""
    program = entry_argv(entry)[0]
    if is_folder_entry(entry) and read_folder(entry).build:
        return
    if shutil.which(program) is None and not (os.sep in program and Path(program).is_file()):
        kind = "bot folder" if is_folder_entry(entry) else "command line entry"
        raise ValueError(f"program {program!r} of the {kind} {entry!r} is neither on "
                         "PATH nor an existing file (give the full path, or install it)")


def slug(text: str) -> str:
    """A file-name-safe short form of an entry."""
    first = Path(text.split()[0]) if text.strip() else Path("bot")
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", first.name or first.resolve().name or "bot")[:40]


@dataclass
class BotProcess:
    """A launched bot: its process, its log file, and how to end it."""

    entry: str
    process: asyncio.subprocess.Process
    log_path: Path
    started: float
    warm: bool = False  # a standby process that became this bot (assign)
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

    async def kill(self, grace: float = 0.3) -> None:
        """End the whole process group: SIGTERM, then SIGKILL after `grace` seconds.

        The group is signalled even when the leader already exited, so that children a bot
        started (and would leave behind as orphans) die with it.
        """
        if self._killed:
            return
        self._killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGTERM)
        if await self.wait_exit(grace) is None:
            pass
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        await self.wait_exit(2.0)


@functools.cache
def isolation() -> tuple[str, ...]:
    """The command prefix that starts a bot as the first process of its own PID namespace, or ()
    where this machine does not allow it (then bots run as plain child processes).

    In its namespace a bot sees no other process, so it cannot signal the referee or another bot
    or read their environment (tokens); everything it starts dies with it, even after setsid();
    it dies if the referee dies (pdeathsig); it holds no capabilities (it cannot remount /proc to
    look outside). It still sees the file system: run untrusted code as a user that owns
    nothing else of value. AZUL_ARENA_ISOLATION=0 turns it off.
    """
    unshare, setpriv, prlimit = (shutil.which(n) for n in ("unshare", "setpriv", "prlimit"))
    if os.environ.get("AZUL_ARENA_ISOLATION") == "0" or not (unshare and setpriv and prlimit):
        return ()
    namespace = [unshare, "--pid", "--fork", "--kill-child", "--mount-proc"]
    if os.geteuid() != 0:
        namespace[1:1] = ["--user", "--map-root-user"]  # unprivileged: a user namespace too
    prefix = (setpriv, "--pdeathsig", "KILL", "--", *namespace, "--")
    drop = (setpriv, "--no-new-privs", "--bounding-set=-all", "--inh-caps=-all", "--")
    try:
        probe = subprocess.run([*prefix, *drop, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (*prefix, "@limits", *drop) if probe.returncode == 0 else ()


def limited_argv(argv: list[str], address_space: int, cpu_seconds: int,
                 file_size: int) -> list[str] | None:
    """`argv` inside the isolation prefix, with its limits applied before it runs; None when
    isolation is not available."""
    prefix = isolation()
    if not prefix:
        return None
    limits = [shutil.which("prlimit") or "prlimit", f"--as={address_space}",
              f"--cpu={cpu_seconds}", f"--fsize={file_size}", "--"]
    at = prefix.index("@limits")
    return [*prefix[:at], *limits, *prefix[at + 1:], *argv]


def _limit(pid: int, which: int, value: int) -> None:
    with contextlib.suppress(OSError, ValueError):
        resource.prlimit(pid, which, (value, value))


def bot_environment(**extra: str) -> dict[str, str]:
    """The environment a bot process starts with: this one, plus `extra`."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", **extra)
    # Run from the project root so that `python -m sdk.run` and built-ins import even when the
    # project is not installed (the venv's editable install also covers it).
    root = Path(__file__).resolve().parents[1]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    return env


async def _start(argv: list[str], env: dict[str, str], log_path: Path, address_space: int,
                 cpu_seconds: int, file_size: int, entry: str,
                 stdin: int = asyncio.subprocess.DEVNULL, cwd: Path | None = None) -> BotProcess:
    """Start `argv` isolated and limited, its output going to `log_path`."""
    import time

    log_path.parent.mkdir(parents=True, exist_ok=True)
    isolated = limited_argv(argv, address_space, cpu_seconds, file_size)
    with open(log_path, "ab") as log:
        started = time.perf_counter()
        process = await asyncio.create_subprocess_exec(
            *(isolated or argv), stdin=stdin, stdout=log, stderr=asyncio.subprocess.STDOUT,
            env=env, cwd=cwd, start_new_session=True)  # its own session: its own process group
    if isolated is None:
        # Limits set from here with prlimit rather than a preexec_fn, which is unsafe in a
        # threaded parent (grpc runs threads); the window before they apply is microseconds.
        _limit(process.pid, resource.RLIMIT_AS, address_space)
        _limit(process.pid, resource.RLIMIT_CPU, cpu_seconds)
        _limit(process.pid, resource.RLIMIT_FSIZE, file_size)  # past it: SIGXFSZ, a crash
    return BotProcess(entry, process, log_path, started)


async def launch(entry: str, address: str, token: str, log_path: Path,
                 address_space: int = ADDRESS_SPACE_LIMIT,
                 cpu_seconds: int = CPU_SECONDS_LIMIT,
                 file_size: int = FILE_SIZE_LIMIT) -> BotProcess:
    """Start `entry` as a bot process that will dial `address` and say Hello with `token`."""
    env = bot_environment(AZUL_ARENA_REFEREE=address, AZUL_ARENA_TOKEN=token)
    return await _start(entry_argv(entry), env, log_path, address_space, cpu_seconds, file_size,
                        entry, cwd=entry_cwd(entry))


async def launch_standby(log_path: Path, address_space: int = ADDRESS_SPACE_LIMIT,
                         cpu_seconds: int = CPU_SECONDS_LIMIT,
                         file_size: int = FILE_SIZE_LIMIT) -> BotProcess:
    """Start a warm Python bot process (sdk.standby) that waits to be told which bot to be:
    isolated and limited like any bot; `assign` makes it one."""
    # The padding argument reserves room in the process's argv memory for the command line it
    # will show once it is a bot (sdk.standby.show_as), so that setproctitle can leave the
    # environment's memory alone (SPT_NOENV): /proc/PID/environ still lists what it started with.
    argv = [sys.executable, "-m", "sdk.standby", "-" * TITLE_ROOM]
    return await _start(argv, bot_environment(SPT_NOENV="1"), log_path, address_space,
                        cpu_seconds, file_size, "", stdin=asyncio.subprocess.PIPE)


def assign(standby: BotProcess, target: str, entry: str, address: str, token: str,
           log_path: Path) -> None:
    """Make a standby process (launch_standby) the bot `entry`, whose `python_target` is
    `target`, dialling `address` with `token`; its log file is renamed to `log_path`."""
    import time

    stdin = standby.process.stdin
    if stdin is None or stdin.is_closing():
        raise OSError("the standby process is no longer listening")
    order = {"target": target, "referee": address, "token": token}
    stdin.write((json.dumps(order) + "\n").encode())
    stdin.close()
    with contextlib.suppress(OSError):
        standby.log_path.rename(log_path)
        standby.log_path = log_path
    standby.entry, standby.warm = entry, True
    standby.started = time.perf_counter()  # spawn-to-Hello counts from here
