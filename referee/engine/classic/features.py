"""A classic position as the numbers a learning agent reads: sdk.rl's observation, written here.

The observation is 493 floats in fixed blocks (LAYOUT; sdk/rl/encoding/classic.py says what each
means, docs/rl.md lists them), seen from one seat: seat-indexed blocks start with that seat.
`write_features` fills one observation into a float32 buffer of zeros, writing only its non-zero
entries, straight from the engine's compact fields. It lives in the family's package so that it
is compiled with the engine (mypyc; see referee/engine/compiled.py): reading the fields from
Python and spreading them with numpy cost some fifty times a move. It imports nothing above the
engine (no numpy): the buffer is any object that takes `buffer[index] = float` (sdk.rl passes
a memoryview of a bytearray, cast to floats). tests/rl pins every block to `to_state()` on
random games of every ruleset.
"""

from __future__ import annotations

from typing import Any, Final

from referee.engine.bag import write_factories, write_packed
from referee.engine.classic.game import ClassicGame
from referee.engine.game import OVER, WALL

MAX_SEATS: Final = 4  # seat blocks for the largest table; absent seats stay zeros
# The blocks of the observation in order: name and number of floats.
LAYOUT: Final = (
    ("factories", 45),
    ("centre", 5),
    ("marker_in_centre", 1),
    ("bag", 5),
    ("lid", 5),
    ("round", 1),
    ("players", 3),
    ("phase", 3),
    ("wall_line", 5),
    ("to_move", 4),
    ("marker_holder", 4),
    ("present", 4),
    ("scores", 4),
    ("floor", 4),
    ("lines", 100),
    ("wall", 100),
    ("wall_rows", 100),
    ("wall_columns", 100),
)
SIZE: Final = 493
# Where each block starts (constants, so that the compiled code adds them as machine ints).
FACTORIES: Final = 0
CENTRE: Final = 45
MARKER_IN_CENTRE: Final = 50
BAG: Final = 51
LID: Final = 56
ROUND: Final = 61
PLAYERS: Final = 62
PHASE: Final = 65
WALL_LINE: Final = 68
TO_MOVE: Final = 73
MARKER_HOLDER: Final = 77
PRESENT: Final = 81
SCORES: Final = 85
FLOOR: Final = 89
LINES: Final = 93
WALL_CELLS: Final = 193
WALL_ROWS: Final = 293
WALL_COLUMNS: Final = 393


def write_features(game: ClassicGame, seat: int, out: Any, at: int) -> None:
    """The position seen from `seat` into out[at : at + SIZE], which must be zeros."""
    p = game.players
    write_factories(out, at + FACTORIES, game._factories, 5)
    write_packed(out, at + CENTRE, game._centre, 20)
    if game._marker_in_centre:
        out[at + MARKER_IN_CENTRE] = 1.0
    write_packed(out, at + BAG, game._bag, 20)
    write_packed(out, at + LID, game._lid, 20)
    out[at + ROUND] = game.round / 10
    out[at + PLAYERS + p - 2] = 1.0
    phase = game.phase
    if phase == OVER:
        out[at + PHASE + 2] = 1.0
    else:
        out[at + TO_MOVE + (game.turn - seat) % p] = 1.0
        if phase == WALL:
            out[at + PHASE + 1] = 1.0
            out[at + WALL_LINE + game._wall_next % 5] = 1.0
        else:
            out[at + PHASE] = 1.0
    marker = game._next_starter
    if marker >= 0:
        out[at + MARKER_HOLDER + (marker - seat) % p] = 1.0
    for r in range(p):
        _write_seat(game, (seat + r) % p, out, at, r)


def _write_seat(game: ClassicGame, s: int, out: Any, at: int, r: int) -> None:
    """Seat `s`'s blocks, at place `r` (0 = the seat observing)."""
    out[at + PRESENT + r] = 1.0
    score = game._scores[s]
    if score:
        out[at + SCORES + r] = score / 100
    floor = game._floor_count[s]
    if floor:
        out[at + FLOOR + r] = floor / 7
    colours = game._line_colour
    counts = game._line_count
    lines = at + LINES + 25 * r
    for d in range(5):
        colour = colours[5 * s + d]
        if colour >= 0:
            out[lines + 5 * d + colour] = counts[5 * s + d] / (d + 1)
    cells = game._cells[s]
    wall = at + WALL_CELLS + 25 * r
    rows = at + WALL_ROWS + 25 * r
    columns = at + WALL_COLUMNS + 25 * r
    k = 0
    while cells:  # 3 bits per wall cell (row-major): its colour + 1, 0 where empty
        tile = cells & 7
        if tile:
            out[wall + k] = 1.0
            out[rows + 5 * (k // 5) + tile - 1] = 1.0
            out[columns + 5 * (k % 5) + tile - 1] = 1.0
        cells >>= 3
        k += 1


def mark_legal(game: ClassicGame, out: Any, at: int) -> None:
    """1 at out[at + move.index] for each legal move (the action mask of sdk.rl)."""
    for move in game.legal_moves():
        out[at + move.index] = 1
