"""Rich tables for the leaderboard and the crosstable (used live, by `show` and at the end)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich import box
from rich.table import Table

from tournaments.domain.report import MEAN_INTERVAL_MIN_GAMES, Pairwise, Row

# Past this many entries a crosstable stops being readable in a terminal; JSON/CSV still have it.
CROSSTABLE_MAX = 16


def _interval(low: float, high: float, fmt: str) -> str:
    if math.isnan(low) or math.isnan(high):
        return ""
    # An en dash: a hyphen between two numbers reads as a minus sign.
    return f" [dim]({fmt.format(low)}\u2013{fmt.format(high)})[/]"


def _mean_interval(row: Row) -> str:
    """The mean score's interval, or "too few games" under MEAN_INTERVAL_MIN_GAMES."""
    if not row.games:
        return ""
    if row.games < MEAN_INTERVAL_MIN_GAMES:
        return " [dim](too few games)[/]"
    return _interval(row.mean_score_low, row.mean_score_high, "{:.1f}")


def leaderboard_table(
    rows: Sequence[Row], title: str = "Leaderboard", limit: int | None = None
) -> Table:
    """The leaderboard: rank, entry, mu - 3 sigma, mu, sigma, games, wins, win rate and mean
    score with their 95% intervals, CPU seconds per game, and faults by kind."""
    # Simple borders and one column for mu ± sigma: the table fits an 80-column terminal.
    table = Table(
        title=title,
        title_justify="left",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),
        pad_edge=False,
    )
    table.add_column("#", justify="right")
    table.add_column("entry")
    table.add_column("mu-3σ", justify="right")
    table.add_column("mu ± σ", justify="right")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95%)", justify="right")
    table.add_column("mean score (95%)", justify="right")
    table.add_column("cpu/game", justify="right")
    table.add_column("faults")
    shown = rows if limit is None else rows[:limit]
    for r in shown:
        mean = "" if math.isnan(r.mean_score) else f"{r.mean_score:.1f}"
        faults = str(r.faults)
        if r.faults:
            faults += " [dim](" + ", ".join(f"{k} {v}" for k, v in r.fault_kinds.items()) + ")[/]"
        table.add_row(
            str(r.rank),
            r.entry,
            f"{r.conservative:.1f}",
            f"{r.mu:.1f} ± {r.sigma:.1f}",
            str(r.games),
            str(r.wins) + (f" +{r.ties}=" if r.ties else ""),
            f"{100 * r.win_rate:.0f}%"
            + _interval(100 * r.win_rate_low, 100 * r.win_rate_high, "{:.0f}"),
            mean + _mean_interval(r),
            "" if math.isnan(r.cpu_per_game) else f"{r.cpu_per_game:.2f}s",
            faults,
        )
    if limit is not None and len(rows) > limit:
        table.caption = f"top {limit} of {len(rows)}"
    return table


def crosstable_table(names: Sequence[str], cells: dict[tuple[str, str], Pairwise]) -> Table:
    """Row entry's record against column entry as wins-losses(-draws) of finishing ahead."""
    table = Table(
        title="Crosstable (row vs column: ahead-behind[-level])",
        title_justify="left",
        header_style="bold",
    )
    table.add_column("")
    for n in names:
        table.add_column(n, justify="center")
    for a in names:
        cells_row = []
        for b in names:
            if a == b:
                cells_row.append("[dim]-[/]")
                continue
            p = cells.get((a, b))
            if p is None or p.games == 0:
                cells_row.append("")
                continue
            text = f"{p.wins}-{p.losses}" + (f"-{p.draws}" if p.draws else "")
            colour = "green" if p.wins > p.losses else "red" if p.wins < p.losses else "yellow"
            cells_row.append(f"[{colour}]{text}[/]")
        table.add_row(a, *cells_row)
    return table
