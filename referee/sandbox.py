"""Isolation levels for bot processes, and the command line and environment a bot starts with.

- `none`: a plain child process in its own process group, with the limits and the clean
  environment below (for bots you wrote yourself).
- `process`: as `none`, plus its own PID namespace (util-linux `unshare` and `setpriv`): it sees
  no other process, holds no capabilities, dies with the referee, and everything it starts dies
  with it; the number of its processes is capped (a pids cgroup, else RLIMIT_NPROC).
- `sandbox`: as `process`, through bubblewrap (`bwrap`), plus its own mount and network
  namespaces: the system read-only (not /opt, nor what `covered` names inside it: the project's
  folder, the server's home, the tournament's data, other entries), the Python that runs it and
  the project's packages, its own files read-only at /bot, a private /tmp of bounded size, no
  network; it reaches the referee only through the Unix socket shown at /run/azul-arena.

Every process of a bot's code (its build too) starts with an environment built from nothing
(`environment`), the wrappers that start it included (bwrap stays as its namespace's PID 1,
whose environment the bot can read in /proc). See docs/security.md for what each level promises
and what a bot can still do.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from referee import seccomp

LEVELS = ("none", "process", "sandbox")
BOT_DIR = "/bot"  # where a sandboxed bot sees its own files
SOCKET_DIR = "/run/azul-arena"  # where a sandboxed bot sees the referee's socket
PATH = "/usr/local/bin:/usr/bin:/bin"
SHM_SIZE = 16 << 20  # bytes of /dev/shm in the sandbox (Python's multiprocessing uses it)
# Directories a sandboxed program may need from the system, shown read-only when they exist.
# Not /opt, /srv nor /home: projects, servers' data and other bots are installed there.
SYSTEM_DIRS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/alternatives",
    "/etc/ssl/certs",
)
SYSTEM_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/hosts",
)
# Folders inside the shown ones that no bot needs and that may hold a machine's secrets (the
# configuration of locally built software): covered.
SYSTEM_COVERED = ("/usr/local/etc",)
# The contest server's data folder (tournaments.server): covered wherever it lies.
SERVER_HOME_VARIABLE = "AZUL_ARENA_SERVER_HOME"


class IsolationError(RuntimeError):
    """An isolation level this machine cannot provide: the message names what is missing."""


@dataclass(frozen=True)
class Limits:
    """What one bot process may use. `memory` is its address space (and its memory cgroup's
    limit where the machine has one); `file_size` bounds every file it writes, its log included;
    `processes` caps its processes and threads; `tmp_size` bounds its private /tmp (sandbox)."""

    memory: int = 2 << 30
    cpu_seconds: int = 3600  # generous: pooled bots play many games; it only stops a spinner
    file_size: int = 64 << 20
    processes: int = 128
    tmp_size: int = 64 << 20


@dataclass
class Place:
    """Where a bot lives on the host: `home` is its private writable folder (HOME and TMPDIR at
    levels none and process); `bot_dir` its own files (shown read-only at /bot in the sandbox);
    `socket_dir` the folder holding only the referee's socket; `hidden` paths inside `bot_dir`
    that it must not see (the tournament's database, other entries)."""

    home: Path
    bot_dir: Path | None = None
    socket_dir: Path | None = None
    hidden: tuple[Path, ...] = field(default_factory=tuple)
    writable: bool = False  # the bot's folder writable (a build writes its output there)
    # Where the sandbox shows the folder: /bot for a bot; a build sees it at its own path, so
    # that what it writes (a CMake cache, say) names the paths the host has.
    mount_at: str = BOT_DIR


def project_root() -> Path:
    return Path(__file__).resolve().parents[1]


def _pid_namespace_prefix() -> tuple[tuple[str, ...], tuple[str, ...]] | str:
    """(prefix, drop) for level `process`, or the reason it cannot work here."""
    tools = {n: shutil.which(n) for n in ("unshare", "setpriv", "prlimit")}
    missing = [n for n, p in tools.items() if p is None]
    if missing:
        return f"{', '.join(missing)} not found (util-linux)"
    unshare, setpriv = tools["unshare"] or "", tools["setpriv"] or ""
    namespace = [unshare, "--pid", "--fork", "--kill-child", "--mount-proc"]
    if os.geteuid() != 0:
        namespace[1:1] = ["--user", "--map-root-user"]  # unprivileged: a user namespace too
    prefix = (setpriv, "--pdeathsig", "KILL", "--", *namespace, "--")
    drop = (setpriv, "--no-new-privs", "--bounding-set=-all", "--inh-caps=-all", "--")
    return prefix, drop


def _within(path: str, roots: Iterable[str]) -> bool:
    """Whether `path` is one of `roots` or lies under one."""
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _depth(path: str) -> int:
    return len(Path(path).parts)


def _shown_system() -> list[str]:
    """The real paths of the system directories the sandbox shows."""
    return [os.path.realpath(d) for d in SYSTEM_DIRS if os.path.isdir(d)]


def covered(hidden: Iterable[Path] = ()) -> list[str]:
    """The real paths the shown system directories hold but no bot may see: the project's
    folder (its data, its .venv's neighbours), the server's home, `hidden` (the tournament's
    database and logs, the entries' folders) and SYSTEM_COVERED. Only those under a shown
    directory: the rest of the host is not in the sandbox at all."""
    root = project_root()
    wanted = [*SYSTEM_COVERED, *map(str, hidden), os.environ.get(SERVER_HOME_VARIABLE, "")]
    if root.name not in ("site-packages", "dist-packages"):  # installed: only code there
        wanted.append(str(root))
    system = _shown_system()
    found: list[str] = []
    for path in filter(None, wanted):
        real = os.path.realpath(path)
        if os.path.exists(real) and _within(real, system) and real not in system + found:
            found.append(real)
    return found


def _system_binds(hidden: Iterable[Path] = ()) -> list[str]:
    """bwrap arguments showing the system read-only (directories, symlinks as symlinks), the
    Python that runs bots and the project's packages, and covering what must stay unseen
    (`covered`). A cover lands before what is shown beneath it (the project's packages under
    a covered project folder), after what it lies in: mounts are made shallowest first."""
    args: list[str] = []
    for path in SYSTEM_DIRS + SYSTEM_FILES:
        if path in SYSTEM_DIRS and os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            args += ["--ro-bind", path, path]
    covers = covered(hidden)
    system = _shown_system()
    mounts: list[tuple[int, int, list[str]]] = []  # (depth, 0 cover / 1 bind, arguments)
    for path in covers:
        cover = ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
        mounts.append((_depth(path), 0, cover))
    # The Python running the referee (bots run it too), wherever it is installed; the
    # project's own packages (the SDK, the engine, the built-in bots) and the compiled engine's
    # runtime library, not the rest of its folder (a tournament's database often lives there).
    root = project_root()
    shown = [
        *dict.fromkeys([sys.base_prefix, sys.prefix]),
        *(str(root / package) for package in ("sdk", "referee", "bots")),
        *(str(shared) for shared in sorted(root.glob("*__mypyc*"))),
    ]
    for path in shown:
        real = os.path.realpath(path)
        if _within(real, system) and not _within(real, covers):
            continue  # already shown with the system
        mounts.append((_depth(path), 1, ["--ro-bind", path, path]))
    for _, _, mount in sorted(mounts, key=lambda m: m[:2]):
        args += mount
    return args


def _bwrap_prefix(
    bwrap: str, tmp_size: int = Limits.tmp_size, hidden: Iterable[Path] = ()
) -> list[str]:
    """bwrap's namespaces and mounts, up to the bot's own folder. The private /proc, /dev,
    /tmp and /dev/shm come first, the system and the project after: a bind under /tmp (a project
    or its .venv installed there) must land on top of the private /tmp, not under it."""
    return [
        bwrap,
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(tmp_size),
        "--tmpfs",
        "/tmp",
        "--size",
        str(SHM_SIZE),
        "--tmpfs",
        "/dev/shm",
        *_system_binds(hidden),
        "--hostname",
        "bot",
    ]


def _userns_blockers() -> list[str]:
    """The kernel settings that forbid this user new user namespaces, as `name=value`."""
    settings = {
        "/proc/sys/user/max_user_namespaces": "0",
        "/proc/sys/kernel/unprivileged_userns_clone": "0",
    }
    if os.geteuid() != 0:
        settings["/proc/sys/kernel/apparmor_restrict_unprivileged_userns"] = "1"
    found = []
    for path, bad in settings.items():
        try:
            value = Path(path).read_text().strip()
        except OSError:
            continue
        if value == bad:
            found.append(f"{path.removeprefix('/proc/sys/').replace('/', '.')}={value}")
    return found


def _last_line(run: subprocess.CompletedProcess[bytes]) -> str:
    lines = run.stderr.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {run.returncode}"


def _run(argv: list[str]) -> subprocess.CompletedProcess[bytes] | str:
    try:
        return subprocess.run(argv, capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{argv[0]} cannot run: {exc}"


def _namespaces_refused(tool: str, message: str) -> str:
    """Why `tool` could not make its namespaces, the kernel's settings named when they are
    the cause."""
    blockers = _userns_blockers()
    if blockers:
        return (
            f"{tool} cannot create the namespaces it needs here ({message}): user "
            f"namespaces are disabled by {', '.join(blockers)} (set "
            f"{' and '.join(b.split('=')[0] for b in blockers)} to allow them, or run the "
            "referee as root)"
        )
    return (
        f"{tool} cannot create the namespaces it needs here ({message}); the kernel's "
        "settings for user namespaces allow them, so a container or security module "
        "(seccomp, AppArmor, SELinux) around the referee may forbid them"
    )


@functools.cache
def probe(level: str) -> str | None:
    """None when `level` works on this machine, else what is missing, found by trying (once,
    cached): the tool, the namespaces (and the kernel setting that forbids them), then the
    sandbox exactly as a bot gets it (the paths it must show)."""
    if level == "none":
        return None
    if level not in LEVELS:
        return f"unknown isolation level {level!r} (choose {', '.join(LEVELS)})"
    if level == "process":
        found = _pid_namespace_prefix()
        if isinstance(found, str):
            return found
        run = _run([*found[0], *found[1], "true"])
        if isinstance(run, str):
            return run
        return (
            None if run.returncode == 0 else _namespaces_refused("unshare/setpriv", _last_line(run))
        )
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return (
            "bubblewrap (bwrap) is not installed: apt-get install bubblewrap (see docs/security.md)"
        )
    bare = _run([bwrap, "--unshare-all", "--ro-bind", "/", "/", "--", "true"])
    if isinstance(bare, str):
        return bare
    if bare.returncode != 0:
        return _namespaces_refused("bubblewrap", _last_line(bare))
    # The namespaces work: now the sandbox a bot gets, the referee's Python inside it.
    place = Place(Path("/nonexistent"))
    argv = command([sys.executable, "-c", "pass"], "sandbox", Limits(), place, {})
    run = _run(argv)
    if isinstance(run, str):
        return run
    if run.returncode == 0:
        return None
    message = _last_line(run)
    if "source path" in message:
        hint = "a path the sandbox shows cannot be bound"
    elif "execvp" in message:
        hint = f"the referee's Python ({sys.executable}) is not visible inside the sandbox"
    elif "seccomp" in message:
        hint = "bubblewrap refused the seccomp filter (referee/seccomp.py)"
    else:
        hint = "a path the sandbox shows cannot be bound"
    return (
        f"bubblewrap can create namespaces here, but the sandbox cannot be set up: "
        f"{hint} ({message})"
    )


def strongest() -> str:
    """The strongest level this machine offers."""
    return next(level for level in reversed(LEVELS) if probe(level) is None)


def require(level: str | None) -> str:
    """`level` (None: the strongest available) if it works here; else IsolationError saying
    what is missing. Never a silent fallback to a weaker level."""
    if level is None:
        return strongest()
    if level not in LEVELS:
        raise IsolationError(f"unknown isolation level {level!r}: choose {', '.join(LEVELS)}")
    why = probe(level)
    if why is not None:
        raise IsolationError(
            f"isolation {level!r} cannot work on this machine: {why}; "
            f"choose a weaker level explicitly (--isolation "
            f"{LEVELS[LEVELS.index(level) - 1]}) if you trust the bots"
        )
    return level


def caveats(level: str) -> str:
    """What `level` cannot promise on this machine ("" when nothing), to print beside it."""
    from referee.cgroups import layout

    notes = []
    if level != "sandbox" and probe("sandbox") is not None:
        notes.append(f"below sandbox, which is not available here: {probe('sandbox')}")
    if level == "sandbox" and seccomp.unavailable() is not None:
        notes.append(f"no seccomp filter: {seccomp.unavailable()}")
    if level != "none" and layout() is None:
        cap = (
            "the process cap is NOT enforced (root ignores RLIMIT_NPROC: run the referee "
            "as another user, or give it cgroups)"
            if os.geteuid() == 0
            else "processes capped by RLIMIT_NPROC (per user, not per bot)"
        )
        notes.append(
            f"no cgroups here: {cap}; no memory cgroup; a bot's child that leaves "
            "its process group is not frozen"
        )
    return "; ".join(notes)


def locale() -> dict[str, str]:
    """The referee's locale variables (C.UTF-8 when it sets none)."""
    found = {k: v for k, v in os.environ.items() if k == "LANG" or k.startswith("LC_")}
    return found or {"LANG": "C.UTF-8"}


def environment(level: str, home: Path, extra: dict[str, str]) -> dict[str, str]:
    """A bot's environment, built from nothing: a fixed PATH, a private HOME and TMPDIR, the
    locale, what Python bots need to import the SDK, then `extra` (the AZUL_ARENA_* variables and
    what the organiser passes with --bot-env). Nothing else of the referee's environment."""
    inside = level == "sandbox"
    home_dir = "/tmp" if inside else str(home)
    venv_bin = str(Path(sys.executable).parent)
    env = {
        "PATH": f"{venv_bin}:{PATH}",
        "HOME": home_dir,
        "TMPDIR": home_dir,
        **locale(),
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(project_root()),
    }
    # Python writes no bytecode caches next to a bot's read-only files (nor beside the project's).
    if inside:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


def _bind_hidden(place: Place) -> list[str]:
    """Cover what the bot must not see inside its own folder."""
    args: list[str] = []
    if place.bot_dir is None:
        return args
    for path in place.hidden:
        try:
            inner = path.resolve().relative_to(place.bot_dir.resolve())
        except ValueError:
            continue
        if not path.exists() or str(inner) == ".":
            continue
        target = f"{place.mount_at}/{inner}"
        args += ["--tmpfs", target] if path.is_dir() else ["--ro-bind", "/dev/null", target]
    return args


def _covers_made(args: list[str]) -> list[str]:
    """The empty folders (`--tmpfs`) of a bwrap command line but its /tmp and /dev/shm, and
    but those a later bind lies on (a build's own folder inside a hidden one): the top mount
    at a path is what `--remount-ro` makes read-only."""
    found = []
    for i, arg in enumerate(args[:-1]):
        path = args[i + 1]
        if arg != "--tmpfs" or path in ("/tmp", "/dev/shm"):
            continue
        later = args[i + 2 :]
        if not any(
            a in ("--bind", "--ro-bind") and later[j + 2 : j + 3] == [path]
            for j, a in enumerate(later)
        ):
            found.append(path)
    return found


def command(
    argv: list[str], level: str, limits: Limits, place: Place, env: dict[str, str]
) -> list[str]:
    """The full command line that runs `argv` at `level`, limits applied before it runs (the
    caller adds the cgroup step, if any, in front). At `none`, `argv` itself: the launcher applies
    the limits with prlimit() once the process exists."""
    if level == "none":
        return argv
    prlimit = shutil.which("prlimit") or "prlimit"
    rlimits = [
        prlimit,
        f"--as={limits.memory}",
        f"--cpu={limits.cpu_seconds}",
        f"--fsize={limits.file_size}",
    ]
    if os.geteuid() != 0:  # per user; root ignores it (a pids cgroup caps root's bots)
        rlimits.append(f"--nproc={limits.processes}")
    rlimits.append("--")
    if level == "process":
        found = _pid_namespace_prefix()
        assert not isinstance(found, str), found
        return [*found[0], *rlimits, *found[1], *argv]
    bwrap = shutil.which("bwrap") or "bwrap"
    args = [*rlimits, *_bwrap_prefix(bwrap, limits.tmp_size, place.hidden)]
    for name, value in env.items():
        args += ["--setenv", name, value]
    if place.bot_dir is not None:
        bind = "--bind" if place.writable else "--ro-bind"
        args += [bind, str(place.bot_dir), place.mount_at, *_bind_hidden(place)]
    else:
        args += ["--dir", place.mount_at]
    if place.socket_dir is not None:
        args += ["--ro-bind", str(place.socket_dir), SOCKET_DIR]
    # The sandbox's own root and /dev are memory (tmpfs): read-only once set up, so that /tmp
    # (and a small /dev/shm) are the only places it writes, each of bounded size. So are the
    # folders covering what it must not see (no size bound: they must not be written).
    for cover in _covers_made(args):
        args += ["--remount-ro", cover]
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    bpf = seccomp.filter_file()
    if bpf is None:
        return [*args, "--chdir", place.mount_at, "--", *argv]
    args += ["--seccomp", str(seccomp.SECCOMP_FD)]
    return seccomp.wrap([*args, "--chdir", place.mount_at, "--", *argv], bpf)
