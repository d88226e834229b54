"""Stopping a bot's processes between its moves (SIGSTOP) and continuing them (SIGCONT), with
none left running: not a child that left its process group, nor one born of a fork under way as
the stop came. Used where the bot has cgroups but no v2 one to freeze it with (a v1 machine
without the v2 hierarchy mounted: referee.cgroups); the v2 freezer does all this in one write.

A fork under way when a stop comes still completes (only a fatal signal aborts one). Sent to a
single process, the stop lets the newborn child run; sent to a process group, the kernel hands
it on to the child of a fork under way in any member (Linux 5.0 on; before, such a fork started
over once stopped). So each process of the bot's cgroup is stopped through its process group:
those groups are the bot's own (its session is its own). A process can still change its group
as the stop comes, so the cgroup is read again a moment later and the stop sent again to the
group of a process still running, until every process is stopped and none has appeared: a
stopped process starts no other. A process is stopped once its leader is (the kernel hands a
group's stop on to the forks of its other threads); its threads are read only when its leader is
a zombie (it ended, its threads may not have), or when it was stopped on its own (a thread in a
fork runs on while its leader shows stopped, and the fork's child would run).

The cgroup v1 freezer would do the same in one write, but its frozen tasks ignore SIGKILL (a
referee killed with `kill -9` would leave bots nobody can kill without thawing them), while
stopped processes still die of it, as the v2 freezer's do.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable

from referee.procfs import stat_fields

# The cgroup is read again 1 ms after a stop, then 4, 16 and every 64 ms while processes keep
# appearing or are not all stopped yet.
FIRST_LOOK = 0.001
LAST_LOOK = 0.064
HALTED = frozenset((b"T", b"t", b"Z", b"X"))  # stopped, traced, a zombie, dead


def halted(pid: int, every_thread: bool = True) -> bool:
    """Whether process `pid` is stopped (or a zombie, or gone): its leader, and with
    `every_thread` each of its threads (read only when it has more than one); its threads are
    read anyway when its leader is a zombie with others left."""
    try:
        fields = stat_fields(pid)
    except (OSError, IndexError):
        return True
    if fields[0] not in HALTED:
        return False
    if fields[17] == b"1" or not (every_thread or fields[0] == b"Z"):  # num_threads (20 in proc(5))
        return True
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True
    for tid in tasks:
        try:
            state = stat_fields(pid, tid)[0]
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
        own = os.getpgrp()
        for pid in pids:
            self._seen.add(pid)
            self._stop(pid, own)
        if pids:
            self._look_again(FIRST_LOOK)
        return bool(pids)

    def _stop(self, pid: int, own: int, again: bool = False) -> None:
        """Stop `pid` through its process group: once a group, unless `again` (a process found
        running may have joined a group already stopped); on its own in the referee's group
        `own` (no bot can join it)."""
        try:
            group = os.getpgid(pid)
        except ProcessLookupError:
            return
        if group == own:
            _send(os.kill, pid, signal.SIGSTOP)
            if pid not in self._singles:
                self._singles.append(pid)
        elif again or group not in self._groups:
            _send(os.killpg, group, signal.SIGSTOP)
            if group not in self._groups:
                self._groups.append(group)

    def _look_again(self, delay: float) -> None:
        with contextlib.suppress(RuntimeError):  # no event loop: nothing to come back with
            self._look = asyncio.get_running_loop().call_later(delay, self._check, delay)

    def _check(self, delay: float) -> None:
        """Stop the newcomers and what still runs; look again until all is still. A process
        stopped through its group is read by its leader's state alone (one /proc read), each
        thread of one stopped on its own."""
        self._look = None
        own = os.getpgrp()
        new = [pid for pid in self._pids() if pid not in self._seen]
        for pid in new:
            self._seen.add(pid)
            self._stop(pid, own)
        running = [pid for pid in self._seen if not halted(pid, pid in self._singles)]
        for pid in running:  # not reached by its stop yet, or it changed its group
            self._stop(pid, own, again=True)
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
