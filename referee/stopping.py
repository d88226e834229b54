"""Stopping a bot's processes between its moves (SIGSTOP) and continuing them (SIGCONT), with
none left running: not a child that left its process group, nor one born of a fork under way as
the stop came.

A fork under way when a stop comes still completes (only a fatal signal aborts one). Sent to a
single process, the stop lets the newborn child run; sent to a process group, the kernel hands
it on to the child of a fork under way in any member (Linux 5.0 on; before, such a fork started
over once stopped). So each process of the bot's cgroup is stopped through its process group:
those groups are the bot's own (its session is its own). A process can still change its group
as the stop comes, so the cgroup is read again a moment later and a process still running is
stopped on its own, until every process is stopped and none has appeared: a stopped process
starts no other. A process stopped on its own is stopped only once each of its threads is (a
thread in a fork runs on while its leader shows stopped, and its child would run); one stopped
through its group is stopped once its leader is (the kernel hands the stop on to its forks), and
its threads are read only when its leader is a zombie (it ended, its threads may not have).

The cgroup v1 freezer would do the same in one write, but its frozen tasks ignore SIGKILL (a
referee killed with `kill -9` would leave bots nobody can kill), while stopped processes still
die of it, and of the SIGHUP the kernel sends a stopped process group orphaned by that death.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Iterable
from pathlib import Path

# The cgroup is read again 1 ms after a stop, then 4, 16 and every 64 ms while processes keep
# appearing or are not all stopped yet.
FIRST_LOOK = 0.001
LAST_LOOK = 0.064
HALTED = frozenset("TtZX")  # stopped, traced, a zombie, dead


def halted(pid: int, every_thread: bool = True) -> bool:
    """Whether process `pid` is stopped (or a zombie, or gone): its leader, and with
    `every_thread` each of its threads (read only when it has more than one); its threads are
    read anyway when its leader is a zombie with others left."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return True
    if fields[0] not in HALTED:
        return False
    if fields[17] == "1" or not (every_thread or fields[0] == "Z"):  # num_threads (20 in proc(5))
        return True
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True
    for tid in tasks:
        try:
            state = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # the thread ended
        if state not in HALTED:
            return False
    return True


def _send(kill: Callable[[int, int], None], target: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        kill(target, signum)


class Stopper:
    """The stop of one bot's processes: what it stopped (process groups, and single processes
    that were not in the group they were stopped through), to be continued by `resume`.

    `pids` lists the bot's processes (its cgroup's); `leader` is the bot's own process, whose
    group is continued first. Looking again needs a running event loop (without one, only the
    first stop is made)."""

    def __init__(self, pids: Callable[[], list[int]], leader: int) -> None:
        self._pids = pids
        self._leader = leader
        self._seen: set[int] = set()
        self._groups: list[int] = []
        self._singles: list[int] = []
        self._look: asyncio.TimerHandle | None = None

    @property
    def settled(self) -> bool:
        """Whether every process was found stopped and no new one came (no look is due)."""
        return self._look is None

    def stop(self) -> bool:
        """Stop every process; False when the list was empty (nothing read: the caller stops
        the bot's process group instead)."""
        pids = self._pids()
        self._stop(pids)
        if pids:
            self._look_again(FIRST_LOOK)
        return bool(pids)

    def _stop(self, pids: Iterable[int]) -> None:
        own = os.getpgrp()
        for pid in pids:
            if pid in self._seen:
                continue
            self._seen.add(pid)
            try:
                group = os.getpgid(pid)
            except ProcessLookupError:
                continue
            if group == own:  # never the referee's own group (no bot can join it)
                self._stop_single(pid)
            elif group not in self._groups:
                _send(os.killpg, group, signal.SIGSTOP)
                self._groups.append(group)

    def _stop_single(self, pid: int) -> None:
        _send(os.kill, pid, signal.SIGSTOP)
        if pid not in self._singles:
            self._singles.append(pid)

    def _look_again(self, delay: float) -> None:
        with contextlib.suppress(RuntimeError):  # no event loop: nothing to come back with
            self._look = asyncio.get_running_loop().call_later(delay, self._check, delay)

    def _check(self, delay: float) -> None:
        """Stop the newcomers and what still runs; look again until all is still."""
        self._look = None
        new = [pid for pid in self._pids() if pid not in self._seen]
        self._stop(new)
        running = [pid for pid in self._seen if not halted(pid, pid in self._singles)]
        for pid in running:  # a thread in a fork has its stop pending; another left its group
            self._stop_single(pid)
        if new or running:
            self._look_again(min(delay * 4, LAST_LOOK))

    def resume(self) -> None:
        """Continue what `stop` stopped, the bot's own process group first (no list to read on
        the way to a move request; none of them can have started another meanwhile)."""
        if self._look is not None:
            self._look.cancel()
            self._look = None
        for group in sorted(self._groups, key=lambda g: g != self._leader):
            _send(os.killpg, group, signal.SIGCONT)
        for pid in self._singles:
            _send(os.kill, pid, signal.SIGCONT)
