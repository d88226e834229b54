"""The bot pool: the bot processes an Arena holds, per entry, busy or idle, and the rule that ends
idle ones past a cap.

    pool = BotPool(max_processes=8)
    pool.held("greedy"), pool.idle("greedy"), pool.busy("greedy"), pool.live()

With `max_processes`, the idle bots form a least-recently-used cache: before a new process
starts, idle ones (the longest unused first) are ended until the live processes (busy, idle,
starting, and whatever else the owner counts: the Arena's warm standby) fit under the cap. Busy
bots are never ended, so a cap below the seats of the games in flight is exceeded rather than
stalling a game.

The pool only keeps the books; whoever owns it starts and ends the processes (`referee.arena`).
The tournament runner plans its dispatch on a pool of its own (`tournaments.domain.runner.Pool`)
and so asks the same rule rather than restating it. `Bot` (a connected bot) and `NoBot` (a seat
whose bot could not start) are what the Arena hands a match, one per seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from referee.faults import Termination

if TYPE_CHECKING:
    from referee.launcher import BotProcess
    from referee.sessions import BotSession


class Pooled(Protocol):
    """What the pool keeps of an item: its entry, and when it last went idle (its LRU order)."""

    entry: str
    last_used: int


@dataclass(eq=False)
class Bot:
    """A connected bot: its session and, when the Arena launched it, its process."""

    entry: str
    session: BotSession
    process: BotProcess | None
    keepalive: asyncio.Task[None] | None = None
    spawn_to_hello: float = 0.0  # seconds from process start (or a standby's assign) to Hello
    last_used: int = 0  # the pool's release counter when it last went idle (LRU order)
    games: int = 0  # games it has played: its first one's log starts with its start-up

    def alive(self) -> bool:
        """Its stream is open and its process (if the Arena launched it) has not exited."""
        return self.session.alive and (self.process is None or not self.process.exited())

    def cpu(self) -> float | None:
        """CPU seconds its processes used so far (None: not launched here, or not counted)."""
        return self.process.cpu_seconds() if self.process is not None else None


@dataclass
class NoBot:
    """A seat's bot that could not play: how its seat ends, why, and its launch's log."""

    termination: Termination
    detail: str = ""
    log_path: str = ""


SeatBot = Bot | NoBot  # what a seat gets: a bot, or the reason it has none

P = TypeVar("P", bound=Pooled)


@dataclass(eq=False)
class Slot:
    """A process as a planner counts it (no process behind it): `tournaments.domain.runner.Pool`."""

    entry: str
    last_used: int = 0


class BotPool(Generic[P]):
    """The books of the processes held per entry; see the module docstring."""

    def __init__(self, max_processes: int | None = None) -> None:
        self.max_processes = max_processes
        self._idle: dict[str, list[P]] = {}  # per entry, oldest first
        self._busy: dict[str, set[P]] = {}
        self._starting: dict[str, int] = {}
        self._released = itertools.count(1)

    # -- queries -------------------------------------------------------------------------------

    def held(self, entry: str) -> int:
        """Processes `entry` holds: busy, idle and starting."""
        return self.busy(entry) + self.idle(entry) + self._starting.get(entry, 0)

    def idle(self, entry: str) -> int:
        """Processes of `entry` free for its next game."""
        return len(self._idle.get(entry, ()))

    def busy(self, entry: str) -> int:
        """Processes of `entry` in a game now."""
        return len(self._busy.get(entry, ()))

    def entries(self) -> list[str]:
        """The entries holding a process (or starting one)."""
        return [e for e in {*self._idle, *self._busy, *self._starting} if self.held(e)]

    def live(self) -> int:
        """Every process held: busy, idle and starting."""
        return sum(self.held(entry) for entry in self.entries())

    def items(self) -> list[P]:
        """Every item held, busy or idle."""
        return [*itertools.chain(*self._busy.values()), *itertools.chain(*self._idle.values())]

    # -- moves ---------------------------------------------------------------------------------

    def take(self, entry: str) -> P | None:
        """The most recently used idle item of `entry`, now busy (the others may age out), or
        None when it has none idle. The caller drops it if it turns out dead."""
        idle = self._idle.get(entry)
        if not idle:
            return None
        item = idle.pop()
        self._busy.setdefault(entry, set()).add(item)
        return item

    def add(self, item: P) -> None:
        """A new item, busy (its process just started)."""
        self._busy.setdefault(item.entry, set()).add(item)

    def put_back(self, item: P) -> None:
        """A busy item is idle again: the most recently used of all."""
        self._busy.get(item.entry, set()).discard(item)
        item.last_used = next(self._released)
        self._idle.setdefault(item.entry, []).append(item)

    def drop(self, item: P) -> None:
        """An item whose process ends: the pool forgets it, busy or idle."""
        self._busy.get(item.entry, set()).discard(item)
        idle = self._idle.get(item.entry, [])
        if item in idle:
            idle.remove(item)

    def clear(self) -> list[P]:
        """Forget every item; they are returned for their processes to be ended."""
        items = self.items()
        self._idle.clear()
        self._busy.clear()
        return items

    @contextlib.contextmanager
    def starting(self, entry: str) -> Iterator[None]:
        """Count a process of `entry` being launched, so that launches at once fit the cap."""
        self._starting[entry] = self._starting.get(entry, 0) + 1
        try:
            yield
        finally:
            self._starting[entry] -= 1

    def evict(self, extra: int = 0) -> P | None:
        """The rule past the cap: while the live processes (plus `extra` the owner counts)
        exceed `max_processes`, the least recently used idle item, forgotten here for its
        process to be ended; None when they fit, or when every process is busy."""
        if self.max_processes is None or self.live() + extra <= self.max_processes:
            return None
        idle = [items for items in self._idle.values() if items]
        if not idle:
            return None  # everyone is busy: the game still gets its bot
        oldest = min(idle, key=lambda items: items[0].last_used)  # each list is oldest first
        return oldest.pop(0)
