"""Precomputed tables for the classic engine: the integer tricks live here, once.

Encodings used by `classic.py`:
- a factory is a 15-bit int, 3 bits of count per colour (a factory never holds more than 4 tiles);
- a tile multiset elsewhere (centre, floor, lid, bag counts) packs 8 bits of count per colour;
- `sources` packs, per colour c, a 12-bit field at bit 12*c whose bit s says "source s holds c"
  (60 bits in all: small enough to stay a machine int when the engine is compiled);
- an entry of `allowed` (seat, colour) is a 6-bit mask of the destinations that accept that
  colour: the pattern lines (bits 0-4) and the floor (bit 5); small enough that storing one in
  a list never allocates;
- a wall is a 25-bit mask, bit 5*row + column; a transposed copy makes columns as cheap as rows.
"""

from __future__ import annotations

from typing import Final

from referee.engine.classic.moves import CENTRE, N_COLOURS, TAKE_MOVES, Move

FLOOR_SLOTS: Final = 7
FLOOR_PENALTIES: Final = (1, 1, 2, 2, 2, 3, 3)
# Penalty for k occupied floor spaces: 0, 1, 2, 4, 6, 8, 11, 14.
FLOOR_LOSS: Final = tuple(sum(FLOOR_PENALTIES[:k]) for k in range(FLOOR_SLOTS + 1))
FLOOR_BIT: Final = 1 << 5  # in a destination mask: the floor line, always allowed

ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS = 2, 7, 10


def wall_column(row: int, colour: int) -> int:
    """Column of `colour` in `row` of the coloured wall: row 0 reads B Y R K W, row 1 W B Y R K."""
    return (colour + row) % 5


# --- factories -------------------------------------------------------------------------------
def _factory_codes() -> list[int]:
    codes = []
    for code in range(1 << 15):
        counts = [(code >> (3 * c)) & 7 for c in range(N_COLOURS)]
        if sum(counts) <= 4:
            codes.append(code)
    return codes


FACTORY_CODES: Final = _factory_codes()
# TILE3[c]: one tile of colour c in a factory code.
TILE3: Final = tuple(1 << (3 * c) for c in range(N_COLOURS))
# PRESENCE[code]: the colours present in a factory, spread to the `sources` layout (bit 12c).
PRESENCE: Final = [0] * (1 << 15)
# TO_PACKED8[code]: the same tiles as an 8-bits-per-colour multiset, to add to the centre.
TO_PACKED8: Final = [0] * (1 << 15)
for _code in FACTORY_CODES:
    for _c in range(N_COLOURS):
        _n = (_code >> (3 * _c)) & 7
        if _n:
            PRESENCE[_code] |= 1 << (12 * _c)
            TO_PACKED8[_code] |= _n << (8 * _c)


def presence8(packed: int) -> int:
    """The colours present in an 8-bit-packed multiset, spread to the `sources` field layout."""
    out = 0
    for c in range(N_COLOURS):
        if (packed >> (8 * c)) & 255:
            out |= 1 << (12 * c)
    return out


# --- wall scoring ----------------------------------------------------------------------------
def _run_length(bits: int, i: int) -> int:
    """Length of the run of set bits in a 5-bit row that contains bit i."""
    n = 1
    j = i - 1
    while j >= 0 and bits >> j & 1:
        n, j = n + 1, j - 1
    j = i + 1
    while j < 5 and bits >> j & 1:
        n, j = n + 1, j + 1
    return n


# RUN[bits * 5 + i]: run through position i of a 5-bit line (bit i set).
RUN: Final = [_run_length(b, i) if b >> i & 1 else 0 for b in range(32) for i in range(5)]


def _points(h: int, v: int) -> int:
    """The wall-scoring rule, from the runs through the new tile (the tile counted in each):
    alone, 1; otherwise the horizontal run if 2 or more, plus the vertical run if 2 or more
    (the rulebook's 4 + 3 = 7)."""
    if h == 1 and v == 1:
        return 1
    return (h if h > 1 else 0) + (v if v > 1 else 0)


def placement_points(wall: int, wall_t: int, row: int, col: int) -> int:
    """Points for the tile just placed at (row, col); `wall`/`wall_t` already include it."""
    return _points(
        RUN[((wall >> (5 * row)) & 31) * 5 + col], RUN[((wall_t >> (5 * col)) & 31) * 5 + row]
    )


def wall_points(wall: int, row: int, column: int) -> int:
    """Points a tile would score at (row, column) of `wall` (which need not hold it yet), for
    callers without the transposed wall: bots evaluating moves."""
    wall |= 1 << (5 * row + column)
    column_bits = sum(((wall >> (5 * r + column)) & 1) << r for r in range(5))
    return _points(RUN[((wall >> (5 * row)) & 31) * 5 + column], RUN[column_bits * 5 + row])


def transpose_bit(row: int, col: int) -> int:
    return 1 << (5 * col + row)


# --- legal-move groups -----------------------------------------------------------------------
# GROUPS[colour << 16 | sources << 6 | destinations]: the legal take moves of one colour, given
# which sources hold it and which destinations accept it. There are at most 5 * 1024 * 64 groups;
# each is built the first time it is met (build_group) and kept in a flat list (an index is
# cheaper than a dict lookup), so listing the legal moves is five lookups.
FIELD: Final = 1023  # the source bits of one colour's field in `sources`
GROUPS: Final[list[tuple[Move, ...] | None]] = [None] * (N_COLOURS << 16)


def build_group(key: int) -> tuple[Move, ...]:
    """Build, keep and return GROUPS[key] (see above)."""
    colour, sources, destinations = key >> 16, (key >> 6) & FIELD, key & 63
    group = tuple(
        TAKE_MOVES[(s * N_COLOURS + colour) * 6 + d]
        for s in range(CENTRE + 1)
        if sources >> s & 1
        for d in range(6)
        if destinations >> d & 1
    )
    GROUPS[key] = group
    return group
