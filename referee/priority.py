"""CPU priority for programs that share a machine with something more urgent (the contest
server's ladder beside its web site): `lower_priority` sets the calling thread's niceness, which
every thread and process it starts afterwards inherits, and `follow_sessions` keeps the sessions
those processes open as low.

Why sessions: with Linux's autogroup scheduling (`/proc/sys/kernel/sched_autogroup_enabled`,
on by default in most distributions) every session is scheduled as one group, and a process's
nice value only counts against the processes of its own session. Bots and builds are started in
sessions of their own (and the sandbox opens another inside), so a niced referee's bots would
each weigh as much as the whole web server. A session's own niceness is `/proc/PID/autogroup`;
anyone may raise their own sessions' niceness, but without CAP_SYS_ADMIN the kernel takes at
most ten such changes a second, machine-wide: `follow` tries again a few times, then leaves it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

from referee.procfs import read_bytes

LOWEST = 19
# When `follow` looks at a started process's sessions again (seconds after the start): the
# sandbox opens its inner session a few milliseconds in, and the bot starts up after that.
FOLLOW_AT = (0.0, 0.01, 0.03, 0.1, 0.3, 1.0)


def niceness() -> int:
    """The calling thread's niceness (Linux: a thread's own)."""
    return os.getpriority(os.PRIO_PROCESS, 0)


def lower_priority(to: int) -> int:
    """The calling thread, and whatever it starts from now on, at niceness `to` at least (0-19;
    a thread already lower stays as it is); the niceness it has now. A process that leads its
    own session (a systemd service's) lowers the session too: all in it is its own, whereas a
    process started from a shell shares the shell's session with whatever else it started."""
    wanted = max(0, min(LOWEST, to))
    if wanted > niceness():
        os.setpriority(os.PRIO_PROCESS, 0, wanted)
    if os.getsid(0) == os.getpid():
        keep_sessions_low(os.getpid(), wanted, tree=False)
    return niceness()


def process_tree(pid: int) -> list[int]:
    """`pid` and its descendants alive now (from /proc; empty when `pid` is gone)."""
    found: list[int] = []
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        found.append(current)
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                children = read_bytes(f"/proc/{current}/task/{task}/children")
                stack += [int(c) for c in children.split()]
    return found


def session_niceness(pid: int) -> int | None:
    """The niceness of `pid`'s session (its autogroup), None where there is none to read."""
    try:
        return int(read_bytes(f"/proc/{pid}/autogroup").split()[-1])
    except (OSError, ValueError, IndexError):
        return None


def keep_sessions_low(pid: int, to: int, tree: bool = True) -> bool:
    """Every session in `pid`'s process tree (or `pid`'s alone) at niceness `to` at least;
    whether all are (or there are no autogroups to set)."""
    done = True
    for member in process_tree(pid) if tree else [pid]:
        now = session_niceness(member)
        if now is None or now >= to:
            continue
        try:
            Path(f"/proc/{member}/autogroup").write_text(str(to))
        except OSError:  # EAGAIN: the kernel's rate limit; or the process is gone
            done = False
    return done


_following: set[asyncio.Task[None]] = set()


def follow_sessions(pid: int) -> None:
    """Once the calling thread is niced: the sessions of `pid`, a process it has just started
    in a session of its own, kept at its niceness (`follow`, beside the caller's loop)."""
    to = niceness()
    if to > 0:
        task = asyncio.ensure_future(follow(pid, to))
        _following.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(_following.discard)


async def follow(pid: int, to: int) -> None:
    """Keep the sessions `pid` and its descendants open during their first second at niceness
    `to`: a bot's or a build's, opened as it starts (a child of theirs inherits its session,
    and with it the niceness set; only a session opened later is not followed)."""
    waited = 0.0
    for at in FOLLOW_AT:
        await asyncio.sleep(at - waited)
        waited = at
        if not Path(f"/proc/{pid}").exists():
            return
        keep_sessions_low(pid, to)
