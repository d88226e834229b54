"""A learned value of a Summer Pavilion board at a round's end: the points a seat will still
score before the game ends (placements, bonus tiles' use, the end bonuses), fitted on self-play
games, as `learned.py` does for classic Azul.

A board at a round's end is the next round's start: its stars, the tiles kept (the next round's
hand), whether the seat holds the start-player token. What is certain is counted as such (the
bonuses of full stars and of numbers covered on all seven stars: nothing can undo them); the
rest is `features` times weights fitted per number of rounds still to play (a star four tiles
from done is worth its bonus in part with five rounds to play, nothing with one). The weights
(`bots/expert/pavilion_weights.py`) come from `python -m bots.expert.fit --ruleset pavilion`
(least squares of the seat's final score, less its score and certain bonuses at a round's
start, over games of `mcts` against itself); the bot reads only the constants, no numpy.

A seat's share of the tiles, and so its future, differs with the players: the weights are a
table per number of players, each fitted on games of that many (`fit --players N`). The expert
uses it where a table is shipped, 2 and 4 players (`values.leaf_values`); with 3 it keeps
mcts's leaf (a 3-player table was fitted and did worse, docs/notes/more-players.md). The
expert's leaves are mid-round positions: each seat's hand is first played onto its stars and
passed by mcts's projection (`sdk.pavilion.place_and_pass`), the board it leaves valued here.
After the last round nothing is left to learn: the end bonuses as they stand, less a point a
kept tile.
"""

from __future__ import annotations

from typing import Any

from bots.expert.pavilion_fields import is_pavilion_engine, projected_value, seat_value
from bots.expert.pavilion_weights import WEIGHTS
from referee.engine.pavilion import PavilionGame
from sdk.pavilion import (
    NUMBER_BONUS,
    ROUNDS,
    STRUCTURES,
    TILE,
    WILD_TILE,
    allowed_colours,
    place_and_pass,
    project_board,
    run_beside,
    star_bonus,
)

NAMES = (
    "bias",
    "stars_5",  # stars with 5 of 6 spaces filled, each by its full-star bonus / 16
    "stars_4",
    "stars_3",
    "stars_2",
    "stars_1",
    "numbers_6",  # a number covered on 6 of 7 stars, by its bonus / 10
    "numbers_5",
    "numbers_4",
    "numbers_3",
    "empty",  # empty spaces: room for the placements still to come
    "run_points",  # what a tile on each empty space would score now (its ring run)
    "near_tiles",  # bonus tiles of windows, statues and pillars one space from done
    "hand_wild",  # tiles kept of the next round's wild colour
    "hand_room",  # kept tiles of a colour with room left on the stars
    "hand_dead",  # kept tiles of a colour with none
    "starts",  # holds the start-player token: takes and places first next round
)
BUCKETS = ROUNDS - 1  # rounds still to play after the board's: 1 to 5


def certain_bonus(ruleset: str, stars: list[str]) -> float:
    """The end bonuses the stars have earned already: full stars and numbers covered on all
    seven (`referee.engine.pavilion`'s end_bonus, on the public state's letters)."""
    state = {"ruleset": ruleset}
    bonus = sum(star_bonus(state, i, star) for i, star in enumerate(stars) if "." not in star)
    for number, points in enumerate(NUMBER_BONUS):
        if all(star[number] != "." for star in stars):
            bonus += points
    return float(bonus)


def features(ruleset: str, stars: list[str], hand: str, wild: str, starts: bool) -> list[float]:
    """One seat's board at a round's start (`hand`: the tiles it kept, `wild`: this round's
    wild colour), as `NAMES` lists them."""
    out = [1.0] + [0.0] * (len(NAMES) - 1)
    state = {"ruleset": ruleset}
    room: set[str] = set()
    for index, star in enumerate(stars):
        empty = star.count(".")
        if empty == 0:
            continue
        if empty < 6:
            out[empty] += star_bonus(state, index, star) / 16
        out[10] += empty
        out[11] += sum(1 + run_beside(star, k) for k in range(6) if star[k] == ".")
        room.update(allowed_colours(state, index, star))
    for number, points in enumerate(NUMBER_BONUS):
        covered = sum(1 for star in stars if star[number] != ".")
        if 3 <= covered < 7:
            out[12 - covered] += points / 10
    for spaces, tiles in STRUCTURES:
        if sum(1 for star, space in spaces if stars[star][space] == ".") == 1:
            out[12] += tiles
    for tile in hand:
        out[13 if tile == wild else 14 if tile in room else 15] += 1.0
    out[16] = 1.0 if starts else 0.0
    return out


def future_points(
    ruleset: str,
    stars: list[str],
    hand: str,
    wild: str,
    starts: bool,
    rounds: int,
    players: int = 2,
) -> float:
    """The points the seat will still score with `rounds` rounds to play (1-5) in a game of
    `players` (a table of weights each), the certain bonuses included."""
    weights = WEIGHTS[players][min(rounds, BUCKETS) - 1]
    feats = features(ruleset, stars, hand, wild, starts)
    return certain_bonus(ruleset, stars) + sum(w * f for w, f in zip(weights, feats, strict=True))


# Seat values by everything they depend on: the other seats' moves leave a board as it is, so a
# search meets the same board at many leaves.
_VALUES: dict[tuple[Any, ...], float] = {}


def board_value(state: dict[str, Any], seat: int) -> float:
    """Seat `seat`'s value in a pavilion state dict: its hand placed and passed
    (`place_and_pass`), the board it leaves valued by the learned future; the tiles still held
    while the taking goes on at their worth in hand (as `sdk.pavilion.evaluate_board`)."""
    board = state["boards"][seat]
    if state["phase"] == "over":
        return float(board["score"])
    key = (
        state["ruleset"],
        len(state["boards"]),  # the players: a table of weights each
        state["wild_order"],
        state["round"],
        state["phase"],
        board["score"],
        board["tiles"],
        board["kept"],
        board["has_marker"],
        *board["stars"],
    )
    value = _VALUES.get(key)
    if value is None:
        value = _board_value(state, seat)
        if len(_VALUES) > 200_000:
            _VALUES.clear()
        _VALUES[key] = value
    return value


def _board_value(state: dict[str, Any], seat: int) -> float:
    score, stars, held, kept = place_and_pass(state, seat, next_round=True)
    wild = state["wild"]
    value = float(score) + sum(WILD_TILE if t == wild else TILE for t in held)
    round_no = state["round"]
    if round_no >= ROUNDS:  # the game's end: what the stars have earned, a point a kept tile
        return value + certain_bonus(state["ruleset"], stars) - len(kept)
    starts = bool(state["boards"][seat]["has_marker"])
    next_wild = state["wild_order"][round_no]
    players = len(state["boards"])
    return value + future_points(
        state["ruleset"], stars, kept, next_wild, starts, ROUNDS - round_no, players
    )


# `leaf_values`' seat values by the engine's fields for that seat.
_FIELD_VALUES: dict[tuple[Any, ...], float] = {}


def leaf_values(game: Any, learned: bool = True) -> list[float]:
    """Every seat's `board_value` in a pavilion game (`learned=False`, or no weights shipped for
    its number of players: mcts's projection, `sdk.pavilion.project_board(next_round=True)`);
    in the engine's game computed from its fields (`pavilion_fields`: the same numbers without
    building the public state)."""
    learned = learned and game.players in WEIGHTS
    if not is_pavilion_engine(game):
        public = game.to_state()
        if not learned:
            return [project_board(public, seat, True) for seat in range(len(public["boards"]))]
        return [board_value(public, seat) for seat in range(len(public["boards"]))]
    engine: PavilionGame = game
    values = []
    for seat in range(engine.players):
        key = (
            learned,
            engine.ruleset.name,
            engine.players,
            engine.wild_order,
            engine.round,
            engine.phase,
            engine._scores[seat],
            engine._hands[seat],
            engine._kept[seat],
            engine._marker_holder == seat,
            *engine._star_cells[7 * seat : 7 * seat + 7],
        )
        value = _FIELD_VALUES.get(key)
        if value is None:
            value = seat_value(engine, seat) if learned else projected_value(engine, seat)
            if len(_FIELD_VALUES) > 200_000:
                _FIELD_VALUES.clear()
            _FIELD_VALUES[key] = value
        values.append(value)
    return values
