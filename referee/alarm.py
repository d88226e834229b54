"""An alarm on the event loop's clock that is set and reset every move without a timer each time.

A session sets a deadline (and, between a bot's moves, a freeze put off by a grace) at every
move and clears it a millisecond later, long before it is due. A `call_at` handle made and
cancelled for each costs 3-5 us of the referee's CPU on uvloop, twice a move. An `Alarm` keeps
one handle: clearing it only forgets the callback, setting it again with a later time keeps the
handle, which, when it fires, goes off only if the time now set has come, and else waits again
for that time. So a handle is made once per alarm period (a move's deadline, a grace of a few
milliseconds), not once per move.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

# uvloop's clock and timers count whole milliseconds: a handle that fires before the alarm's
# time waits again at least one tick, so that the alarm never goes off early (a freeze put off
# by a grace of 2 ms and made 1 ms early froze fast bots far more often: 10% more of their CPU
# a move, and of the referee's) nor spins through the loop; it may go off up to a tick late.
TICK = 0.001


class Alarm:
    """At most one callback, called once at the time it was set for (`set`), unless cleared."""

    __slots__ = ("_callback", "_due", "_handle", "_loop", "_scheduled")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._handle: asyncio.TimerHandle | None = None
        self._scheduled = 0.0  # when the handle fires (loop time)
        self._due = 0.0  # when the callback is due (loop time)
        self._callback: Callable[[], None] | None = None

    @property
    def is_set(self) -> bool:
        return self._callback is not None

    @property
    def due(self) -> float:
        """The loop time its callback is set for (meaningful while `is_set`)."""
        return self._due

    def set(self, when: float, callback: Callable[[], None]) -> None:
        """Call `callback` at loop time `when`, in place of whatever was set before."""
        self._due, self._callback = when, callback
        handle = self._handle
        if handle is None or self._scheduled > when:
            if handle is not None:
                handle.cancel()
            self._scheduled = when
            self._handle = self._loop.call_at(when, self._fire)

    def clear(self) -> None:
        """Call nothing (the handle, if any, fires once more and finds nothing to do)."""
        self._callback = None

    def close(self) -> None:
        """Clear it and drop its handle (the alarm's owner is gone)."""
        self._callback = None
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _fire(self) -> None:
        self._handle = None
        callback = self._callback
        if callback is None:
            return
        now = self._loop.time()
        if now < self._due:  # set again for later since this handle was made
            self._scheduled = max(self._due, now + TICK)
            self._handle = self._loop.call_at(self._scheduled, self._fire)
            return
        self._callback = None
        callback()
