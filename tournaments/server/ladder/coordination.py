"""Several ladder workers on one database: each says it is alive (`WorkerBeat`), and what one
of them took (a scheduled game, a validation) is left to it while it is; a gone worker's are
taken up by another.

A worker is gone when it has not said so for `GONE_SECONDS`, or at once when it ran on this
machine (the same boot and pid namespace, not merely the same host name) and its process no
longer exists.
"""

from __future__ import annotations

import os
import re
import socket
from datetime import datetime, timedelta

from django.utils import timezone

from tournaments.server.ladder.models import WorkerBeat

BEAT_SECONDS = 5.0
GONE_SECONDS = 60.0
FORGET_SECONDS = 3600.0  # a killed worker's row is kept this long (for whoever looks)


def _machine() -> str:
    """What tells this machine's processes from another's, even one of the same host name (a
    cloned VM, containers): the boot's id and this process's pid namespace."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as boot:
            booted = boot.read().strip()[:8]
        return f"{booted}-{os.stat('/proc/self/ns/pid').st_ino}"
    except OSError:
        return "unknown"


MACHINE = _machine()


def runner_name(pid: int | None = None) -> str:
    """This process (or `pid` on this machine) as the database names a worker:
    HOST pid N [MACHINE]."""
    return f"{socket.gethostname()} pid {pid or os.getpid()} [{MACHINE}]"


def runner_alive(runner: str) -> bool | None:
    """Whether the process `runner` names still runs: True or False on this machine, None for
    one on another machine (which cannot be known from here)."""
    found = re.fullmatch(r"(.*) pid (\d+) \[(\S+)\]", runner)
    if found is None or found[3] != MACHINE or MACHINE == "unknown":
        return None
    try:
        os.kill(int(found[2]), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def beat(name: str, now: datetime | None = None) -> None:
    """Say `name` is alive at `now`. A worker stopped cleanly removes its row (`leave`); a
    killed one cannot, so rows silent for `FORGET_SECONDS` are removed here."""
    now = now or timezone.now()
    WorkerBeat.objects.update_or_create(name=name, defaults={"seen": now})
    WorkerBeat.objects.filter(seen__lt=now - timedelta(seconds=FORGET_SECONDS)).delete()


def leave(name: str) -> None:
    WorkerBeat.objects.filter(name=name).delete()


def live_workers(now: datetime | None = None) -> set[str]:
    """The workers that said they were alive lately, less those of this machine now gone."""
    since = (now or timezone.now()) - timedelta(seconds=GONE_SECONDS)
    names = WorkerBeat.objects.filter(seen__gt=since).values_list("name", flat=True)
    return {n for n in names if runner_alive(n) is not False}
