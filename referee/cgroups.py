"""One control group per bot process, where the machine lets the referee make them: it caps the
bot's processes (pids), holds its memory limit, counts its CPU time, lists every process it
has, even one that left its process group (so killing misses none), and freezes them all
between the bot's moves with one write.

Both cgroup layouts are handled: v1 (one hierarchy per controller: pids, memory, cpuacct) and v2
(one unified hierarchy, where the referee's own cgroup must delegate the controllers). Where
neither can be written (no root, no delegation) `BotCgroup.create` returns None and the launcher
falls back to rlimits and /proc.

The freeze is cgroup v2's `cgroup.freeze`, a core file of every v2 cgroup (no controller to
delegate): in the bot's own v2 folder, or on a v1 machine that also mounts the v2 hierarchy
(systemd's hybrid layout, at /sys/fs/cgroup/unified) in a folder of its own there. Its frozen
processes still die of SIGKILL, and a child born of a fork under way as the freeze came is
frozen too. The v1 freezer is not used: its frozen tasks ignore SIGKILL (a referee killed with
`kill -9` would leave bots nobody could kill without thawing them first). Where no v2 hierarchy
can be written, the launcher stops the bot's processes with signals (referee.stopping).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import os
from collections.abc import Iterable
from pathlib import Path

from referee.procfs import read_bytes

ROOT = Path("/sys/fs/cgroup")
V1 = ("pids", "memory", "cpuacct")
FREEZE_FILE = "cgroup.freeze"
HYBRID = ROOT / "unified"  # the v2 hierarchy beside the v1 controllers (systemd's hybrid layout)
FREEZE = "freeze"  # a parent's key for the v2 folders that only freeze (hybrid layout)
_serial = itertools.count(1)


def _own_paths() -> dict[str, str]:
    """This process's cgroup per v1 controller name ("" for the v2 hierarchy)."""
    paths: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                paths[name] = path
    return paths


@functools.cache
def layout() -> dict[str, Path] | None:
    """The parent folder, per controller, where this referee makes its bots' cgroups (and, on a
    v1 machine with the v2 hierarchy mounted too, under FREEZE the one where it freezes them);
    None when it cannot (tried once: a folder is made and removed)."""
    own = _own_paths()
    tag = f"azul-arena-{os.getpid()}"
    if all(name in own and (ROOT / name).is_dir() for name in V1):
        parents = {name: ROOT / name / own[name].lstrip("/") / tag for name in V1}
    elif (ROOT / "cgroup.controllers").exists() and "" in own:
        base = ROOT / own[""].lstrip("/")
        wanted = {"pids", "memory", "cpu"}
        try:
            if not wanted <= set((base / "cgroup.subtree_control").read_text().split()):
                return None
        except OSError:
            return None
        parents = {"": base / tag}
    else:
        return None
    if not _made(parents.values()):
        return None
    if "" not in parents and "" in own and (HYBRID / "cgroup.controllers").exists():
        freezing = HYBRID / own[""].lstrip("/") / tag
        if _made([freezing], check=FREEZE_FILE):  # else the bots are stopped with signals
            parents[FREEZE] = freezing
    atexit.register(_remove, list(parents.values()))
    return parents


def _made(parents: Iterable[Path], check: str = "") -> bool:
    """Make these folders (after sweeping their neighbours a dead referee left) and one child
    in each, where the child has the file `check` if one is named; False if any fails (those
    made are removed)."""
    made = []
    try:
        for parent in parents:
            _sweep(parent.parent)
            parent.mkdir(exist_ok=True)
            made.append(parent)
            probe = parent / "probe"
            probe.mkdir()
            found = not check or (probe / check).exists()
            probe.rmdir()
            if not found:
                raise OSError(f"no {check} in {parent}")
    except OSError:
        _remove(made)
        return False
    return True


def _remove(parents: list[Path]) -> None:
    """Remove these folders and their bots' (empty once their processes are gone)."""
    for parent in parents:
        for child in parent.glob("bot-*"):
            with contextlib.suppress(OSError):
                child.rmdir()
        with contextlib.suppress(OSError):
            parent.rmdir()


def _sweep(where: Path) -> None:
    """Remove what referees that died without cleaning up left here (empty folders only)."""
    for stale in where.glob("azul-arena-*"):
        pid = stale.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            _remove([stale])


def all_bot_pids() -> list[int] | None:
    """Every process in the cgroups this referee made for its bots (host pids), read from their
    lists alone (no scan of /proc); None where it makes none."""
    parents = layout()
    if parents is None:
        return None
    parent = parents["" if "" in parents else "pids"]
    pids = []
    for group in parent.glob("bot-*"):
        with contextlib.suppress(OSError):
            pids += [int(p) for p in read_bytes(f"{group}/cgroup.procs").split()]
    return pids


class BotCgroup:
    """The cgroups of one bot process (one folder per v1 controller, or one v2 folder; on a
    hybrid machine a v2 folder too, to freeze it)."""

    def __init__(self, dirs: dict[str, Path]) -> None:
        self.dirs = dirs
        self.v2 = "" in dirs
        self._procs = str(self._dir("pids") / "cgroup.procs")
        # The CPU counter's file, kept open: the cpu clock reads it twice a move, and a pread
        # costs a fraction of an open, read and close.
        self._cpu_fd: int | None = None
        # Its v2 folder's freeze file (None: no v2 folder, or the kernel has no such file; the
        # launcher then freezes the bot with signals), kept open once written: a bot may be
        # frozen and thawed on most moves.
        freezing = dirs.get(FREEZE, dirs.get(""))
        self.freeze_file = None if freezing is None else str(freezing / FREEZE_FILE)
        self._events = None if freezing is None else str(freezing / "cgroup.events")
        self._freeze_fd: int | None = None

    @classmethod
    def create(cls, processes: int, memory: int) -> BotCgroup | None:
        """A new cgroup capping processes and memory, or None where cgroups are not available."""
        parents = layout()
        if parents is None:
            return None
        name = f"bot-{next(_serial)}"
        dirs = {controller: parent / name for controller, parent in parents.items()}
        try:
            for path in dirs.values():
                path.mkdir()
            group = cls(dirs)
            group._write("pids", "pids.max", str(processes))
            group.set_memory(memory)
        except OSError:
            for path in dirs.values():
                with contextlib.suppress(OSError):
                    path.rmdir()
            return None
        return group

    def _dir(self, controller: str) -> Path:
        return self.dirs[""] if self.v2 else self.dirs[controller]

    def _write(self, controller: str, name: str, value: str) -> None:
        (self._dir(controller) / name).write_text(value)

    def set_memory(self, memory: int) -> None:
        if self.v2:
            self._write("memory", "memory.max", str(memory))
            with contextlib.suppress(OSError):
                self._write("memory", "memory.swap.max", "0")
        else:
            self._write("memory", "memory.limit_in_bytes", str(memory))
            with contextlib.suppress(OSError):  # present only with swap accounting
                self._write("memory", "memory.memsw.limit_in_bytes", str(memory))

    def join_files(self) -> list[str]:
        """The files a new process writes its pid to, to be in this cgroup from its start."""
        return [str(path / "cgroup.procs") for path in self.dirs.values()]

    def pids(self) -> list[int]:
        """Every process in the cgroup (host pids)."""
        try:
            text = read_bytes(self._procs)
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def hold(self, frozen: bool) -> bool:
        """Freeze (or thaw) every process of the cgroup, forks under way included, with one
        write; False where it cannot (no v2 folder, no freezer in this kernel, or the write
        failed): the caller then stops (or continues) the processes with signals.

        The write returns before every process is frozen: each is sent to the freezer's trap at
        its next return to user space (a running one is interrupted to get there), so none runs
        any more of its own code; `frozen` says when all of them are there."""
        if self.freeze_file is None:
            return False
        try:
            if self._freeze_fd is None:
                self._freeze_fd = os.open(self.freeze_file, os.O_WRONLY | os.O_CLOEXEC)
            os.pwrite(self._freeze_fd, b"1" if frozen else b"0", 0)
        except OSError:
            if self._freeze_fd is None:
                self.freeze_file = None  # no such file here: not tried again
            return False
        return True

    def frozen(self) -> bool:
        """Whether every process of the cgroup is in the freezer's trap (the kernel's word in
        cgroup.events; False where the cgroup has no freezer)."""
        if self.freeze_file is None or self._events is None:
            return False
        try:
            return b"frozen 1" in read_bytes(self._events)
        except OSError:
            return False

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) its processes used, dead ones included."""
        try:
            if self._cpu_fd is None:
                path = (
                    self.dirs[""] / "cpu.stat"
                    if self.v2
                    else self.dirs["cpuacct"] / "cpuacct.usage"
                )
                self._cpu_fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            text = os.pread(self._cpu_fd, 4096, 0)  # offset 0: the file is made afresh
            if self.v2:
                stat = text.split()
                return int(stat[stat.index(b"usage_usec") + 1]) / 1e6
            return int(text) / 1e9
        except (OSError, ValueError, IndexError):
            return None

    def oom_killed(self) -> bool:
        """Whether the kernel killed one of its processes for going over the memory limit."""
        name = "memory.events" if self.v2 else "memory.oom_control"
        with contextlib.suppress(OSError, ValueError, IndexError):
            words = (self._dir("memory") / name).read_text().split()
            return int(words[words.index("oom_kill") + 1]) > 0
        return False

    def remove(self) -> None:
        """Remove the folders (once its processes are gone; a leftover is tried again later)."""
        for fd in (self._cpu_fd, self._freeze_fd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._cpu_fd = self._freeze_fd = None
        for path in self.dirs.values():
            with contextlib.suppress(OSError):
                path.rmdir()


# The step in front of a bot's command line that puts it in its cgroups before anything runs:
# `sh -c JOIN sh FILE... -- ARGV...` writes its pid to each FILE, then becomes ARGV.
JOIN = 'for f do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift; exec "$@"'


def joined(group: BotCgroup | None, argv: list[str]) -> list[str]:
    if group is None:
        return argv
    return ["/bin/sh", "-c", JOIN, "sh", *group.join_files(), "--", *argv]
