"""What a running tournament tells whoever watches it (`run_tournament`'s `on_progress`).

The domain says what happened, as plain values; a watcher decides what to show: the terminal's
live view (`tournaments.terminal.live.LiveProgress`), plain progress lines (`ProgressLines`: a
pipe, a contest final's log file), nothing at all (a benchmark). A watcher is called on the event
loop, between games: it must return quickly and must not raise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.domain.ratings import Ratings
from tournaments.domain.report import Row, leaderboard
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.store import GameOutcome, StoredGame


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


PLAIN_EVERY = 5.0  # seconds between plain progress lines


class RunTally:
    """What a watcher counts of a run: the games done and failed, the rate, and a provisional
    leaderboard that rates games in the order they finish (only an estimate under concurrency:
    the final leaderboard is recomputed from the store in schedule order)."""

    def __init__(self, names: Sequence[str], total: int, done: Sequence[StoredGame] = ()) -> None:
        self.names = list(names)
        self.total = total
        self.games: list[StoredGame] = list(done)
        self.ratings = Ratings(self.names)
        for g in self.games:
            self.ratings.update(
                g.game.game_id, [s.entry for s in g.seats], [s.rank for s in g.seats]
            )
        self.done = len(self.games)
        self.failed = 0
        self.start_done = self.done
        self.start = time.monotonic()

    def add(self, game: ScheduledGame, outcome: GameOutcome | None) -> None:
        """Account for one finished game (`outcome` None: it failed)."""
        if outcome is None:
            self.failed += 1
            return
        self.done += 1
        self.games.append(StoredGame(game, "done", outcome.seats, outcome.duration, None, 1, None))
        self.ratings.update(
            game.game_id, [s.entry for s in outcome.seats], [s.rank for s in outcome.seats]
        )

    def rate(self) -> float:
        """Games a second since this run started (games done before it not counted)."""
        elapsed = time.monotonic() - self.start
        return (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0

    def rows(self) -> list[Row]:
        return leaderboard(self.names, self.games, self.ratings)

    def line(self) -> str:
        """The run in one line: done, rate, time left, failures and the leader."""
        rate = self.rate()
        pct = 100 * self.done / self.total if self.total else 100.0
        text = f"games {self.done}/{self.total} ({pct:.0f}%)"
        if rate > 0:
            text += f", {rate:.1f} games/s, ~{(self.total - self.done) / rate:.0f} s left"
        if self.failed:
            text += f", {self.failed} failed"
        if self.done:
            best = self.rows()[0]
            text += f"; leader {best.entry} (mu {best.mu:.1f}, sigma {best.sigma:.1f})"
        return text


class ProgressLines:
    """A watcher that writes plain lines through `write`: a progress line at the start, every
    `every` seconds and at the end, each failed game, and the run's notices."""

    def __init__(self, write: Callable[[str], None], every: float = PLAIN_EVERY) -> None:
        self.write = write
        self.every = every
        self.tally: RunTally | None = None
        self._last = 0.0
        self._shown: tuple[int, int, int] | None = None  # done, failed, total of the last line

    def __call__(self, event: ProgressEvent) -> None:
        if isinstance(event, RunStarted):
            self.tally = RunTally(event.names, event.total, event.finished)
            self._line(force=True)
        elif isinstance(event, Notice):
            self.write(event.text)
        elif self.tally is None:
            return
        elif isinstance(event, GameFinished):
            self.tally.add(event.game, event.outcome)
            if event.outcome is None:
                self.write(f"game {event.game.game_id} failed: {event.error}")
            self._line()
        elif isinstance(event, TotalChanged):
            self.tally.total = event.total
        elif isinstance(event, RunEnded):
            self._line(force=True)

    def _line(self, force: bool = False) -> None:
        assert self.tally is not None
        now = time.monotonic()
        if not force and now - self._last < self.every and self.tally.done < self.tally.total:
            return
        counts = (self.tally.done, self.tally.failed, self.tally.total)
        if counts == self._shown and self.tally.done == self.tally.total:
            return  # the last game's line already said it all: the end adds nothing
        self._last, self._shown = now, counts
        self.write(self.tally.line())
