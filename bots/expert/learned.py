"""A learned value of a classic Azul board at a round's end: the points a seat will still score
before the game ends (wall placements, end-of-game bonuses, floors), fitted on self-play games.

The features are read off one seat's board after the round's wall-tiling (`features`); their
weights depend on how many rounds the game may still last (`rounds_left`'s 1, 2, 3 or 4+: a
column 3 tiles from done is worth something with four rounds left, nothing with one). The
weights (`bots/expert/weights.py`) come from `python -m bots.expert.fit` (a least-squares fit of
the seat's final score minus its score at a round's start over games of `mcts` against itself);
the bot reads only the constants, so it needs no numpy.

A gray wall (`azul-gray`) has weights of its own (`gray_weights.py`, `fit --ruleset azul-gray`,
fitted on its own games: where a tile goes is the player's choice there, and the points follow):
its colours are wherever their tiles went (`cells`), and a started line's tile is scored in the
best column still open to its colour.
"""

from __future__ import annotations

from bots.expert.gray_weights import WEIGHTS as GRAY_WEIGHTS
from bots.expert.weights import WEIGHTS
from sdk.helpers import (
    COLUMN_MASKS,
    ROW_MASKS,
    colour_counts,
    free_gray_columns,
    placement_points,
    wall_column,
)

NAMES = (
    "bias",
    "rows_4",
    "rows_3",
    "rows_2",
    "rows_1",
    "columns_4",
    "columns_3",
    "columns_2",
    "columns_1",
    "colours_4",
    "colours_3",
    "colours_2",
    "colours_1",
    "line_points",  # what the started lines will score once full, by how full they are
    "line_missing",  # tiles the started lines still need
    "lines_started",
    "wall_tiles",
    "starts",  # holds the first-player marker: takes first next round
)
BUCKETS = 4  # rounds left: 1, 2, 3, 4 or more


def bucket(rounds: int) -> int:
    """The weights' row for `rounds` rounds left (at least 1)."""
    return min(rounds, BUCKETS) - 1


def features(
    wall: int, lines: list[tuple[int, int]], starts: bool, cells: dict[int, int] | None = None
) -> list[float]:
    """One seat's board after the round's wall-tiling (`lines`: (colour, count) of each pattern
    line, full ones already on `wall`; `cells`: a gray wall's colours by wall bit, None on a
    coloured wall), as `NAMES` lists them."""
    out = [1.0] + [0.0] * (len(NAMES) - 1)
    for offset, masks in ((1, ROW_MASKS), (5, COLUMN_MASKS)):
        for mask in masks:
            k = (wall & mask).bit_count()
            if 0 < k < 5:
                out[offset + 4 - k] += 1.0
    for k in colour_counts(wall, cells):
        if 0 < k < 5:
            out[13 - k] += 1.0
    for r, (colour, n) in enumerate(lines):
        if 0 < n < r + 1:
            if cells is None:
                points = placement_points(wall, r, wall_column(r, colour))
            else:  # the best column left to the colour (none: the tiles will fall)
                free = free_gray_columns(wall, cells, r, colour)
                points = max((placement_points(wall, r, k) for k in free), default=0)
            out[13] += points * n / (r + 1)
            out[14] += r + 1 - n
            out[15] += 1.0
    out[16] = float(wall.bit_count())
    out[17] = 1.0 if starts else 0.0
    return out


def future_points(
    wall: int,
    lines: list[tuple[int, int]],
    starts: bool,
    rounds: int,
    cells: dict[int, int] | None = None,
) -> float:
    """The points the seat will still score, by the fitted weights (a gray wall's with `cells`)."""
    weights = (WEIGHTS if cells is None else GRAY_WEIGHTS)[bucket(rounds)]
    return sum(w * f for w, f in zip(weights, features(wall, lines, starts, cells), strict=True))
