"""What the expert's searches know about moves and positions: which moves are worth looking at
(distinct, no useless floor dumps), in which order, and what a round's end is worth.

Classic Azul reads the engine's fields directly (as `sdk.helpers.boards` does): these run at
every node and leaf of a search, thousands of times a move.
"""

from __future__ import annotations

import math
from typing import Any

from bots.expert import pavilion_fields, pavilion_value
from bots.expert.learned import future_points, net_value
from bots.expert.learned import load_net as learned_load_net
from referee.engine.classic import COLOUR_BONUS, COLUMN_BONUS, ROW_BONUS
from referee.engine.classic import FLOOR_LOSS as FLOOR_PENALTY
from sdk.helpers import (
    COLUMN_MASKS,
    ROW_MASKS,
    Board,
    bonus_progress,
    colour_counts,
    end_bonus,
    evaluate_board,
    move_gains,
    relative_values,
    round_end_values,
    tile_full_lines,
)

FLOOR_LINE = 5  # a classic move's `line` when its tiles go straight to the floor
CENTRE = 9  # a classic move's `source` when it takes from the centre


def is_classic_engine(state: Any) -> bool:
    """Whether `state` is the engine's ClassicGame, whose fields the fast paths read."""
    return state.family == "classic" and hasattr(state, "_factories")


def candidate_moves(state: Any, keep_dumps: bool = False) -> list[Any]:
    """The legal moves worth searching. Classic Azul drops what can never be better than a
    move kept:
    - duplicates: two factories holding the same tiles give the same position whichever is
      taken (common at a round's start: 5-9 factories of 4 tiles of 5 colours);
    - on a gray wall, floor dumps of tiles that some pattern line accepts: the line keeps
      them and sends at most as many to the floor. The learned value of a coloured wall does
      not agree: a line started late in a round blocks its row for the next (self-play: about
      -3.6 points, `learned.NAMES`' lines_started), and a dump can be worth it; searched, they
      won 76% against mcts where pruned 60% (docs/notes/expert-rung.md). On a gray wall, its own
      learned value in use, searching them changed nothing (82% against 79.5% of 100 games), so
      they stay pruned there: fewer moves a node.
    Summer Pavilion: no pass that keeps fewer tiles than it could (`pavilion_fields.
    full_passes`: three passes in five); the rest of its pruning is the ranking's.
    `keep_dumps` drops only the duplicates (the game analysis, which must see every move that
    can be best)."""
    moves = list(state.legal_moves())
    if pavilion_fields.is_pavilion_engine(state) and state.phase == "play" and not keep_dumps:
        return pavilion_fields.full_passes(state, moves)
    if not is_classic_engine(state) or state.phase != "take":
        return moves
    factories = state._factories
    prune_dumps = (state._gray or not LEARNED) and not keep_dumps
    placeable = {(m.source, m.colour) for m in moves if m.line != FLOOR_LINE and prune_dumps}
    seen: set[tuple[int, int, int]] = set()
    out = []
    for move in moves:
        if move.line == FLOOR_LINE and (move.source, move.colour) in placeable:
            continue
        if move.source != CENTRE:
            key = (factories[move.source], move.colour, move.line)
            if key in seen:
                continue
            seen.add(key)
        out.append(move)
    return out or moves


def ranked_moves(state: Any, rng: Any) -> list[Any]:
    """`candidate_moves` from the least to the most promising (so `pop()` gives the best) by
    `sdk.helpers.move_gains`, the mover's immediate gain (in the Summer Pavilion engine read
    from its fields: `pavilion_fields`); ties broken by `rng`."""
    moves = candidate_moves(state)
    if pavilion_fields.is_pavilion_engine(state):
        gains = pavilion_fields.move_gains(state, moves)
    else:
        gains = move_gains(state, moves)
    order = sorted(range(len(moves)), key=gains.__getitem__)
    _shuffle_ties(order, gains, rng)
    return [moves[i] for i in order]


def _shuffle_ties(order: list[int], gains: list[float], rng: Any) -> None:
    """Put each run of equal gains in `order` in a random order (Fisher-Yates): a random key
    per move would cost a call and a tuple each, where most moves have no equal."""
    n, i = len(order), 0
    while i < n:
        gain, j = gains[order[i]], i + 1
        while j < n and gains[order[j]] == gain:
            j += 1
        for k in range(j - 1, i, -1):
            pick = i + int(rng.random() * (k - i + 1))
            order[k], order[pick] = order[pick], order[k]
        i = j


# Classic board values by the fields they depend on: the other seats' boards stay the same over
# many leaves of a search, and a round's end meets the same boards again and again.
_BOARD_VALUES: dict[tuple[Any, ...], float] = {}


def _classic_values(state: Any) -> list[float]:
    """Every seat's value in a ClassicGame: `sdk.helpers.evaluate_board` (the score after the
    round's wall-tiling and floor, partial lines), its credit for the end bonuses in progress
    replaced by `projected_bonuses`; cached by each seat's fields (the key is built from the
    engine's lists directly: this runs twice a simulation)."""
    gray, over = state._gray, state.phase == "over"
    colours, counts, floors = state._line_colour, state._line_count, state._floor_count
    walls, scores, cells = state._wall, state._scores, state._cells
    rounds = _rounds_left_cached(walls, _full_lines(counts))
    starter = _starter(state)
    values = []
    get = _BOARD_VALUES.get
    for p in range(state.players):
        b = 5 * p
        key = (
            NET,
            p == starter,
            scores[p],
            walls[p],
            cells[p] if gray else 0,
            tuple(colours[b : b + 5]),
            tuple(counts[b : b + 5]),
            floors[p],
            gray,
            over,
            rounds,
        )
        value = get(key)
        if value is None:
            value = _board_value(state, p, rounds, p == starter)
            if len(_BOARD_VALUES) > 200_000:
                _BOARD_VALUES.clear()
            _BOARD_VALUES[key] = value
        values.append(value)
    return values


def _starter(state: Any) -> int:
    """The seat that takes first next round, where the position shows it: the holder of the
    first-player marker, or at a fresh deal (the marker alone in the centre) the seat to move
    (-1: nobody has taken from the centre yet)."""
    if state._next_starter >= 0:
        return int(state._next_starter)
    if state._marker_in_centre and state._centre == 0 and state.phase == "take":
        return int(state.round_starter)
    return -1


def _board_value(state: Any, p: int, rounds: int, starts: bool = False) -> float:
    """Seat `p`'s board value (see `_classic_values`), uncached: the learned value
    (`learned.future_points`, a gray wall's by its own weights) while `LEARNED`, else the
    hand-made one."""
    gray, over = state._gray, state.phase == "over"
    b = 5 * p
    lines = list(zip(state._line_colour[b : b + 5], state._line_count[b : b + 5], strict=True))
    wall = state._wall[p]
    cells_p = wall_cells(wall, state._cells[p]) if gray else {}
    board = Board(state._scores[p], wall, lines, state._floor_count[p], cells_p)
    if LEARNED and not over:
        return _learned_value(board, starts, rounds, gray)
    value = evaluate_board(board, gray, over)
    if not over and PROJECT:
        key = (wall, state._cells[p] if gray else 0, rounds)
        shift = _BONUS_SHIFT.get(key)
        if shift is None:
            counts = colour_counts(wall, cells_p if gray else None)
            shift = projected_bonuses(wall, counts, max(1, rounds))
            shift -= 0.5 * bonus_progress(wall, cells_p, gray)  # evaluate_board's own credit
            if len(_BONUS_SHIFT) > 50_000:
                _BONUS_SHIFT.clear()
            _BONUS_SHIFT[key] = shift
        value += shift
    return value


# `_board_value`'s bonus term by wall (and rounds left): a wall changes only at a round's end.
_BONUS_SHIFT: dict[tuple[int, int, int], float] = {}


_ROUNDS_LEFT: dict[tuple[Any, ...], int] = {}


def _full_lines(counts: list[int]) -> int:
    """Bit 5 * seat + row: that seat's pattern line of that row is full (tiles its wall at the
    round's end)."""
    bits = 0
    for i, n in enumerate(counts):
        if n == i % 5 + 1:
            bits |= 1 << i
    return bits


def _rounds_left_cached(walls: list[int], full: int) -> int:
    """`rounds_left` of the walls as the round's end will tile them (`full`: `_full_lines`),
    so that a position inside a round and the next round's start agree; 0 when a row will be
    full (the game ends with this round); cached by walls and full lines."""
    key = (*walls, full)
    rounds = _ROUNDS_LEFT.get(key)
    if rounds is None:
        if len(_ROUNDS_LEFT) > 10_000:
            _ROUNDS_LEFT.clear()
        tiled = list(walls)
        for i in range(5 * len(walls)):
            if full >> i & 1:  # a row gains a tile: which column does not change its count
                tiled[i // 5] |= 1 << (5 * (i % 5) + _free_cell(tiled[i // 5], i % 5))
        ends = any(wall & m == m for wall in tiled for m in ROW_MASKS)
        rounds = _ROUNDS_LEFT[key] = 0 if ends else rounds_left(tiled)
    return rounds


def _free_cell(wall: int, row: int) -> int:
    """An empty column of `row` (0 when the row is full: then it stays full)."""
    for k in range(5):
        if not wall >> (5 * row + k) & 1:
            return k
    return 0


PROJECT = True
LEARNED = True  # the value fitted on self-play (bots/expert/learned.py), each wall its own
# A coloured wall's future valued by the network (`learned.net_value`) instead of the linear
# fit (`use_net`): by default where the network was trained (`net_fits`), else as the bot's
# option `net=0`/`net=1` says.
NET = False
# The rulesets the network was trained on (self-play of 2 players); the Mini's rules are
# classic Azul's.
NET_RULESETS = frozenset({"azul", "azul-mini"})


def net_fits(state: Any) -> bool:
    """Whether the network values `state`'s boards by default: classic Azul's coloured wall
    with 2 players, the games it was trained on (elsewhere the linear fit, measured there)."""
    return is_classic_engine(state) and state.players == 2 and state.ruleset.name in NET_RULESETS


def use_net(on: bool) -> None:
    """Value a coloured wall's future by the network (True) or by the linear fit; a bot sets
    it before each of its searches (two bots in one process may differ)."""
    global NET
    NET = on


def load_net(w1: list[list[float]], b1: list[float], w2: list[float], b2: float) -> None:
    """The network's weights from now on, in this process (`learned.load_net`); the board
    values cached by the old ones are dropped (their key tells the network from the linear
    fit, not one network from another)."""
    learned_load_net(w1, b1, w2, b2)
    _BOARD_VALUES.clear()


def _learned_value(board: Board, starts: bool, rounds: int, gray: bool = False) -> float:
    """The board's score after the round's wall-tiling and floor, plus the points the fitted
    weights expect it to score before the game ends (none when a row is full: the game ends
    with this round and its bonuses are certain); a gray wall's by its own weights."""
    points, wall, fallen, placed = tile_full_lines(board, gray)
    cells = placed if gray else None  # a coloured wall's colours follow from the places
    score = max(0, board.score + points - FLOOR_PENALTY[min(7, board.floor + fallen)])
    if rounds == 0 or any(wall & m == m for m in ROW_MASKS):
        return float(score + end_bonus(wall, cells))
    lines = [(c, n) if 0 < n < r + 1 else (-1, 0) for r, (c, n) in enumerate(board.lines)]
    if NET and not gray:
        return score + net_value(wall, lines, starts, rounds)
    return score + future_points(wall, lines, starts, rounds, cells)


def rounds_left(walls: list[int]) -> int:
    """The fewest rounds the game may still last after this one: it ends with the round that
    completes a row, and a row gains at most one tile a round (at least 1: the game goes on)."""
    fullest = max(bin(wall & mask).count("1") for wall in walls for mask in ROW_MASKS)
    return max(1, 5 - fullest)


# What a bonus still `missing` tiles from done is worth, by how that compares with the fewest
# rounds the game may last: a bonus needing more rounds than the game is likely to have is worth
# nothing, one done is certain (the helpers' heuristic credits a full column half its bonus).
def _chance(missing: int, rounds: int) -> float:
    if missing == 0:
        return 1.0
    if missing < rounds:
        return 0.6
    if missing == rounds:
        return 0.4
    return 0.15 if missing == rounds + 1 else 0.0


def projected_bonuses(wall: int, colour_counts: list[int], rounds: int) -> float:
    """The end-of-game bonuses of `wall` as they stand, each credited by how near it is (the
    square of its share done, as the helpers' heuristic) and by its chance to be done in time."""
    value = 0.0
    for masks, bonus in ((ROW_MASKS, ROW_BONUS), (COLUMN_MASKS, COLUMN_BONUS)):
        for mask in masks:
            k = bin(wall & mask).count("1")
            value += bonus * (k / 5) ** 2 * _chance(5 - k, rounds)
    for k in colour_counts:
        value += COLOUR_BONUS * (k / 5) ** 2 * _chance(5 - k, rounds)
    return value


def wall_cells(wall: int, packed: int) -> dict[int, int]:
    """A gray wall's colours by wall bit, as `Board.cells` holds them (the engine packs colour
    + 1 in 3 bits a cell); empty on a coloured wall, whose colours follow from the places."""
    return {i: ((packed >> (3 * i)) & 7) - 1 for i in range(25) if wall >> i & 1}


# Summer Pavilion: the value fitted on self-play (pavilion_value.py), for the numbers of
# players it has a table of weights for (pavilion_weights.py: 2 and 4). A seat's share of the
# tiles, and so its future, differs with the players: with 4, the 2-player weights gave a mean
# rank of 2.44 in 16 games at a fixed budget, mcts's projection 2.00; 4-player weights 2.00
# against the projection's 2.15 (docs/notes/more-players.md). 3 players keep the projection.
PAVILION_LEARNED = True


def leaf_values(state: Any) -> list[float]:
    """Every seat's value at the end of the round, as far as the position shows it: classic
    Azul's `_classic_values`; Summer Pavilion's each hand placed and passed by mcts's
    projection, the board it leaves valued by the learned future (`pavilion_value`, fitted for
    that number of players); otherwise (no weights for it, or without `PAVILION_LEARNED`)
    mcts's own leaf, `sdk.helpers.round_end_values(next_round=True)` (in Summer Pavilion
    computed from the engine's fields by `pavilion_value.leaf_values`)."""
    if is_classic_engine(state):
        return _classic_values(state)
    if state.family == "pavilion":
        return pavilion_value.leaf_values(state, PAVILION_LEARNED)
    return round_end_values(state, next_round=True)


def rewards(values: list[float], scale: float) -> list[float]:
    """Each seat's reward in 0..1: its chance of finishing above each other seat, a sigmoid of
    its lead over that seat, averaged over them. With 2 players the sigmoid of the lead; with
    3-4 one minus (expected rank - 1) / (players - 1): the seats play for the mean rank a table
    is judged by, not for first place at any cost."""
    n = len(values)
    if n == 2:  # each seat's sigmoid computed, not 1 - the other's: the same bits as ever
        lead = values[0] - values[1]
        return [1.0 / (1.0 + math.exp(-lead / scale)), 1.0 / (1.0 + math.exp(lead / scale))]
    out = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            win = 1.0 / (1.0 + math.exp((values[j] - values[i]) / scale))
            out[i] += win
            out[j] += 1.0 - win
    return [r / (n - 1) for r in out]


def lead_rewards(values: list[float], scale: float) -> list[float]:
    """Each seat's reward in 0..1: a sigmoid of its lead over the best other seat (the same as
    `rewards` with 2 players). The game analysis's, whose values are that lead in points."""
    return [1.0 / (1.0 + math.exp(-lead / scale)) for lead in relative_values(values)]
