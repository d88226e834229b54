"""The live view of a running tournament.

On a terminal: a rich progress bar (games done / total, rate, time left) above a leaderboard
that refreshes as games finish. Elsewhere (CI logs, pipes): a plain progress line every few
seconds. The live leaderboard rates games in the order they finish, which is only an estimate
under concurrency; the final leaderboard is recomputed from the store in schedule order.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tournaments.progress import (
    GameFinished,
    Notice,
    ProgressEvent,
    RunEnded,
    RunStarted,
    TotalChanged,
)
from tournaments.ratings import Ratings
from tournaments.report import Row, leaderboard
from tournaments.schedule import ScheduledGame
from tournaments.store import GameOutcome, StoredGame
from tournaments.terminal.render import leaderboard_table

LIVE_ROWS = 15  # leaderboard lines shown while games run
TABLE_EVERY = 0.5  # seconds between leaderboard rebuilds (rebuilding is O(entries))
PLAIN_EVERY = 5.0  # seconds between plain progress lines


class LiveView:
    """Progress and a provisional leaderboard; `update` after every game, `close` at the end."""

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        total: int,
        done: Sequence[StoredGame] = (),
        plain: bool | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.console = console
        self.names = list(names)
        self.total = total
        self.plain = (not console.is_terminal) if plain is None else plain
        self.out = out
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
        self._last_table = 0.0
        self._last_plain = 0.0
        self._live: Live | None = None
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def __enter__(self) -> LiveView:
        if self.plain:
            self._line(force=True)
            return self
        self._progress = Progress(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=self.console,
        )
        self._task = self._progress.add_task(
            "games", total=self.total, completed=self.done, rate=""
        )
        self._live = Live(
            self._renderable(), console=self.console, refresh_per_second=4, transient=True
        )
        self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)
        elif self.plain:
            self._line(force=True)

    # -- updates --------------------------------------------------------------------------

    def update(self, game: ScheduledGame, outcome: GameOutcome | None, error: str | None) -> None:
        """Account for one finished (or failed) game."""
        if outcome is None:
            self.failed += 1
            if self.plain:
                self._print(f"game {game.game_id} failed: {error}")
        else:
            self.done += 1
            self.games.append(
                StoredGame(game, "done", outcome.seats, outcome.duration, None, 1, None)
            )
            self.ratings.update(
                game.game_id, [s.entry for s in outcome.seats], [s.rank for s in outcome.seats]
            )
        if self.plain:
            self._line()
            return
        assert self._progress is not None and self._task is not None
        self._progress.update(self._task, completed=self.done, rate=self._rate_text())
        now = time.monotonic()
        if self._live is not None and now - self._last_table >= TABLE_EVERY:
            self._last_table = now
            self._live.update(self._renderable())

    def set_total(self, total: int) -> None:
        """The tournament grew (the next round of an adaptive or Swiss one)."""
        self.total = total
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, total=total)

    def rows(self) -> list[Row]:
        return leaderboard(self.names, self.games, self.ratings)

    # -- helpers --------------------------------------------------------------------------

    def rate(self) -> float:
        elapsed = time.monotonic() - self.start
        return (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0

    def _rate_text(self) -> str:
        rate = self.rate()
        text = f"{rate:.1f} games/s" if rate else ""
        if self.failed:
            text += f" [red]{self.failed} failed[/]"
        return text

    def _renderable(self) -> Group:
        assert self._progress is not None
        return Group(
            self._progress,
            leaderboard_table(self.rows(), title="Leaderboard (live)", limit=LIVE_ROWS),
        )

    def _print(self, text: str) -> None:
        if self.out is not None:
            print(text, file=self.out, flush=True)
        else:
            self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def _line(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_plain < PLAIN_EVERY and self.done < self.total:
            return
        self._last_plain = now
        rate = self.rate()
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        pct = 100 * self.done / self.total if self.total else 100.0
        text = f"games {self.done}/{self.total} ({pct:.0f}%)"
        if rate > 0:
            text += f", {rate:.1f} games/s, ~{left:.0f} s left"
        if self.failed:
            text += f", {self.failed} failed"
        if self.done:
            best = self.rows()[0]
            text += f"; leader {best.entry} (mu {best.mu:.1f}, sigma {best.sigma:.1f})"
        self._print(text)


class LiveProgress:
    """A run's watcher (`run_tournament`'s `on_progress`) that shows it in a `LiveView`: opened
    as the games start, closed as they end. `plain` and `out` are the view's."""

    def __init__(
        self, console: Console, plain: bool | None = None, out: TextIO | None = None
    ) -> None:
        self.console = console
        self.plain = plain
        self.out = out
        self.view: LiveView | None = None

    def __call__(self, event: ProgressEvent) -> None:
        if isinstance(event, RunStarted):
            self.view = LiveView(
                self.console, event.names, event.total, event.finished, self.plain, self.out
            )
            self.view.__enter__()
        elif isinstance(event, Notice):
            self.console.print(event.text, markup=False, highlight=False)
        elif self.view is None:
            return
        elif isinstance(event, GameFinished):
            self.view.update(event.game, event.outcome, event.error)
        elif isinstance(event, TotalChanged):
            self.view.set_total(event.total)
        elif isinstance(event, RunEnded):
            self.view.__exit__(None, None, None)
