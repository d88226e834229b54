"""The live view of a running tournament.

On a terminal: a rich progress bar (games done / total, rate, time left) above a leaderboard
that refreshes as games finish. Elsewhere (CI logs, pipes): the domain's plain progress lines
(`tournaments.domain.progress.ProgressLines`), the same counts in words.
"""

from __future__ import annotations

import time

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

from tournaments.domain.progress import (
    GameFinished,
    Notice,
    ProgressEvent,
    ProgressLines,
    RunEnded,
    RunStarted,
    RunTally,
    TotalChanged,
)
from tournaments.terminal.render import leaderboard_table

LIVE_ROWS = 15  # leaderboard lines shown while games run
TABLE_EVERY = 0.5  # seconds between leaderboard rebuilds (rebuilding is O(entries))


class LiveView:
    """Progress and a provisional leaderboard of `tally`, redrawn as games finish: opened with
    `with`, `update` after every game."""

    def __init__(self, console: Console, tally: RunTally) -> None:
        self.console = console
        self.tally = tally
        self._last_table = 0.0
        self.progress = Progress(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
        )
        self.task: TaskID = self.progress.add_task(
            "games", total=tally.total, completed=tally.done, rate=""
        )
        self.live = Live(self._renderable(), console=console, refresh_per_second=4, transient=True)

    def __enter__(self) -> LiveView:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.live.__exit__(None, None, None)

    def update(self) -> None:
        """Show the tally as it is now (the leaderboard at most every TABLE_EVERY seconds)."""
        self.progress.update(
            self.task, completed=self.tally.done, total=self.tally.total, rate=self._rate_text()
        )
        now = time.monotonic()
        if now - self._last_table >= TABLE_EVERY:
            self._last_table = now
            self.live.update(self._renderable())

    def _rate_text(self) -> str:
        rate = self.tally.rate()
        text = f"{rate:.1f} games/s" if rate else ""
        if self.tally.failed:
            text += f" [red]{self.tally.failed} failed[/]"
        return text

    def _renderable(self) -> Group:
        return Group(
            self.progress,
            leaderboard_table(self.tally.rows(), title="Leaderboard (live)", limit=LIVE_ROWS),
        )


class LiveProgress:
    """A run's watcher (`run_tournament`'s `on_progress`) for a person: a `LiveView` on a
    terminal, else (or with `plain`) the domain's plain progress lines on the console."""

    def __init__(self, console: Console, plain: bool | None = None) -> None:
        self.console = console
        self.plain = (not console.is_terminal) if plain is None else plain
        self.lines = ProgressLines(self._write)
        self.view: LiveView | None = None

    def _write(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def __call__(self, event: ProgressEvent) -> None:
        if self.plain:
            self.lines(event)
        elif isinstance(event, RunStarted):
            self.view = LiveView(self.console, RunTally(event.names, event.total, event.finished))
            self.view.__enter__()
        elif isinstance(event, Notice):
            self.console.print(event.text, markup=False, highlight=False)
        elif self.view is None:
            return
        elif isinstance(event, GameFinished):
            self.view.tally.add(event.game, event.outcome)
            self.view.update()
        elif isinstance(event, TotalChanged):
            self.view.tally.total = event.total
            self.view.update()
        elif isinstance(event, RunEnded):
            self.view.__exit__(None, None, None)
