"""Summer Pavilion moves and their notation (`3G`, `4-3B+2`, `pass:GG`, `bonus:P`).

Every possible move exists once, made when this module loads (about 1,800): legal-move lists are
tuples of these shared objects, so listing moves allocates no move and moves compare by identity.
"""

from __future__ import annotations

import re
from itertools import combinations_with_replacement
from typing import Any, Final

from referee.engine.errors import NotationError

COLOUR_LETTERS: Final = "PGOYBR"  # purple, green, orange, yellow, blue, red: RULES.md's order
COLOUR_NAMES: Final = ("purple", "green", "orange", "yellow", "blue", "red")
N_COLOURS: Final = 6
CENTRE: Final = 9  # source number of the centre of the table; factories are 0-8
N_SOURCES: Final = 10
N_STARS: Final = 7  # star 0 is the centre star, 1-6 the stars around it
MAX_KEPT: Final = 4

# Kinds of move.
TAKE_MOVE: Final = 0
PLACE_MOVE: Final = 1
PASS_MOVE: Final = 2
BONUS_MOVE: Final = 3


class PavilionMove:
    """One Summer Pavilion decision. Attributes are 0-based; the notation is 1-based.

    `kind` is TAKE_MOVE (`source`, `colour`), PLACE_MOVE (`star` 0-6, `space` 0-5, `colour`,
    `wilds`: how many wild tiles pay), PASS_MOVE (`keep`: the kept tiles, 8 bits of count per
    colour) or BONUS_MOVE (`colour`: the tile taken from the supply). `index` is a small int
    unique to the move.
    """

    __slots__ = (
        "_text",
        "colour",
        "index",
        "keep",
        "kind",
        "n_keep",
        "source",
        "space",
        "star",
        "wilds",
    )

    index: int
    kind: int
    source: int
    colour: int
    star: int
    space: int
    wilds: int
    keep: int
    n_keep: int
    _text: str

    def __init__(  # noqa: PLR0913  # a move's fields, filled once by the move tables
        self,
        index: int,
        kind: int,
        text: str,
        source: int = -1,
        colour: int = -1,
        star: int = -1,
        space: int = -1,
        wilds: int = 0,
        keep: int = 0,
    ) -> None:
        """Made once per possible move when this module loads; get moves from legal_moves() or
        parse_move(text) rather than building new ones."""
        self.index = index
        self.kind = kind
        self.source = source
        self.colour = colour
        self.star = star
        self.space = space
        self.wilds = wilds
        self.keep = keep
        self.n_keep = sum((keep >> (8 * c)) & 255 for c in range(N_COLOURS))
        self._text = text

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, PavilionMove) and other.index == self.index)

    def __lt__(self, other: PavilionMove) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    @property
    def is_take(self) -> bool:
        return self.kind == TAKE_MOVE

    @property
    def is_place(self) -> bool:
        return self.kind == PLACE_MOVE

    @property
    def is_pass(self) -> bool:
        return self.kind == PASS_MOVE

    @property
    def is_bonus(self) -> bool:
        return self.kind == BONUS_MOVE

    @property
    def kept(self) -> str:
        """The tiles a pass keeps, as letters in colour order ('' for none)."""
        return letters(self.keep)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"PavilionMove({self._text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickling (e.g. across processes) returns the shared object, keeping identity equality.
        return (_move_by_index, (self.index,))


def letters(packed: int) -> str:
    """A multiset packed 8 bits per colour, as tile letters in colour order."""
    return "".join(COLOUR_LETTERS[c] * ((packed >> (8 * c)) & 255) for c in range(N_COLOURS))


def _take_text(source: int, colour: int) -> str:
    return f"{'C' if source == CENTRE else source + 1}{COLOUR_LETTERS[colour]}"


def _place_text(star: int, space: int, colour: int, wilds: int) -> str:
    return f"{star}-{space + 1}{COLOUR_LETTERS[colour]}" + (f"+{wilds}" if wilds else "")


def _build() -> tuple[tuple[PavilionMove, ...], ...]:
    takes, places, passes, bonuses = [], [], [], []
    i = 0
    for s in range(N_SOURCES):
        for c in range(N_COLOURS):
            takes.append(PavilionMove(i, TAKE_MOVE, _take_text(s, c), source=s, colour=c))
            i += 1
    for star in range(N_STARS):
        for space in range(6):
            for c in range(N_COLOURS):
                for w in range(6):
                    places.append(
                        PavilionMove(
                            i,
                            PLACE_MOVE,
                            _place_text(star, space, c, w),
                            colour=c,
                            star=star,
                            space=space,
                            wilds=w,
                        )
                    )
                    i += 1
    for n in range(MAX_KEPT + 1):
        for combo in combinations_with_replacement(range(N_COLOURS), n):
            keep = sum(1 << (8 * c) for c in combo)
            text = "pass:" + letters(keep) if n else "pass"
            passes.append(PavilionMove(i, PASS_MOVE, text, keep=keep))
            i += 1
    for c in range(N_COLOURS):
        bonuses.append(PavilionMove(i, BONUS_MOVE, f"bonus:{COLOUR_LETTERS[c]}", colour=c))
        i += 1
    return tuple(takes), tuple(places), tuple(passes), tuple(bonuses)


TAKE_MOVES, PLACE_MOVES, PASS_MOVES, BONUS_MOVES = _build()
ALL_MOVES: Final[tuple[PavilionMove, ...]] = TAKE_MOVES + PLACE_MOVES + PASS_MOVES + BONUS_MOVES
MOVES_BY_TEXT: Final = {str(m): m for m in ALL_MOVES}
PASS_BY_KEEP: Final = {m.keep: m for m in PASS_MOVES}


def take_move(source: int, colour: int) -> PavilionMove:
    return TAKE_MOVES[source * N_COLOURS + colour]


def place_move(star: int, space: int, colour: int, wilds: int) -> PavilionMove:
    return PLACE_MOVES[((star * 6 + space) * N_COLOURS + colour) * 6 + wilds]


def _move_by_index(index: int) -> PavilionMove:
    return ALL_MOVES[index]


_TAKE_RE: Final = re.compile(r"([1-9C])([A-Z])")
_PLACE_RE: Final = re.compile(r"([0-9])-([0-9])([A-Z])(?:\+([0-9]))?")


def parse_move(text: object) -> PavilionMove:
    """The move written `text` (case and surrounding spaces ignored, kept tiles in any order);
    NotationError explains what is wrong with it."""
    if not isinstance(text, str):
        raise NotationError(
            f"a move is written as text such as '3G' or '4-3B+2', not {type(text).__name__}"
        )
    clean = text.strip().upper().replace(" ", "")
    if clean.startswith("PASS") or clean.startswith("BONUS"):
        word, _, rest = clean.partition(":")
        bad = [ch for ch in rest if ch not in COLOUR_LETTERS]
        if bad:
            raise NotationError(f"{text!r}: {bad[0]!r} is not a tile colour (use P G O Y B R)")
        if word == "PASS":
            if len(rest) > MAX_KEPT:
                raise NotationError(f"{text!r}: a player keeps at most {MAX_KEPT} tiles")
            ordered = "".join(sorted(rest, key=COLOUR_LETTERS.index))
            return MOVES_BY_TEXT["pass:" + ordered if ordered else "pass"]
        if word == "BONUS" and len(rest) == 1:
            return MOVES_BY_TEXT["bonus:" + rest]
        raise NotationError(
            f"{text!r} is not a move: write 'pass', 'pass:<kept tiles>' "
            "(e.g. 'pass:GGOO') or 'bonus:<colour>' (e.g. 'bonus:P')"
        )
    move = MOVES_BY_TEXT.get(clean.replace("+0", ""))
    if move is not None:
        return move
    if _PLACE_RE.fullmatch(clean):
        star, space, colour, wilds = _PLACE_RE.fullmatch(clean).groups()  # type: ignore[union-attr]
        if not "0" <= star <= "6":
            raise NotationError(f"{text!r}: star {star} must be 0 (the centre star) to 6")
        if not "1" <= space <= "6":
            raise NotationError(f"{text!r}: space {space} must be 1 to 6")
        if colour not in COLOUR_LETTERS:
            raise NotationError(
                f"{text!r}: colour {colour!r} must be one of P G O Y B R "
                "(purple, green, orange, yellow, blue, red)"
            )
        raise NotationError(
            f"{text!r}: at most 5 wild tiles pay for a space (+0 to +5), not +{wilds}"
        )
    if _TAKE_RE.fullmatch(clean):
        raise NotationError(
            f"{text!r}: colour {clean[1]!r} must be one of P G O Y B R "
            "(purple, green, orange, yellow, blue, red)"
        )
    raise NotationError(
        f"{text!r} is not a move: take '<factory 1-9 or C><colour>' (e.g. '3G'), place "
        "'<star 0-6>-<space 1-6><colour>[+<wild tiles>]' (e.g. '4-3B+2'), 'pass', "
        "'pass:<kept tiles>' (e.g. 'pass:GGOO') or 'bonus:<colour>' (e.g. 'bonus:P')"
    )
