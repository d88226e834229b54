"""A learned value of a classic Azul board at a round's end: the points a seat will still score
before the game ends (wall placements, end-of-game bonuses, floors), fitted on self-play games.

The features are read off one seat's board after the round's wall-tiling (`features`); their
weights depend on how many rounds the game may still last (`rounds_left`'s 1, 2, 3 or 4+: a
column 3 tiles from done is worth something with four rounds left, nothing with one). The
weights (`bots/expert/weights.py`) come from `python -m bots.expert.fit` (a least-squares fit of
the seat's final score minus its score at a round's start over games of `mcts` against itself);
the bot reads only the constants, so it needs no numpy.

A small network (`net_value`) can take the linear fit's place on a coloured wall: the same
target, read from the hand-made features above plus the raw board (every wall cell, each
started line's share done at its cell, the rounds left), one hidden layer of rectified units.
Its weights (`bots/expert/net_weights.py`) come from `python -m bots.expert.train`; the forward
pass is plain Python (the bot needs no numpy), sparse over the inputs (most are 0).

A gray wall (`azul-gray`) has weights of its own (`gray_weights.py`, `fit --ruleset azul-gray`,
fitted on its own games: where a tile goes is the player's choice there, and the points follow):
its colours are wherever their tiles went (`cells`), and a started line's tile is scored in the
best column still open to its colour.
"""

from __future__ import annotations

from bots.expert import net_weights
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


# The network's inputs: the hand-made features but the bias, in the block of the rounds left
# (1, 2, 3, 4+: the linear fit's buckets, the others 0), the 25 wall cells, the 25 cells the
# started lines aim at (each its share done), and the rounds left one-hot.
FEATURES = len(NAMES) - 1
NET_INPUTS = FEATURES * BUCKETS + 25 + 25 + BUCKETS


def net_inputs(wall: int, lines: list[tuple[int, int]], starts: bool, rounds: int) -> list[float]:
    """The network's inputs for a coloured wall's board after the round's wall-tiling (as
    `features` takes it; `rounds` rounds left, at least 1)."""
    row = bucket(rounds)
    out = [0.0] * (FEATURES * BUCKETS)
    out[FEATURES * row : FEATURES * (row + 1)] = features(wall, lines, starts)[1:]
    out.extend([float(wall >> i & 1) for i in range(25)])
    aims = [0.0] * 25
    for r, (colour, n) in enumerate(lines):
        if 0 < n < r + 1:
            aims[5 * r + wall_column(r, colour)] = n / (r + 1)
    out.extend(aims)
    hot = [0.0] * BUCKETS
    hot[row] = 1.0
    out.extend(hot)
    return out


# The shipped weights as lists (faster to index than tuples in the compiled module): the first
# layer one row per input (its standardisation folded in; a row's last weight is the input's
# straight to the output), the hidden biases, the output layer.
_W1: list[list[float]] = [list(row) for row in net_weights.W1]
_B1: list[float] = list(net_weights.B1)
_W2: list[float] = list(net_weights.W2)
_B2: float = net_weights.B2


def net_forward(
    x: list[float], w1: list[list[float]], b1: list[float], w2: list[float], b2: float
) -> float:
    """One hidden layer of rectified units beside a linear term: b2 + x v + w2 . relu(b1 +
    x W1), where each row of `w1` is W1's followed by v's; x's zeros skipped."""
    width = len(b1)
    hidden = list(b1)
    hidden.append(0.0)  # x v: the linear term, a fit of the linear's kind the rest corrects
    for i in range(len(x)):
        xi = x[i]
        if xi != 0.0:
            row = w1[i]
            for j in range(width + 1):
                hidden[j] += xi * row[j]
    out = b2 + hidden[width]
    for j in range(width):
        h = hidden[j]
        if h > 0.0:
            out += h * w2[j]
    return out


def load_net(w1: list[list[float]], b1: list[float], w2: list[float], b2: float) -> None:
    """Value by other weights than the shipped ones from now on, in this process (the training's
    self-play with the previous generation's network; comparing two networks in one process):
    `values.load_net`, which also forgets the board values cached under the old ones."""
    global _W1, _B1, _W2, _B2
    _W1, _B1, _W2, _B2 = [list(row) for row in w1], list(b1), list(w2), float(b2)


def net_value(wall: int, lines: list[tuple[int, int]], starts: bool, rounds: int) -> float:
    """The points the seat will still score, by the shipped network (a coloured wall)."""
    return net_forward(net_inputs(wall, lines, starts, rounds), _W1, _B1, _W2, _B2)
