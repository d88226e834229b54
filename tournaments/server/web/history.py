"""What a participant's page shows beyond its versions: its rating over its games (a small SVG
drawn on the server: no script, no library) and its results against each opponent."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from tournaments.server.ladder.models import Seat

WIDTH, HEIGHT, PAD = 640, 160, 24
HISTORY_GAMES = 500


def version_ids(participant: Any) -> list[int]:
    return list(participant.versions.values_list("pk", flat=True))


def rating_points(participant: Any) -> list[tuple[int, float]]:
    """(game number, mu - 3 sigma after it) for the participant's last rated games, any
    version, oldest first."""
    # By version ids, not a join: the (version, game) index then gives the latest seats.
    rows = list(
        Seat.objects.filter(version_id__in=version_ids(participant), mu_after__isnull=False)
        .order_by("-game_id")
        .values_list("game_id", "mu_after", "sigma_after")[:HISTORY_GAMES]
    )
    rows.reverse()
    # (mu_after and sigma_after are written together: a row with one has both.)
    return [(g, mu - 3 * sigma) for g, mu, sigma in rows if mu is not None and sigma is not None]


def svg_polyline(points: list[tuple[int, float]]) -> dict[str, Any] | None:
    """The chart's geometry: the polyline's points and the axis labels; None under 2 games."""
    if len(points) < 2:
        return None
    values = [v for _, v in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / (len(points) - 1)
    tall = HEIGHT - 2 * PAD
    coords = " ".join(
        f"{PAD + i * step:.1f},{HEIGHT - PAD - (v - low) / span * tall:.1f}"
        for i, (_, v) in enumerate(points)
    )
    return {
        "points": coords,
        "low": low,
        "high": high,
        "games": len(points),
        "width": WIDTH,
        "height": HEIGHT,
        "pad": PAD,
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
