"""A classic position as the numbers a learning agent reads: sdk.rl's observation, written here.

The observation is 493 floats in fixed blocks (LAYOUT; sdk/rl/encoding/classic.py says what each
means, docs/rl.md lists them), seen from one seat: seat-indexed blocks start with that seat.
`write_features` fills one observation into a buffer of zeros, writing only its non-zero
entries, straight from the engine's compact fields. It lives in the family's package so that it
is compiled with the engine (mypyc; see referee/engine/compiled.py): reading the fields from
Python and spreading them with numpy cost some fifty times a move. It imports nothing above the
engine (no numpy): the buffer is a librt `vec` of floats, whose stores compile to machine stores
(referee/engine/features.py says why); sdk.rl hands it to numpy. tests/rl pins every block to
`to_state()` on random games of every ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from librt.vecs import vec

from referee.engine.classic.game import ClassicGame
from referee.engine.classic.tables import FIELD, GROUPS, build_group
from referee.engine.features import write_factories, write_packed
from referee.engine.game import OVER, TAKE, WALL

if TYPE_CHECKING:  # machine-int indexes for mypyc (referee/engine/features.py)
    from mypy_extensions import i64, u8

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
CHUNK: Final = (1 << 60) - 1  # 20 wall cells of 3 bits


def write_features(game: ClassicGame, seat: int, out: vec[float], at: i64) -> None:
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


def _write_seat(game: ClassicGame, s: int, out: vec[float], at: i64, r: i64) -> None:
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
    first: i64 = 0
    while cells:  # 3 bits per wall cell (row-major): its colour + 1, 0 where empty
        # 20 cells at a time: 60 bits are a machine int, the 75 of a whole wall are not.
        chunk = cells & CHUNK
        cells >>= 60
        k: i64 = first
        while chunk:
            tile = chunk & 7
            if tile:
                out[wall + k] = 1.0
                out[rows + 5 * (k // 5) + tile - 1] = 1.0
                out[columns + 5 * (k % 5) + tile - 1] = 1.0
            chunk >>= 3
            k += 1
        first += 20


def mark_legal(game: ClassicGame, out: vec[u8], at: i64) -> None:
    """1 at out[at + move.index] for each legal move (the action mask of sdk.rl)."""
    if game.phase != TAKE:  # azul-gray's wall placements (a few), or none: the game is over
        for move in game.legal_moves():
            out[at + move.index] = 1
        return
    sources = game._sources
    allowed = game._allowed
    base = game.turn * 5
    for c in range(5):  # the groups ClassicGame.legal_moves reads, without joining them
        key = (c << 16) | (((sources >> (12 * c)) & FIELD) << 6) | allowed[base + c]
        group = GROUPS[key]
        if group is None:
            group = build_group(key)
        for move in group:
            out[at + move.index] = 1


def write_batch(games: list[ClassicGame], seats: list[int], out: vec[float], size: i64) -> None:
    """Game i's observation from seats[i] into out[i * size : (i + 1) * size] (zeros): the
    vectorised environment's loop, compiled."""
    at: i64 = 0
    for i in range(len(games)):
        write_features(games[i], seats[i], out, at)
        at += size


def mark_batch(games: list[ClassicGame], out: vec[u8], width: i64) -> None:
    """Game i's action mask into out[i * width : (i + 1) * width] (zeros)."""
    at: i64 = 0
    for game in games:
        mark_legal(game, out, at)
        at += width
