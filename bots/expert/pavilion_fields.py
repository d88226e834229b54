"""The expert's Summer Pavilion search read from the engine's fields: `sdk.pavilion.move_gains`
(the ranking of a node's moves), `pavilion_value.board_value` (a leaf's learned value, with
2 or 4 players) and `sdk.pavilion.project_board` (mcts's leaf, the expert's with 3), the same
numbers to the last bit, without building the public state, a dict of strings, at every node.

Through the public state these were nearly all of a simulation's time: every leaf of the
placement's tree is a board not met before, and its hand's projection (placed and passed) ran
over letters. Here a seat's stars are the engine's bits: `filled` 6 bits a star (42 in all), a
star's colours 6 bits (one per colour present), a hand a count per colour. The readable
definitions stay `sdk.pavilion` and `pavilion_value` (mcts and the fit use them);
`tests/bots/test_expert_pavilion.py` checks these agree with them over whole games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.expert.pavilion_weights import WEIGHTS
from referee.engine import packed_total
from referee.engine.pavilion import (
    ALL_COLOURS,
    BONUS_MOVE,
    CENTRE,
    COLOUR_STAR_BONUS,
    PASS_MOVE,
    PLACE_MOVE,
    POPCOUNT6,
    RUN,
    STAR_COLOURS,
    STRUCTURES_AT,
    TAKE_MOVE,
    PavilionGame,
    PavilionMove,
)
from sdk.pavilion import (
    DEAD_KEPT,
    KEPT,
    MAX_KEPT,
    NEAR_STRUCTURE,
    NEXT_WILD_KEPT,
    NUMBER_BONUS,
    PROGRESS,
    ROUNDS,
    STAR_BONUS,
    START_TOKEN,
    TILE,
    WILD_TILE,
)
from sdk.pavilion import STRUCTURES as SDK_STRUCTURES

COLOURS = 6
STARS = 7
BUCKETS = ROUNDS - 1
# sdk.pavilion's structures as board bits, in its order (the order its sums are made in).
STRUCTURES = tuple(
    (sum(1 << (6 * star + space) for star, space in spaces), tiles)
    for spaces, tiles in SDK_STRUCTURES
)
# The board bits of space k (0-3) on all seven stars, for the numbers covered.
SPACE_BITS = tuple(sum(1 << (6 * star + k) for star in range(STARS)) for k in range(4))


def is_pavilion_engine(game: Any) -> bool:
    """Whether `game` is the engine's PavilionGame, whose fields these read."""
    return isinstance(game, PavilionGame)


# ---------------------------------------------------------------------- the moves' ranking
def full_passes(game: PavilionGame, moves: list[PavilionMove]) -> list[PavilionMove]:
    """`moves` less the passes that keep fewer tiles than they could (at most 4), where every
    discard costs its point (the score is at least the tiles held: none is lost to the floor
    of 0). A kept tile can still be placed next round, or dropped then for at most the point
    its discard costs now (after the last round it costs that point), so keeping fewer is
    never better there."""
    seat = game.turn
    held = packed_total(game._hands[seat])
    if game._scores[seat] < held:
        return moves
    most = min(MAX_KEPT, held)
    return [m for m in moves if m.kind != PASS_MOVE or m.n_keep == most]


def move_gains(game: PavilionGame, moves: Sequence[PavilionMove]) -> list[float]:
    """`sdk.pavilion.move_gains(game.to_state(), moves)`, from the engine's fields."""
    seat: int = game.turn
    wild: int = game.wild
    score: int = game._scores[seat]
    filled: int = game._filled[seat]
    numbers = game._numbers
    held = packed_total(game._hands[seat])
    worth: list[float] | None = None  # a pass's kept tiles by colour, when a pass is met
    gains = []
    for move in moves:
        kind = move.kind
        if kind == TAKE_MOVE:
            colour, source = move.colour, move.source
            if source == CENTRE:
                tiles, bits, mask = game._centre, 8, 255
            else:
                tiles, bits, mask = game._factories[source], 3, 7
            if colour == wild:
                n, wilds = 0, 1
            else:
                n = (tiles >> (bits * colour)) & mask
                wilds = int((tiles >> (bits * wild)) & mask > 0)
            gain = TILE * n + WILD_TILE * wilds
            if source == CENTRE and game._marker_in_centre:
                gain -= min(score, n + wilds) - 0.5  # the start token's loss, and its use
            gains.append(gain)
        elif kind == PLACE_MOVE:
            star, space, paid = move.star, move.space, move.wilds
            cells = (filled >> (6 * star)) & 63
            cost: int = numbers[star][space]
            run = RUN[(cells | 1 << space) * 6 + space] - 1  # the ring run the tile joins
            gain = 1.0 + run - TILE * (cost - paid) - WILD_TILE * paid
            done = POPCOUNT6[cells]
            gain += PROGRESS * STAR_BONUS[star] * ((done + 1) ** 2 - done**2) / 36
            if space < 4:
                done = (filled & SPACE_BITS[space]).bit_count()
                gain += PROGRESS * NUMBER_BONUS[space] * ((done + 1) ** 2 - done**2) / 49
            gains.append(gain)
        elif kind == PASS_MOVE:
            if worth is None:
                worth = _next_round_worth(game, game._allowed[7 * seat : 7 * seat + 7])
            keep = move.keep
            kept = 0.0
            for c in range(COLOURS):
                kept += worth[c] * ((keep >> (8 * c)) & 255)
            gains.append(-min(score, held - move.n_keep) - TILE * held + kept)
        else:
            assert kind == BONUS_MOVE
            gains.append(WILD_TILE if move.colour == wild else TILE)
    return gains


def _next_round_worth(game: PavilionGame, allowed: list[int]) -> list[float]:
    """`sdk.pavilion.next_round_values` by colour: a kept tile of the next round's wild colour,
    of a colour some star (`allowed`: the colours each takes) still takes, of one none does;
    after the last round each costs a point."""
    if game.round >= ROUNDS:
        return [-1.0] * COLOURS
    room = 0
    for colours in allowed:
        room |= colours
    worth = [KEPT if room >> c & 1 else DEAD_KEPT for c in range(COLOURS)]
    worth[game._wilds[game.round]] = NEXT_WILD_KEPT
    return worth


# ---------------------------------------------------------------------- the leaves' value
class Stars:
    """One seat's stars during the projection: the engine's `filled` bits and each star's
    colours present, with the rule of what a star still takes."""

    __slots__ = ("colours", "filled", "mono")

    def __init__(self, filled: int, colours: list[int], mono: bool) -> None:
        self.filled, self.colours, self.mono = filled, colours, mono

    def cells(self, star: int) -> int:
        return (self.filled >> (6 * star)) & 63

    def allowed(self, star: int) -> int:
        """The engine's `_star_allowed`: the colours star `star` still takes (0 when full)."""
        cells = self.cells(star)
        if cells == 63:
            return 0
        colours = self.colours[star]
        if not self.mono:
            return 1 << STAR_COLOURS[star] if star else ALL_COLOURS & ~colours
        if POPCOUNT6[cells] <= 1:
            return ALL_COLOURS
        return colours if POPCOUNT6[colours] == 1 else ALL_COLOURS & ~colours

    def room(self) -> int:
        """The colours some star still takes."""
        room = 0
        for star in range(STARS):
            room |= self.allowed(star)
        return room

    def bonus(self, star: int) -> float:
        """`sdk.pavilion.star_bonus`: the full-star bonus star `star` would pay."""
        if not self.mono or star == 0:
            return float(STAR_BONUS[star])
        colours = self.colours[star]
        distinct = POPCOUNT6[colours]
        if distinct == 1:
            return float(COLOUR_STAR_BONUS[colours.bit_length() - 1])
        if distinct > 1:
            return float(STAR_BONUS[0]) if distinct == POPCOUNT6[self.cells(star)] else 0.0
        return 15.0  # colour not settled yet: about the mean

    def place(self, star: int, space: int, colour: int) -> None:
        self.filled |= 1 << (6 * star + space)
        self.colours[star] |= 1 << colour


class Projection:
    """`sdk.pavilion.place_and_pass(state, seat, next_round=True)` of one seat: its hand played
    onto its stars and passed, as the board that leaves."""

    __slots__ = ("held", "kept", "kept_before", "kept_order", "score", "stars", "worth")

    def __init__(self, game: PavilionGame, seat: int) -> None:
        stars = Stars(game._filled[seat], game._star_colours[7 * seat : 7 * seat + 7], game._mono)
        counts = [(game._hands[seat] >> (8 * c)) & 255 for c in range(COLOURS)]
        wild = game.wild
        score = _place_greedily(stars, counts, game._scores[seat], wild, game._numbers)
        held = [0] * COLOURS
        if game.phase == "take":
            # While the taking goes on, tiles of a colour with room (or wild) stay in hand;
            # only the dead ones are passed.
            room = stars.room() | 1 << wild
            for c in range(COLOURS):
                if room >> c & 1:
                    held[c], counts[c] = counts[c], 0
        self.worth = _next_round_worth(game, [stars.allowed(star) for star in range(STARS)])
        self.kept_before = [(game._kept[seat] >> (8 * c)) & 255 for c in range(COLOURS)]
        self.kept = self.kept_before[:]
        # Pass: keep four, the best by what they buy next round (a stable sort of the tiles in
        # colour order: equal worths keep that order), drop the rest.
        self.kept_order: list[tuple[int, int]] = []  # (colour, tiles) newly kept, in order
        left, room_kept = 0, MAX_KEPT
        for c in sorted(range(COLOURS), key=lambda c: -self.worth[c]):
            n = min(counts[c], room_kept)
            if n:
                self.kept[c] += n
                self.kept_order.append((c, n))
                room_kept -= n
            left += counts[c]
        self.score = max(0, score - max(0, left - MAX_KEPT))
        self.stars, self.held = stars, held


def seat_value(game: PavilionGame, seat: int) -> float:
    """`pavilion_value.board_value(game.to_state(), seat)` from the engine's fields."""
    if game.phase == "over":
        return float(game._scores[seat])
    board = Projection(game, seat)
    stars, kept, wild = board.stars, board.kept, game.wild
    in_hand = 0.0
    for c in range(COLOURS):
        for _ in range(board.held[c]):
            in_hand += WILD_TILE if c == wild else TILE
    value = float(board.score) + in_hand
    certain = _certain_bonus(stars)
    round_no = game.round
    if round_no >= ROUNDS:  # the game's end: what the stars have earned, a point a kept tile
        return value + certain - sum(kept)
    starts = seat == game._marker_holder
    feats = _features(stars, kept, game._wilds[round_no], starts)
    weights = WEIGHTS[game.players][min(ROUNDS - round_no, BUCKETS) - 1]
    future = 0.0
    for w, f in zip(weights, feats, strict=True):
        future += w * f
    return value + (certain + future)


def projected_value(game: PavilionGame, seat: int) -> float:
    """`sdk.pavilion.project_board(game.to_state(), seat, next_round=True)` (mcts's leaf, the
    expert's where no learned weights are shipped: 3 players) from the engine's fields:
    `evaluate_board` of the projected board, its kept tiles by what they buy next round, the
    start-player token credited."""
    score = game._scores[seat]
    if game.phase == "over":
        return float(score)
    board = Projection(game, seat)
    stars, wild, round_no = board.stars, game.wild, game.round
    value = float(board.score)
    progress = 0.0
    for star in range(STARS):
        filled = POPCOUNT6[stars.cells(star)]
        if filled:
            progress += stars.bonus(star) * (filled / 6) ** 2
    for k in range(4):
        progress += NUMBER_BONUS[k] * ((stars.filled & SPACE_BITS[k]).bit_count() / 7) ** 2
    value += PROGRESS * progress
    for bits, tiles in STRUCTURES:
        if (bits & ~stars.filled).bit_count() == 1:
            value += NEAR_STRUCTURE * tiles
    wilds = board.held[wild]
    value += TILE * (sum(board.held) - wilds) + WILD_TILE * wilds
    kept = sum(board.kept)
    value += (-1.0 if round_no >= ROUNDS else KEPT) * kept
    if round_no < ROUNDS:
        # The kept tiles by what they buy next round instead of KEPT each, summed in the
        # order they are kept (the kept before, in colour order, then the new ones).
        worth, total = board.worth, 0.0
        for c in range(COLOURS):
            for _ in range(board.kept_before[c]):
                total += worth[c]
        for c, n in board.kept_order:
            for _ in range(n):
                total += worth[c]
        value += total - KEPT * kept
        if seat == game._marker_holder:
            value += START_TOKEN
    return value


def _place_greedily(
    stars: Stars, counts: list[int], score: int, wild: int, numbers: tuple[tuple[int, ...], ...]
) -> int:
    """`sdk.pavilion.place_and_pass`'s placements: while some placement gains, the one that
    gains most (the first found of equals), played on `stars` and `counts`; the score after."""
    while True:
        wilds = counts[wild]
        best_gain = 0.0
        best = (-1, 0, 0, 0, 0)  # (star, space, colour, own tiles, wild tiles)
        number_gain = [
            PROGRESS * NUMBER_BONUS[k] * (2 * (stars.filled & SPACE_BITS[k]).bit_count() + 1) / 49
            for k in range(4)
        ]
        for star in range(STARS):
            cells = stars.cells(star)
            if cells == 63:
                continue
            star_gain = PROGRESS * stars.bonus(star) * (2 * POPCOUNT6[cells] + 1) / 36
            allowed = stars.allowed(star)
            spaces: list[tuple[int, int, float]] | None = None
            for colour in range(COLOURS):
                have = counts[colour]
                if not have or not allowed >> colour & 1:
                    continue
                if spaces is None:
                    spaces = _space_gains(stars, star, numbers[star], star_gain, number_gain)
                can_pay = have + (colour != wild) * wilds
                for space, cost, gain in spaces:
                    if can_pay < cost:
                        continue
                    own = min(have, cost) if colour != wild else 0
                    paid = cost - own
                    gain -= TILE * own + WILD_TILE * paid
                    if gain > best_gain:
                        best, best_gain = (star, space, colour, own, paid), gain
        star, space, colour, own, paid = best
        if star < 0:
            return score
        score += RUN[(stars.cells(star) | 1 << space) * 6 + space]
        counts[colour] -= own
        counts[wild] -= paid
        stars.place(star, space, colour)


def _space_gains(
    stars: Stars, star: int, costs: tuple[int, ...], star_gain: float, number_gain: list[float]
) -> list[tuple[int, int, float]]:
    """`sdk.pavilion._space_gains`: each empty space's gain before the tiles it costs."""
    cells = stars.cells(star)
    out = []
    for space in range(6):
        if cells >> space & 1:
            continue
        gain = 1.0 + (RUN[(cells | 1 << space) * 6 + space] - 1) + star_gain
        if space < 4:
            gain += number_gain[space]
        at = 6 * star + space
        placed = stars.filled | 1 << at
        tiles = 0
        for bits, bonus in STRUCTURES_AT[at]:
            if placed & bits == bits:
                tiles += bonus
        gain += TILE * tiles
        out.append((space, costs[space], gain))
    return out


def _certain_bonus(stars: Stars) -> float:
    """`pavilion_value.certain_bonus`: full stars' bonuses and numbers on all seven stars."""
    bonus = 0.0
    for star in range(STARS):
        if stars.cells(star) == 63:
            bonus += stars.bonus(star)
    for k in range(4):
        if stars.filled & SPACE_BITS[k] == SPACE_BITS[k]:
            bonus += NUMBER_BONUS[k]
    return bonus


def _features(stars: Stars, kept: list[int], wild: int, starts: bool) -> list[float]:
    """`pavilion_value.features` of the projected board (`kept`: the tiles kept by colour,
    `wild`: the next round's wild colour)."""
    out = [1.0] + [0.0] * 16
    for star in range(STARS):
        cells = stars.cells(star)
        empty = 6 - POPCOUNT6[cells]
        if empty == 0:
            continue
        if empty < 6:
            out[empty] += stars.bonus(star) / 16
        out[10] += empty
        out[11] += sum(RUN[(cells | 1 << k) * 6 + k] for k in range(6) if not cells >> k & 1)
    for k in range(4):
        covered = (stars.filled & SPACE_BITS[k]).bit_count()
        if 3 <= covered < 7:
            out[12 - covered] += NUMBER_BONUS[k] / 10
    for bits, tiles in STRUCTURES:
        if (bits & ~stars.filled).bit_count() == 1:
            out[12] += tiles
    room = stars.room()
    for c in range(COLOURS):
        out[13 if c == wild else 14 if room >> c & 1 else 15] += float(kept[c])
    out[16] = 1.0 if starts else 0.0
    return out
