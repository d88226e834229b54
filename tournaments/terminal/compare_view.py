"""The live view of a compare (`bot compare`): games, W/D/L, the pairs' outcomes, the LLR
between its bounds as a bar, and the Elo estimate with its 95% interval.

On a terminal it redraws in place; elsewhere (CI logs, pipes) it prints a line every few
seconds and one at the end. It counts the games as they finish (`CompareTally`), so what it
shows is what the test will read.
"""

from __future__ import annotations

import time

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from tournaments.domain.compare import CompareResult, CompareSpec, CompareTally
from tournaments.domain.progress import GameFinished, Notice, ProgressEvent, RunEnded, RunStarted

PLAIN_EVERY = 5.0  # seconds between plain progress lines
BAR_WIDTH = 40
PAIR_LABELS = ("LL", "LD", "WL/DD", "WD", "WW")
VERDICT_WORDS = {"H1": "better (H1)", "H0": "not better (H0)", "inconclusive": "undecided"}


def llr_bar(llr: float, bounds: tuple[float, float], width: int = BAR_WIDTH) -> Text:
    """`[-2.94 ====|------ 2.94]`: where the LLR stands between its bounds (0 in the middle)."""
    lower, upper = bounds
    share = (min(max(llr, lower), upper) - lower) / (upper - lower)
    filled = round(share * width)
    colour = "green" if llr >= upper else "red" if llr <= lower else "cyan"
    bar = Text(f"{lower:.2f} [")
    bar.append("=" * filled, style=colour)
    bar.append("-" * (width - filled), style="dim")
    bar.append(f"] {upper:.2f}")
    return bar


def summary_line(result: CompareResult) -> str:
    """The test in one line: verdict, LLR against its bounds, Elo, games."""
    low, high = result.elo_ci
    return (
        f"{VERDICT_WORDS[result.verdict]}, {result.llr_against_bounds()}, {result.elo:+.1f} Elo "
        f"(95%: {low:+.1f} .. {high:+.1f}), {result.games} games"
    )


def result_table(spec: CompareSpec, result: CompareResult, played: int) -> Table:
    """The test as a small table (the live view's and the final one)."""
    table = Table(title=f"{spec.new} (new) vs {spec.base} (base)", show_header=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row(
        "games",
        f"{result.games} counted of {played} played ({result.pairs} pairs, "
        f"at most {spec.max_games})",
    )
    table.add_row("new's W/D/L", f"{result.wins} / {result.draws} / {result.losses}")
    table.add_row(
        "pairs",
        "  ".join(
            f"{label} {n}" for label, n in zip(PAIR_LABELS, result.pair_outcomes, strict=True)
        ),
    )
    table.add_row("LLR", Text.assemble(llr_bar(result.llr, result.bounds), f"  {result.llr:.2f}"))
    low, high = result.elo_ci
    table.add_row(
        "Elo", f"{result.elo:+.1f}  (95%: {low:+.1f} .. {high:+.1f}, by {result.statistic})"
    )
    rho = result.pair_correlation
    table.add_row(
        "margin",
        f"{result.margin:+.1f} points a game (spread {result.margin_sd:.1f}"
        + (f"; a pair's two margins correlate {rho:+.2f}" if rho is not None else "")
        + ")",
    )
    s = spec.settings
    table.add_row(
        "test",
        f"H0 elo {s.elo0:g}, H1 elo {s.elo1:g}, alpha {s.alpha:g}, beta {s.beta:g}: "
        f"{VERDICT_WORDS[result.verdict]}",
    )
    return table


class CompareProgress:
    """A compare run's watcher (`run_tournament`'s `on_progress`): the live table, or plain
    lines when `plain` (None: plain when the console is no terminal)."""

    def __init__(self, console: Console, spec: CompareSpec, plain: bool | None = None) -> None:
        self.console = console
        self.spec = spec
        self.plain = (not console.is_terminal) if plain is None else plain
        self.tally = CompareTally(spec)
        self.failed = 0
        self._live: Live | None = None
        self._last = 0.0

    def __call__(self, event: ProgressEvent) -> None:
        if isinstance(event, RunStarted):
            for g in event.finished:
                self.tally.add(g.game, g.seats)
            self._start()
        elif isinstance(event, GameFinished):
            if event.outcome is None:
                self.failed += 1
                self._say(f"game {event.game.game_id} failed: {event.error}")
            else:
                self.tally.add(event.game, event.outcome.seats)
            self._show()
        elif isinstance(event, Notice):
            self._say(event.text)
        elif isinstance(event, RunEnded):
            self._stop()

    def _renderable(self) -> Group:
        parts: list[Table | Text] = [
            result_table(self.spec, self.tally.result(), self.tally.played)
        ]
        if self.failed:
            parts.append(Text(f"{self.failed} game(s) failed", style="red"))
        return Group(*parts)

    def _start(self) -> None:
        if self.plain:
            self._line(force=True)
            return
        self._live = Live(
            self._renderable(), console=self.console, refresh_per_second=4, transient=True
        )
        self._live.__enter__()

    def _show(self) -> None:
        if self._live is not None:
            self._live.update(self._renderable())
        elif self.plain:
            self._line()

    def _stop(self) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)
            self._live = None
        elif self.plain:
            self._line(force=True)

    def _say(self, text: str) -> None:
        target = self._live.console if self._live is not None else self.console
        target.print(text, markup=False, highlight=False, soft_wrap=True)

    def _line(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < PLAIN_EVERY:
            return
        self._last = now
        r = self.tally.result()
        self._say(
            f"games {self.tally.played} (pairs {r.pairs}), W/D/L {r.wins}/{r.draws}/{r.losses}; "
            + summary_line(r)
        )
