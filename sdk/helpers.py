"""Readable helpers for bot authors: look at a seat's board and estimate what a position is worth.

    from sdk.helpers import boards, round_end_score, evaluate

    me = state.turn
    board = boards(state)[me]           # score, wall, pattern lines, floor of one seat
    round_end_score(state, me)          # the score `me` would have if the round ended now
    evaluate(state, me)                 # a heuristic value: score + end bonuses + potential

Walls are 25-bit ints: bit `5 * row + column` is set where a tile lies (rows and columns are
0-based). On the coloured wall, row r holds colour c at column (c + r) % 5 (RULES.md).

`boards()` reads the engine's fields directly (the view must be cheap: a search bot calls it
for every leaf); `boards_from_state()` builds the same view from the public `to_state()` dict and
is what a bot uses for a state that came from elsewhere. tests/bots checks that both agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.classic import (
    COLOUR_BONUS,
    COLOUR_LETTERS,
    COLUMN_BONUS,
    ROW_BONUS,
    wall_points,
)
from referee.engine.classic import FLOOR_LOSS as FLOOR_PENALTY  # loss, 0..7 spaces taken
from sdk.family import FamilyHelpers, family_helpers

_FULL_ROW = 0b11111
# Wall masks: the cells of row i, of column i, and (coloured wall) of colour i.
ROW_MASKS = tuple(_FULL_ROW << (5 * i) for i in range(5))
COLUMN_MASKS = tuple(sum(1 << (5 * r + i) for r in range(5)) for i in range(5))
COLOUR_MASKS = tuple(sum(1 << (5 * r + (i + r) % 5) for r in range(5)) for i in range(5))


def _count(bits: int) -> int:
    return bin(bits).count("1")


def wall_column(row: int, colour: int) -> int:
    """The column of `colour` in `row` of the coloured wall."""
    return (colour + row) % 5


def wall_colour(row: int, column: int) -> int:
    """The colour printed at (`row`, `column`) of the coloured wall."""
    return (column - row) % 5


@dataclass(slots=True)
class Board:
    """One seat's board. `lines[r]` is (colour, tiles) of pattern line r (colour -1 if empty);
    `cells` maps a wall bit to the colour of its tile (needed on the gray wall)."""

    score: int
    wall: int
    lines: list[tuple[int, int]]
    floor: int  # floor spaces taken, start marker included (0-7)
    cells: dict[int, int]

    def has(self, row: int, column: int) -> bool:
        return bool(self.wall >> (5 * row + column) & 1)

    def row_has_colour(self, row: int, colour: int, gray: bool) -> bool:
        if not gray:
            return self.has(row, wall_column(row, colour))
        return any(self.cells.get(5 * row + k) == colour for k in range(5))


def is_gray(state: Any) -> bool:
    """Whether the player chooses wall columns (the `azul-gray` ruleset)."""
    return bool(getattr(state.ruleset, "gray_wall", False))


def boards(state: Any) -> list[Board]:
    """Every seat's Board, read straight from an engine ClassicGame (cheap)."""
    try:
        scores, walls = state._scores, state._wall
        colours, counts = state._line_colour, state._line_count
        floors, cells = state._floor_count, state._cells
    except AttributeError:  # not the engine's ClassicGame: go the public way
        return boards_from_state(state.to_state())
    gray = is_gray(state)
    out = []
    for p in range(state.players):
        wall = walls[p]
        packed = cells[p]
        b = 5 * p
        out.append(
            Board(
                scores[p],
                wall,
                [
                    (colours[b], counts[b]),
                    (colours[b + 1], counts[b + 1]),
                    (colours[b + 2], counts[b + 2]),
                    (colours[b + 3], counts[b + 3]),
                    (colours[b + 4], counts[b + 4]),
                ],
                floors[p],
                {i: ((packed >> (3 * i)) & 7) - 1 for i in range(25) if wall >> i & 1}
                if gray
                else {},
            )
        )
    return out


def boards_from_state(state: dict[str, Any]) -> list[Board]:
    """Every seat's Board from a public state dict (`Game.to_state()`). `cells` is filled on
    the gray wall only (elsewhere a cell's colour follows from its place)."""
    gray = state["ruleset"] == "azul-gray"
    out = []
    for b in state["boards"]:
        wall, cells = 0, {}
        for r, text in enumerate(b["wall"]):
            for k, ch in enumerate(text):
                if ch != ".":
                    wall |= 1 << (5 * r + k)
                    if gray:
                        cells[5 * r + k] = COLOUR_LETTERS.index(ch)
        lines = [(COLOUR_LETTERS.index(t[0]), len(t)) if t else (-1, 0) for t in b["lines"]]
        floor = len(b["floor"]) + int(b["has_marker"])
        out.append(Board(b["score"], wall, lines, min(floor, 7), cells))
    return out


def placement_points(wall: int, row: int, column: int) -> int:
    """Points for a tile placed at (row, column) on `wall` (which does not hold it yet): the
    horizontal run plus the vertical run through it, each counted when 2 or more; 1 if alone.
    The engine's own rule (referee.engine.classic.wall_points)."""
    return wall_points(wall, row, column)


def free_gray_columns(wall: int, cells: dict[int, int], row: int, colour: int) -> list[int]:
    """The columns of `row` a tile of `colour` may take on a gray wall: empty there, and no tile
    of that colour in the column yet (`cells`: colours by wall bit)."""
    taken = {k for k in range(5) for r in range(5) if cells.get(5 * r + k) == colour}
    return [k for k in range(5) if not wall >> (5 * row + k) & 1 and k not in taken]


def tile_full_lines(board: Board, gray: bool = False) -> tuple[int, int, int, dict[int, int]]:
    """Wall-tile `board`'s full pattern lines as the round end would: (points, new wall, tiles
    falling to the floor, new cells). On a gray wall each tile takes its best-scoring column."""
    wall, points, fallen = board.wall, 0, 0
    cells = dict(board.cells) if gray else board.cells
    for r, (colour, n) in enumerate(board.lines):
        if n != r + 1:
            continue
        if gray:
            free = free_gray_columns(wall, cells, r, colour)
            if not free:
                fallen += n
                continue
            column = max(free, key=lambda k: placement_points(wall, r, k))
            cells[5 * r + column] = colour
        else:
            column = wall_column(r, colour)
        points += placement_points(wall, r, column)
        wall |= 1 << (5 * r + column)
    return points, wall, fallen, cells


def colour_counts(wall: int, cells: dict[int, int] | None = None) -> list[int]:
    """The tiles of each colour on a wall: on the coloured wall (`cells` None) a colour's five
    cells are fixed; on a gray wall its tiles are wherever they went (`cells`: by wall bit)."""
    if cells is None:
        return [_count(wall & m) for m in COLOUR_MASKS]
    found = list(cells.values())
    return [found.count(c) for c in range(5)]


def end_bonus(wall: int, cells: dict[int, int] | None = None) -> int:
    """End-of-game bonuses of a wall: +2 per full row, +7 per full column, +10 per colour x5."""
    rows = sum(1 for m in ROW_MASKS if wall & m == m)
    cols = sum(1 for m in COLUMN_MASKS if wall & m == m)
    colours = sum(1 for k in colour_counts(wall, cells) if k == 5)
    return ROW_BONUS * rows + COLUMN_BONUS * cols + COLOUR_BONUS * colours


def round_end_score(state: Any, seat: int) -> int:
    """The score `seat` would have if the round ended now (wall points, floor, clamp at 0)."""
    board = boards(state)[seat]
    points, _, fallen, _ = tile_full_lines(board, is_gray(state))
    return max(0, board.score + points - FLOOR_PENALTY[min(7, board.floor + fallen)])


def bonus_progress(wall: int, cells: dict[int, int], gray: bool) -> float:
    """Partial credit for rows, columns and colours on their way to an end bonus (what
    `evaluate_board` adds half of)."""
    # Squares: the last tiles of a line are worth far more than the first ones.
    rows = sum(_count(wall & m) ** 2 for m in ROW_MASKS)
    cols = sum(_count(wall & m) ** 2 for m in COLUMN_MASKS)
    colours = sum(k**2 for k in colour_counts(wall, cells if gray else None))
    return ((ROW_BONUS + 1) * rows + COLUMN_BONUS * cols + COLOUR_BONUS * colours) / 25


def evaluate_board(board: Board, gray: bool = False, game_over: bool = False) -> float:
    """A heuristic value for one board: the score after this round's wall-tiling and floor,
    plus (as the game may go on) credit for bonuses in progress and for partial pattern lines."""
    if game_over:
        return float(board.score)
    points, wall, fallen, cells = tile_full_lines(board, gray)
    score = max(0, board.score + points - FLOOR_PENALTY[min(7, board.floor + fallen)])
    if any(wall & m == m for m in ROW_MASKS):
        # A row is complete: the game ends with this round, so bonuses are real and partial
        # lines are worthless.
        return float(score + end_bonus(wall, cells if gray else None))
    value = score + 0.5 * bonus_progress(wall, cells, gray)
    for r, (colour, n) in enumerate(board.lines):
        if 0 < n < r + 1:
            # A started line will likely be finished next round: some of its placement value,
            # less for lines far from done (they also block that line for other colours).
            column = wall_column(r, colour) if not gray else None
            worth = placement_points(wall, r, column) if column is not None else 1
            value += worth * (n / (r + 1)) * 0.7 - 0.3 * (r + 1 - n) / (r + 1)
    return value


def evaluate(state: Any, seat: int) -> float:
    """How good `state` is for `seat`: its score plus what its board promises (`evaluate_board`
    in the classic family; sdk.pavilion's for Summer Pavilion)."""
    return family_helpers(state).evaluate(state, seat)


def evaluate_all(state: Any) -> list[float]:
    """`evaluate` for every seat (one board read for all of them)."""
    return family_helpers(state).evaluate_all(state)


def round_end_values(state: Any, next_round: bool = False) -> list[float]:
    """Every seat's value at the end of this round, as far as the position shows it: what a
    search puts at its leaves. Classic: `evaluate_all` (it already tiles the full pattern lines
    as the round end will). Summer Pavilion: `sdk.pavilion.project_all`: each seat's hand played
    out onto its own stars (a greedy placement phase of its own), then the pass; the tiles in
    hand are only worth where they can go.

    `next_round`: also what the round's end carries into the next round, where the family has
    such a thing (Summer Pavilion: the tiles kept, valued by what they will buy, and the
    start-player token; see `sdk.pavilion.project_board`). Classic Azul carries nothing over."""
    return family_helpers(state).round_end_values(state, next_round)


def move_gain(state: Any, move: Any) -> float:
    """A quick guess (no copy, a few microseconds) of what `move` brings the seat making it right
    away (classic: the wall points of a pattern line it completes, or a little credit per tile
    for a line it only fills in part, minus the floor penalty it causes). Meant for the inner
    loops of a search."""
    return family_helpers(state).move_gain(state, move)


def move_gains(state: Any, moves: Any) -> list[float]:
    """`move_gain` of each of `moves` (a Summer Pavilion game reads its public state once for
    all of them)."""
    return family_helpers(state).move_gains(state, moves)


def _classic_evaluate(state: Any, seat: int) -> float:
    return evaluate_board(boards(state)[seat], is_gray(state), state.is_over())


def _classic_evaluate_all(state: Any) -> list[float]:
    gray, over = is_gray(state), state.is_over()
    return [evaluate_board(b, gray, over) for b in boards(state)]


def relative_values(values: list[float]) -> list[float]:
    """Each seat's value minus the best of the other seats: > 0 means ahead of everyone."""
    out = []
    for i, v in enumerate(values):
        out.append(v - max(w for j, w in enumerate(values) if j != i))
    return out


def _classic_move_gain(state: Any, move: Any) -> float:
    """Reads the engine's fields directly (the overflow, the start marker): `move_gain`'s
    classic half."""
    p = state.turn
    if move.is_wall:  # gray wall: the tile of a full line goes to this column
        return float(placement_points(state._wall[p], move.line, move.column))
    c, line = move.colour, move.line
    if move.source == 9:  # the centre (8 bits of count per colour); the marker goes along
        n = (state._centre >> (8 * c)) & 255
        to_floor = int(state._marker_in_centre)
    else:  # a factory (3 bits of count per colour)
        n = (state._factories[move.source] >> (3 * c)) & 7
        to_floor = 0
    value = 0.0
    if line == 5:  # the floor line
        to_floor += n
    else:
        room = line + 1 - state._line_count[5 * p + line]
        if n >= room:
            to_floor += n - room
            value = (
                1.0
                if state._gray
                else float(placement_points(state._wall[p], line, wall_column(line, c)))
            )
        else:
            value = 0.5 * n / room  # on its way: worth something once the line is full
    floor = state._floor_count[p]
    return value - float(FLOOR_PENALTY[min(7, floor + to_floor)] - FLOOR_PENALTY[floor])


# The classic family's helpers (its descriptor names this module); Summer Pavilion's are in
# sdk.pavilion.
HELPERS = FamilyHelpers(
    _classic_evaluate,
    _classic_evaluate_all,
    _classic_move_gain,
    lambda state, moves: [_classic_move_gain(state, m) for m in moves],
    lambda state, next_round: _classic_evaluate_all(state),
    chance_within_round=False,
)
