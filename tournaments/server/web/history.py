"""What a participant's page shows beyond its versions: its rating over time (a small SVG drawn
on the server, with both axes labelled: no script, no library) and its results against each
opponent."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tournaments.server.ladder.models import Seat

WIDTH, HEIGHT = 640, 200
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 36  # the plot's margins: the axes' labels sit there
HISTORY_GAMES = 500
TICKS = 5  # at most this many labels on an axis


def version_ids(participant: Any) -> list[int]:
    return list(participant.versions.values_list("pk", flat=True))


def rating_points(participant: Any) -> list[tuple[datetime, float]]:
    """(when the game ended, mu - 3 sigma after it) for the participant's last rated games,
    any version, oldest first."""
    # By version ids, not a join: the (version, game) index then gives the latest seats.
    rows = list(
        Seat.objects.filter(version_id__in=version_ids(participant), mu_after__isnull=False)
        .order_by("-game_id")
        .values_list("game__finished", "mu_after", "sigma_after")[:HISTORY_GAMES]
    )
    rows.reverse()
    # (mu_after and sigma_after are written together: a row with one has both.)
    return [
        (at, mu - 3 * sigma)
        for at, mu, sigma in rows
        if at is not None and mu is not None and sigma is not None
    ]


def nice_step(span: float, ticks: int = TICKS) -> float:
    """A step of 1, 2 or 5 times a power of ten that cuts `span` into at most `ticks` parts."""
    raw = max(span, 1e-9) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def value_ticks(low: float, high: float) -> list[float]:
    """Round values from at or below `low` to at or above `high`, one nice step apart."""
    step = nice_step(high - low or 1.0)
    first = math.floor(low / step) * step
    count = math.ceil((high - first) / step - 1e-9) + 1
    return [round(first + k * step, 10) for k in range(max(count, 2))]


def time_format(start: datetime, end: datetime) -> str:
    """The strftime format that tells apart times between `start` and `end`, and no more."""
    span = (end - start).total_seconds()
    if span < 300:
        return "%H:%M:%S"
    if span < 86400:
        return "%H:%M"
    return "%m-%d %H:%M" if span < 7 * 86400 else "%Y-%m-%d"


def rating_chart(points: list[tuple[datetime, float]]) -> dict[str, Any] | None:
    """The rating chart's geometry (an SVG the page draws: no script): the line game after
    game, the rating axis's round values and the time axis's labels (when games ended, UTC),
    with their grid lines; None under 2 games. Games are evenly spaced: a new version's first
    games come in a burst, and by time they would fall on one spot."""
    if len(points) < 2:
        return None
    values = [v for _, v in points]
    ys = value_ticks(min(values), max(values))
    low, high = ys[0], ys[-1]
    wide, tall = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = len(points) - 1

    def x(i: int) -> float:
        return LEFT + i / last * wide

    def y(v: float) -> float:
        return TOP + (high - v) / ((high - low) or 1.0) * tall

    shown = sorted({round(k * last / (TICKS - 1)) for k in range(TICKS)})
    fmt = time_format(points[0][0], points[-1][0])
    return {
        "points": " ".join(f"{x(i):.1f},{y(v):.1f}" for i, (_, v) in enumerate(points)),
        "y_ticks": [{"y": f"{y(v):.1f}", "label": f"{v:g}"} for v in ys],
        "x_ticks": [{"x": f"{x(i):.1f}", "label": points[i][0].strftime(fmt)} for i in shown],
        "games": len(points),
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "plot_width": wide,
        "plot_height": tall,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "label_x": LEFT - 6,
        "label_y": HEIGHT - BOTTOM + 14,
        "title_y": HEIGHT - 4,
    }


@dataclass
class Against:
    opponent: str
    games: int = 0
    ahead: int = 0  # games it finished ahead of this opponent
    behind: int = 0
    level: int = 0

    @property
    def rate(self) -> float:
        return (self.ahead + 0.5 * self.level) / self.games if self.games else 0.0


def results_against(participant: Any, last: int = 2000, seats: Any = None) -> list[Against]:
    """For each opponent met in its last `last` games: how often it finished ahead, behind or
    level (ranks in the game, any versions); only among `seats` (the seats a visitor may see,
    `Seat.objects.visible_to`) when given."""
    ids = version_ids(participant)
    # A seat has its rank once its game is recorded (done).
    mine = dict(
        (Seat.objects.all() if seats is None else seats)
        .filter(version_id__in=ids, rank__isnull=False)
        .order_by("-game_id")
        .values_list("game_id", "rank")[:last]
    )
    table: dict[str, Against] = defaultdict(lambda: Against(""))
    others = (
        Seat.objects.filter(game_id__in=list(mine))
        .exclude(version_id__in=ids)
        .values_list("game_id", "rank", "version__participant__name")
    )
    for game_id, rank, name in others:
        row = table[name]
        row.opponent = name
        row.games += 1
        ours = mine[game_id]
        if ours is None or rank is None or ours == rank:
            row.level += 1
        elif ours < rank:
            row.ahead += 1
        else:
            row.behind += 1
    return sorted(table.values(), key=lambda r: (-r.games, r.opponent))
