"""Precomputed tables for the Summer Pavilion engine: the integer tricks live here, once.

Encodings used by `game.py`:
- a tile multiset (hand, kept tiles, centre, bag, depot) packs 8 bits of count per colour
  (colour c at bit 8*c; 48 bits, a machine int when compiled);
- a factory is an 18-bit int, 3 bits of count per colour (it never holds more than 4 tiles);
- a board is a 42-bit mask of the covered spaces, bit 6*star + space (star 0 = the centre star,
  space 0-5 = spaces 1-6); the tile on each space is kept per star as 3 bits per space
  (colour + 1), and which colours a star holds as a 6-bit mask;
- move groups: tuples of shared move objects, looked up by small ints (see below).
"""

from __future__ import annotations

from typing import Final

from referee.engine.errors import EngineError
from referee.engine.pavilion.moves import (
    BONUS_MOVES,
    CENTRE,
    COLOUR_LETTERS,
    MAX_KEPT,
    N_COLOURS,
    N_SOURCES,
    PASS_BY_KEEP,
    PLACE_MOVES,
    TAKE_MOVES,
    PavilionMove,
)

# The phases this family adds to those of `Game` (take, over).
PLAY: Final = "play"  # placement: place one tile or pass
BONUS: Final = "bonus"  # the seat to move takes bonus tiles from the supply, one per decision

TILES_PER_COLOUR: Final = 22
TILES_PER_FACTORY: Final = 4
SUPPLY_SPACES: Final = 10
ROUNDS: Final = 6
START_SCORE: Final = 5
STANDARD_WILD_ORDER: Final = "PGOYBR"

# The colour of each star on the coloured side: star 0 (the centre) takes any colour, then
# 1 purple, 2 orange, 3 red, 4 blue, 5 yellow, 6 green (RULES.md).
STAR_COLOURS: Final = (-1, 0, 2, 5, 4, 3, 1)
# End bonus for a full star, by its colour (purple 20 ... red 14), and for a multicoloured one.
COLOUR_STAR_BONUS: Final = (20, 18, 17, 16, 15, 14)
MULTICOLOUR_STAR_BONUS: Final = 12
# End bonus for covering every space numbered 1, 2, 3, 4.
NUMBER_BONUS: Final = {1: 4, 2: 8, 3: 12, 4: 16}
WINDOW_TILES, STATUE_TILES, PILLAR_TILES = 3, 2, 1

ALL_COLOURS: Final = (1 << N_COLOURS) - 1
ONE3: Final = tuple(1 << (3 * c) for c in range(N_COLOURS))  # one tile of colour c in a factory


def cell(star: int, space: int) -> int:
    """The board bit of `space` (0-5) on `star` (0-6)."""
    return 1 << (6 * star + space)


def _structures() -> list[tuple[str, int, int]]:
    """Every window, statue and pillar: (name, the board bits it needs, bonus tiles)."""
    out = []
    for n in range(1, 7):
        out.append((f"window of star {n}", cell(n, 4) | cell(n, 5), WINDOW_TILES))
    for n in range(1, 7):
        after = n % 6 + 1  # star 6 is followed by star 1
        out.append(
            (
                f"statue of stars {n}-{after}",
                cell(n, 0) | cell(n, 1) | cell(after, 2) | cell(after, 3),
                STATUE_TILES,
            )
        )
    for n in range(1, 7):
        out.append(
            (
                f"pillar of star {n}",
                cell(n, 1) | cell(n, 2) | cell(0, (n + 3) % 6) | cell(0, (n + 4) % 6),
                PILLAR_TILES,
            )
        )
    return out


STRUCTURES: Final = _structures()
# STRUCTURES_AT[6*star + space]: the (bits, tiles) of the structures that space belongs to.
STRUCTURES_AT: Final = tuple(
    tuple((bits, tiles) for _, bits, tiles in STRUCTURES if bits >> i & 1) for i in range(42)
)


def _ring_run(bits: int, i: int) -> int:
    """Length of the run of set bits through bit i on a ring of 6 (space 6 is next to space 1)."""
    if bits == 63:
        return 6
    n = 1
    j = (i - 1) % 6
    while bits >> j & 1:
        n, j = n + 1, (j - 1) % 6
    j = (i + 1) % 6
    while bits >> j & 1:
        n, j = n + 1, (j + 1) % 6
    return n


# RUN[star_bits * 6 + space]: points for the tile just placed on `space` of a star whose covered
# spaces are `star_bits` (the new tile included): 1 + its connected neighbours on the ring.
RUN: Final = tuple(_ring_run(b, i) if b >> i & 1 else 0 for b in range(64) for i in range(6))
POPCOUNT6: Final = tuple(bin(b).count("1") for b in range(64))


def number_masks(space_numbers: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """(board bits of every space numbered k, bonus) for k = 1-4, for a side's numbers."""
    out = []
    for k, bonus in NUMBER_BONUS.items():
        bits = 0
        for star in range(7):
            for space in range(6):
                if space_numbers[star][space] == k:
                    bits |= cell(star, space)
        out.append((bits, bonus))
    return tuple(out)


# --- take moves ------------------------------------------------------------------------------
# TAKE_GROUPS[(source * 6 + wild) * 64 + colours]: the legal take moves from a source holding
# `colours` (6-bit mask) when `wild` is the wild colour: one per non-wild colour there, or the
# single wild tile when the source holds only wild tiles.
def _take_group(source: int, wild: int, colours: int) -> tuple[PavilionMove, ...]:
    if not colours:
        return ()
    if colours == 1 << wild:
        return (TAKE_MOVES[source * N_COLOURS + wild],)
    return tuple(
        TAKE_MOVES[source * N_COLOURS + c]
        for c in range(N_COLOURS)
        if c != wild and colours >> c & 1
    )


TAKE_GROUPS: Final = tuple(
    _take_group(s, w, m) for s in range(N_SOURCES) for w in range(N_COLOURS) for m in range(64)
)
CENTRE_SOURCE: Final = CENTRE


def colours_of_factory(code: int) -> int:
    """The 6-bit colour mask of a factory code."""
    mask = 0
    for c in range(N_COLOURS):
        if (code >> (3 * c)) & 7:
            mask |= 1 << c
    return mask


def colours_of_packed(packed: int) -> int:
    """The 6-bit colour mask of a packed multiset."""
    mask = 0
    for c in range(N_COLOURS):
        if (packed >> (8 * c)) & 255:
            mask |= 1 << c
    return mask


# --- placements ------------------------------------------------------------------------------
# PLACE_GROUPS[side][key], key = (((star * 6 + colour) * 64 + empty) * 7 + have) * 7 + wild:
# the placements of `colour` on the `empty` spaces of `star` for a player holding `have` tiles of
# that colour (capped at 6) and `wild` wild tiles (capped at 5; 6 when `colour` is the wild
# colour itself, which then pays for its own space alone). Built the first time each is met.
PLACE_KEYS: Final = 7 * 6 * 64 * 7 * 7


def build_place_group(numbers: tuple[tuple[int, ...], ...], key: int) -> tuple[PavilionMove, ...]:
    rest, wild = divmod(key, 7)
    rest, have = divmod(rest, 7)
    rest, empty = divmod(rest, 64)
    star, colour = divmod(rest, 6)
    out = []
    for space in range(6):
        if not empty >> space & 1:
            continue
        cost = numbers[star][space]
        base = ((star * 6 + space) * N_COLOURS + colour) * 6
        if wild == 6:
            if have >= cost:
                out.append(PLACE_MOVES[base])
            continue
        # At least one tile of the colour; wild tiles pay the rest (any number up to cost - 1).
        for w in range(max(0, cost - have), min(cost - 1, wild) + 1):
            out.append(PLACE_MOVES[base + w])
    return tuple(out)


# --- passes and bonus tiles --------------------------------------------------------------------
def _capped_key(hand: int) -> int:
    key = 0
    for c in range(N_COLOURS - 1, -1, -1):
        key = key * 5 + min(MAX_KEPT, (hand >> (8 * c)) & 255)
    return key


def build_pass_group(capped: int) -> tuple[PavilionMove, ...]:
    """The passes open to a hand whose counts, capped at 4, are the base-5 digits of `capped`
    (colour 0 the lowest): every choice of at most 4 of its tiles to keep."""
    counts = []
    for _ in range(N_COLOURS):
        capped, digit = divmod(capped, 5)
        counts.append(digit)
    return tuple(
        m
        for keep, m in PASS_BY_KEEP.items()
        if all((keep >> (8 * c)) & 255 <= counts[c] for c in range(N_COLOURS))
    )


def pass_key(hand: int) -> int:
    """The PASS_GROUPS index of a hand (packed counts)."""
    return _capped_key(hand)


PASS_KEYS: Final = 5**N_COLOURS
BONUS_GROUPS: Final = tuple(
    tuple(BONUS_MOVES[c] for c in range(N_COLOURS) if m >> c & 1) for m in range(64)
)


def check_wild_order(wild_order: object) -> str:
    """The wild order as six letters, each colour once; EngineError says what is wrong."""
    if not isinstance(wild_order, str):
        raise EngineError("wild_order: six letters, each of P G O Y B R once (e.g. 'PGOYBR')")
    order = wild_order.strip().upper()
    if len(order) != N_COLOURS or sorted(order) != sorted(COLOUR_LETTERS):
        raise EngineError(
            f"wild_order {wild_order!r}: six letters, each of P G O Y B R once "
            "(the wild colour of rounds 1-6), e.g. 'PGOYBR'"
        )
    return order
