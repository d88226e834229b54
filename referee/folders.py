"""Bot folders: a directory whose `bot.toml` says how its bot is built and started, any language.

```toml
# bot.toml
name = "greedy-js"                 # optional: the entry's default name (else the folder's name)
language = "node"                  # optional, informative: python, node, cpp, ...
run = "node bot.js"                # the command line that starts the bot, run in this folder
build = "cmake -S . -B build && cmake --build build"   # optional: a shell command, run in this
build_timeout = 600                # folder once before the bot's first game (seconds)
```

A folder is an entry like a built-in name, a `.py` file or a command line: `azul-arena match
./mybot random`, `bot check ./mybot`, `folder = "mybot"` in a TOML entries file. The run command
is split like a shell would (no shell runs it); a program given as a relative path (`./build/bot`)
is the folder's. The build runs through `/bin/sh -c`; `build_command` is the one place that says
how, so that a launcher can wrap it (a sandbox, other limits).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import os
import shlex
import signal
import stat
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.priority import follow_sessions
from referee.protocol.loop import spawn
from referee.sandbox import environment

BOT_TOML = "bot.toml"
DEFAULT_BUILD_TIMEOUT = 600.0  # seconds: a first C++ gRPC build on 2 cores takes a few minutes
# What a build may leave in its folder: a C++ gRPC build's objects take ~100 MiB. The folder is
# the host's disk (mounted writable into the sandbox), so a build past it is stopped.
DEFAULT_BUILD_DISK = 512 * 2**20
BUILD_FILES_MAX = 50_000  # entries in the folder: also bounds the cost of measuring it
DISK_POLL = 0.1  # seconds between two measures of the folder while its build runs
TOML_MAX = 64 * 1024  # bytes of a bot.toml (read on the host, before and after the build)
_KEYS = {"name", "language", "run", "build", "build_timeout"}


class FolderError(ValueError):
    """A folder that is not a bot folder, or a bot.toml that is wrong: the message says what."""


class BuildError(ValueError):
    """A bot folder's build failed or timed out; the message says which, `log_path` where its
    log is (not in the message: a server shows its participants no path of its own)."""

    def __init__(self, message: str, log_path: Path) -> None:
        super().__init__(message)
        self.log_path = log_path


@dataclass(frozen=True)
class BotFolder:
    """A bot folder as its bot.toml describes it (see the module docstring)."""

    path: Path  # absolute
    run: tuple[str, ...]
    build: str = ""
    build_timeout: float = DEFAULT_BUILD_TIMEOUT
    name: str = ""
    language: str = ""
    asked_timeout: float | None = None  # bot.toml's build_timeout, when a limit cut it
    build_disk: int = DEFAULT_BUILD_DISK  # bytes the folder may hold after its build

    def argv(self) -> list[str]:
        """The run command, with a program given as a relative path made the folder's."""
        program, *args = self.run
        if os.sep in program and not Path(program).is_absolute():
            program = str(self.path / program)
        return [program, *args]


def python_bot(entry: str) -> Path | None:
    """The bot.py of a folder `bot new --lang python` made (a bot.py and no bot.toml): such a
    folder is the entry `folder/bot.py`. None for anything else."""
    folder = Path(entry.strip())
    if (
        entry.strip()
        and folder.is_dir()
        and not (folder / BOT_TOML).exists()
        and (folder / "bot.py").is_file()
    ):
        return folder / "bot.py"
    return None


def is_folder_entry(entry: str) -> bool:
    """Whether `entry` names a directory run by its bot.toml (a bot folder, or a mistake
    `read_folder` explains); a Python bot's folder (`python_bot`) is not one."""
    entry = entry.strip()
    return bool(entry) and Path(entry).is_dir() and python_bot(entry) is None


def read_folder(path: str | Path) -> BotFolder:
    """Read `path/bot.toml`; raise FolderError saying what is missing or wrong."""
    folder = Path(path).resolve()
    toml_path = folder / BOT_TOML
    if not toml_path.is_file():
        raise FolderError(
            f"{path} is a folder without a {BOT_TOML}: a bot folder says how its bot "
            f'starts there, e.g. run = "node bot.js" (azul-arena bot new NAME '
            "--lang node|cpp|python makes one)"
        )
    try:
        data = tomllib.loads(_read_toml(toml_path))
    except UnicodeDecodeError as exc:
        raise FolderError(f"cannot read {toml_path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FolderError(f"{toml_path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise FolderError(
            f"{toml_path}: unknown key(s) {', '.join(unknown)}; the keys are "
            + ", ".join(sorted(_KEYS))
        )
    for key in ("name", "language", "run", "build"):
        if not isinstance(data.get(key, ""), str):
            raise FolderError(f"{toml_path}: {key} must be a string")
    try:
        run = tuple(shlex.split(data.get("run", "")))
    except ValueError as exc:
        raise FolderError(f"{toml_path}: run is not a command line: {exc}") from None
    if not run:
        raise FolderError(
            f"{toml_path}: run is missing: the command line that starts the bot "
            'in this folder, e.g. run = "node bot.js"'
        )
    timeout = data.get("build_timeout", DEFAULT_BUILD_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise FolderError(f"{toml_path}: build_timeout must be a positive number of seconds")
    return BotFolder(
        folder,
        run,
        data.get("build", "").strip(),
        float(timeout),
        data.get("name", "").strip(),
        data.get("language", "").strip(),
    )


def _read_toml(path: Path) -> str:
    """A bot.toml's text, read without following a link (a build may have made it one, to a
    file of the host's) and at most TOML_MAX bytes; FolderError otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FolderError(
                f"{path} is a symbolic link; a bot.toml must be a plain file in the folder"
            ) from None
        raise FolderError(f"cannot read {path}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FolderError(f"{path} is not a plain file")
        data = f.read(TOML_MAX + 1)
    if len(data) > TOML_MAX:
        raise FolderError(
            f"{path} is larger than {TOML_MAX // 1024} KiB; a bot.toml is a few lines"
        )
    return data.decode("utf-8")


def cap_build_timeout(folder: BotFolder, cap: float | None) -> BotFolder:
    """`folder` with its build_timeout at most `cap` seconds (a server's limit: a bot.toml may
    ask for any time, but one build must not hold up everyone else's validation)."""
    if cap is None or folder.build_timeout <= cap:
        return folder
    return dataclasses.replace(folder, build_timeout=cap, asked_timeout=folder.build_timeout)


def build_command(folder: BotFolder) -> list[str]:
    """The argv that builds `folder` (run in the folder, under `folder.build_timeout`)."""
    return ["/bin/sh", "-c", folder.build]


async def build(
    folder: BotFolder,
    log_path: Path,
    wrap: Callable[[list[str]], list[str]] | None = None,
    env: dict[str, str] | None = None,
) -> float:
    """Run the folder's build step (nothing when it has none), its output appended to
    `log_path`; `wrap` may put the command inside a sandbox. It starts with `env`, else a clean
    environment (`referee.sandbox.environment`, HOME the folder): never the referee's own, which
    holds the server's secrets. Returns the seconds it took; raises BuildError when it fails or
    overruns `folder.build_timeout` (its process group is killed)."""
    if not folder.build:
        return 0.0
    if env is None:
        env = environment("none", folder.path, {})
    argv = build_command(folder)
    if wrap is not None:
        argv = wrap(argv)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    with open(log_path, "ab") as log:
        log.write(f"$ {folder.build}\n".encode())
        log.flush()
        process = await spawn(
            *argv,
            cwd=folder.path,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        follow_sessions(process.pid)  # as low as the referee, in its session too
    try:
        code = await asyncio.wait_for(_watch(process, folder), folder.build_timeout)
    except _TooBig as exc:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        raise BuildError(f"the build ({folder.build}) {exc} and was stopped", log_path) from None
    except (TimeoutError, asyncio.CancelledError) as exc:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        if isinstance(exc, asyncio.CancelledError):
            raise
        cut = (
            f" (the limit here, although its bot.toml asks for {folder.asked_timeout:g} s)"
            if folder.asked_timeout is not None
            else ""
        )
        raise BuildError(
            f"the build ({folder.build}) took more than {folder.build_timeout:g} s{cut} and "
            "was stopped",
            log_path,
        ) from None
    if code != 0:
        # The error line first: a fault's detail is cut short in records (the command is the
        # log's first line).
        raise BuildError(
            f"the build ({folder.build}) failed with exit code {code}: {_telling_line(log_path)}",
            log_path,
        )
    return time.monotonic() - began


class _TooBig(Exception):
    """A build's folder passed its disk or file count limit (the message says which)."""


async def _watch(process: asyncio.subprocess.Process, folder: BotFolder) -> int:
    """Wait for the build to end, measuring its folder every DISK_POLL seconds; _TooBig when it
    holds more than `folder.build_disk` bytes or BUILD_FILES_MAX entries."""
    ended = asyncio.ensure_future(process.wait())
    try:
        while not (await asyncio.wait({ended}, timeout=DISK_POLL))[0]:
            await asyncio.to_thread(_measure, folder.path, folder.build_disk)
        return ended.result()
    finally:
        ended.cancel()


def _measure(root: Path, limit: int) -> None:
    """Walk `root` (no link followed) adding up the disk its entries take; _TooBig past
    `limit` bytes or BUILD_FILES_MAX entries (the walk stops there)."""
    used, entries, todo = 0, 0, [str(root)]
    while todo:
        with contextlib.suppress(OSError), os.scandir(todo.pop()) as found:
            for entry in found:
                entries += 1
                with contextlib.suppress(OSError):
                    info = entry.stat(follow_symlinks=False)
                    used += max(info.st_blocks * 512, 0)
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
                if used > limit:
                    raise _TooBig(f"wrote more than {limit // 2**20} MiB into its folder")
                if entries > BUILD_FILES_MAX:
                    raise _TooBig(f"made more than {BUILD_FILES_MAX:,} files in its folder")


def _telling_line(log_path: Path) -> str:
    """The line of a failed build's log that says what went wrong: the first compiler or CMake
    error (`make` ends with "Error 2", which says nothing), else the last line."""
    with contextlib.suppress(OSError):
        lines = [
            line.strip()
            for line in log_path.read_text(errors="replace").splitlines()
            if line.strip() and not line.startswith("$ ")
        ]  # not the command itself
        errors = [
            i for i, line in enumerate(lines) if "error:" in line.lower() or "CMake Error" in line
        ]
        if errors:  # CMake says "CMake Error at CMakeLists.txt:21 (message):", then the message
            first = errors[0]
            told = (
                lines[first : first + 3] if lines[first].endswith(":") else lines[first : first + 1]
            )
            return " ".join(told)[:300]
        if lines:
            return lines[-1][:200]
    return "no output"
