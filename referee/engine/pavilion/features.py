"""A Summer Pavilion position as the numbers a learning agent reads: sdk.rl's observation.

552 floats in fixed blocks (LAYOUT; sdk/rl/encoding/pavilion.py says what each means), seen
from one seat, written into a zeroed vec of floats from the engine's compact fields; compiled
with the engine for the reasons given in referee/engine/classic/features.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from librt.vecs import vec

from referee.engine.features import write_factories, write_packed
from referee.engine.game import OVER
from referee.engine.pavilion.game import PavilionGame
from referee.engine.pavilion.tables import BONUS, PLAY

if TYPE_CHECKING:  # machine-int indexes for mypyc (referee/engine/features.py)
    from mypy_extensions import i64, u8

MAX_SEATS: Final = 4
# The blocks of the observation in order: name and number of floats.
LAYOUT: Final = (
    ("factories", 54),
    ("centre", 6),
    ("marker_in_centre", 1),
    ("supply", 60),
    ("bag", 6),
    ("depot", 6),
    ("round", 1),
    ("players", 3),
    ("phase", 4),
    ("wild", 6),
    ("bonus_owed", 1),
    ("to_move", 4),
    ("marker_holder", 4),
    ("present", 4),
    ("scores", 4),
    ("passed", 4),
    ("hand", 24),
    ("kept", 24),
    ("stars", 168),
    ("star_colours", 168),
)
SIZE: Final = 552
FACTORIES: Final = 0
CENTRE: Final = 54
MARKER_IN_CENTRE: Final = 60
SUPPLY: Final = 61
BAG: Final = 121
DEPOT: Final = 127
ROUND: Final = 133
PLAYERS: Final = 134
PHASE: Final = 137
WILD: Final = 141
BONUS_OWED: Final = 147
TO_MOVE: Final = 148
MARKER_HOLDER: Final = 152
PRESENT: Final = 156
SCORES: Final = 160
PASSED: Final = 164
HAND: Final = 168
KEPT: Final = 192
STARS: Final = 216
STAR_COLOURS: Final = 384


def write_features(game: PavilionGame, seat: int, out: vec[float], at: i64) -> None:
    """The position seen from `seat` into out[at : at + SIZE], which must be zeros."""
    p = game.players
    write_factories(out, at + FACTORIES, game._factories, 6)
    write_packed(out, at + CENTRE, game._centre, 22)
    if game._marker_in_centre:
        out[at + MARKER_IN_CENTRE] = 1.0
    supply = game._supply
    for i in range(len(supply)):
        colour = supply[i]
        if colour >= 0:
            out[at + SUPPLY + 6 * i + colour] = 1.0
    write_packed(out, at + BAG, game._bag, 22)
    write_packed(out, at + DEPOT, game._depot, 22)
    out[at + ROUND] = game.round / 6
    out[at + PLAYERS + p - 2] = 1.0
    phase = game.phase
    if phase == OVER:
        out[at + PHASE + 3] = 1.0
    else:
        out[at + PHASE + (1 if phase == PLAY else 2 if phase == BONUS else 0)] = 1.0
        out[at + TO_MOVE + (game.turn - seat) % p] = 1.0
    if game.wild >= 0:
        out[at + WILD + game.wild] = 1.0
    if game.bonus_owed:
        out[at + BONUS_OWED] = game.bonus_owed / 4
    marker = game._marker_holder
    if marker >= 0:
        out[at + MARKER_HOLDER + (marker - seat) % p] = 1.0
    for r in range(p):
        _write_seat(game, (seat + r) % p, out, at, r)


def _write_seat(game: PavilionGame, s: int, out: vec[float], at: i64, r: i64) -> None:
    """Seat `s`'s blocks, at place `r` (0 = the seat observing)."""
    out[at + PRESENT + r] = 1.0
    score = game._scores[s]
    if score:
        out[at + SCORES + r] = score / 100
    if game._passed >> s & 1:
        out[at + PASSED + r] = 1.0
    write_packed(out, at + HAND + 6 * r, game._hands[s], 22)
    write_packed(out, at + KEPT + 6 * r, game._kept[s], 4)
    cells = game._star_cells
    for star in range(7):
        spaces = cells[7 * s + star]
        covered = at + STARS + 42 * r + 6 * star
        colours = at + STAR_COLOURS + 42 * r + 6 * star - 1
        while spaces:  # 3 bits per space: the colour of its tile + 1, 0 where empty
            tile = spaces & 7
            if tile:
                out[covered] = 1.0
                out[colours + tile] = 1.0
            spaces >>= 3
            covered += 1


def mark_legal(game: PavilionGame, out: vec[u8], at: i64) -> None:
    """1 at out[at + move.index] for each legal move (the action mask of sdk.rl)."""
    for move in game.legal_moves():
        out[at + move.index] = 1


def write_batch(games: list[PavilionGame], seats: list[int], out: vec[float], size: i64) -> None:
    """Game i's observation from seats[i] into out[i * size : (i + 1) * size] (zeros): the
    vectorised environment's loop, compiled."""
    at: i64 = 0
    for i in range(len(games)):
        write_features(games[i], seats[i], out, at)
        at += size


def mark_batch(games: list[PavilionGame], out: vec[u8], width: i64) -> None:
    """Game i's action mask into out[i * width : (i + 1) * width] (zeros)."""
    at: i64 = 0
    for game in games:
        mark_legal(game, out, at)
        at += width
