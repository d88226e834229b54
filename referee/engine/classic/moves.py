"""Classic-family moves and their notation (`4K2`, `CRF`, gray wall `3@2`).

Every possible move exists once, made when this module loads: legal-move lists are tuples of
these shared objects, so listing moves allocates nothing and moves compare by identity.
"""

from __future__ import annotations

import re
from typing import Any, Final

from referee.engine.errors import NotationError

COLOUR_LETTERS: Final = "BYRKW"  # blue, yellow, red, black, white: the order used everywhere
COLOUR_NAMES: Final = ("blue", "yellow", "red", "black", "white")
N_COLOURS: Final = 5
MAX_FACTORIES: Final = 9
CENTRE: Final = 9  # source number of the centre of the table; factories are 0-8
N_SOURCES: Final = 10
FLOOR: Final = 5  # destination number of the floor line; pattern lines are 0-4
N_TAKE_MOVES: Final = N_SOURCES * N_COLOURS * 6


class Move:
    """One move of the classic family. Attributes are 0-based; the notation is 1-based.

    A take move has `source` (factory 0-8, or `CENTRE`), `colour` (0-4) and `line` (pattern
    line 0-4, or `FLOOR`). A gray-wall placement has `line` and `column` (0-4) and `is_wall`.
    `index` is a small int unique to the move (handy as an array index).
    """

    __slots__ = ("_source_bit", "_text", "colour", "column", "index", "is_wall", "line", "source")

    index: int
    source: int
    colour: int
    line: int
    column: int
    is_wall: bool
    _text: str
    _source_bit: int

    def __init__(
        self, index: int, source: int, colour: int, line: int, column: int, is_wall: bool, text: str
    ) -> None:
        """Made once per possible move when this module loads; get moves with Move.take(...),
        Move.wall(...) or parse_move(text) rather than building new ones."""
        self.index = index
        self.source = source
        self.colour = colour
        self.line = line
        self.column = column
        self.is_wall = is_wall
        self._text = text
        # The bit of the engine's `sources` mask that says "source holds colour" (tables).
        self._source_bit = 0 if is_wall else 1 << (12 * colour + source)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Move) and other.index == self.index)

    def __hash__(self) -> int:
        return self.index

    @staticmethod
    def take(source: int, colour: int, line: int) -> Move:
        """The take move: all tiles of `colour` from `source` to pattern `line` (or FLOOR)."""
        return TAKE_MOVES[(source * N_COLOURS + colour) * 6 + line]

    @staticmethod
    def wall(line: int, column: int) -> Move:
        """The gray-wall move: the tile of pattern `line` goes to `column` of that wall row."""
        return WALL_MOVES[line * 5 + column]

    @property
    def is_take(self) -> bool:
        return not self.is_wall

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Move({self._text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickling (e.g. across processes) returns the shared object, keeping identity equality.
        return (_move_by_index, (self.index,))


def _take_text(source: int, colour: int, line: int) -> str:
    src = "C" if source == CENTRE else str(source + 1)
    dst = "F" if line == FLOOR else str(line + 1)
    return f"{src}{COLOUR_LETTERS[colour]}{dst}"


TAKE_MOVES: Final[tuple[Move, ...]] = tuple(
    Move((s * N_COLOURS + c) * 6 + d, s, c, d, -1, False, _take_text(s, c, d))
    for s in range(N_SOURCES)
    for c in range(N_COLOURS)
    for d in range(6)
)
WALL_MOVES: Final[tuple[Move, ...]] = tuple(
    Move(N_TAKE_MOVES + r * 5 + k, -1, -1, r, k, True, f"{r + 1}@{k + 1}")
    for r in range(5)
    for k in range(5)
)
ALL_MOVES: Final[tuple[Move, ...]] = TAKE_MOVES + WALL_MOVES
MOVES_BY_TEXT: Final = {str(m): m for m in ALL_MOVES}


def _move_by_index(index: int) -> Move:
    return ALL_MOVES[index]


_TAKE_RE: Final = re.compile(r"([1-9C])([BYRKW])([1-5F])")
_WALL_RE: Final = re.compile(r"([1-5])@([1-5])")


def parse_move(text: object) -> Move:
    """The move written `text`; NotationError explains what is wrong with it."""
    if not isinstance(text, str):
        raise NotationError(f"a move is written as text such as '4K2', not {type(text).__name__}")
    clean = text.strip().upper()
    move = MOVES_BY_TEXT.get(clean)
    if move is not None:
        return move
    if "@" in clean:
        raise NotationError(
            f"{text!r} is not a wall placement: write <pattern line 1-5>@<column 1-5>, e.g. '3@2'"
        )
    if len(clean) != 3:
        raise NotationError(
            f"{text!r} is not a move: write <source><colour><destination>, e.g. '4K2' "
            "(factory 4, black, pattern line 2) or 'CRF' (centre, red, floor)"
        )
    src, col, dst = clean[0], clean[1], clean[2]
    if src not in "123456789C":
        raise NotationError(f"{text!r}: source {src!r} must be a factory number 1-9 or C (centre)")
    if col not in COLOUR_LETTERS:
        raise NotationError(
            f"{text!r}: colour {col!r} must be one of B Y R K W (blue, yellow, red, black, white)"
        )
    raise NotationError(f"{text!r}: destination {dst!r} must be a pattern line 1-5 or F (floor)")
