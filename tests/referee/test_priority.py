"""referee/priority.py: a lowered process keeps what it starts as low, sessions and all; it
lowers its own session only when it leads it (a service's), never its shell's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from referee import session_niceness

LOWERED = "import os; from referee import lower_priority, session_niceness; " + (
    "print(lower_priority({to}), session_niceness(os.getpid()))"
)


def lowered(to: int, own_session: bool) -> tuple[int, int | None]:
    """(its niceness, its session's) in a new process that lowered itself to `to`."""
    run = subprocess.run(
        [sys.executable, "-c", LOWERED.format(to=to)],
        start_new_session=own_session,
        capture_output=True,
        text=True,
        check=True,
    )
    nice, session = run.stdout.split()
    return int(nice), None if session == "None" else int(session)


@pytest.mark.skipif(session_niceness(os.getpid()) is None, reason="no autogroups here")
def test_a_session_leader_lowers_its_session_a_process_of_a_shell_does_not() -> None:
    mine = session_niceness(os.getpid())
    assert lowered(6, own_session=True) == (6, 6)
    assert lowered(6, own_session=False) == (6, mine)
    assert lowered(40, own_session=True) == (19, 19), "at most 19"
