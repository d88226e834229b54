"""What a running tournament tells whoever watches it (`run_tournament`'s `on_progress`).

The domain says what happened, as plain values; a watcher decides what to show: the terminal's
live view (`tournaments.terminal.live.LiveProgress`), a log file's progress lines (a contest's
final), nothing at all (a benchmark). A watcher is called on the event loop, between games:
it must return quickly and must not raise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.schedule import ScheduledGame
from tournaments.store import GameOutcome, StoredGame


@dataclass(frozen=True)
class RunStarted:
    """The games are about to start: the entries, the games in all as far as can be told now
    (an adaptive or Swiss tournament grows), and those already played (a resumed run)."""

    names: Sequence[str]
    total: int
    finished: Sequence[StoredGame]


@dataclass(frozen=True)
class GameFinished:
    """One game ended: its `outcome` (committed to the store), or None and the `error` that
    kept it pending."""

    game: ScheduledGame
    outcome: GameOutcome | None
    error: str | None


@dataclass(frozen=True)
class TotalChanged:
    """The tournament grew: the next round of an adaptive or Swiss tournament was scheduled."""

    total: int


@dataclass(frozen=True)
class Notice:
    """A line worth telling a person (where the games are played, say)."""

    text: str


@dataclass(frozen=True)
class RunEnded:
    """No more games start: the run is over, failed or was cancelled (said before its bots
    end, which can take a moment)."""


ProgressEvent = RunStarted | GameFinished | TotalChanged | Notice | RunEnded
OnProgress = Callable[[ProgressEvent], None]


def ignore(event: ProgressEvent) -> None:
    """The watcher of a run nobody watches."""
