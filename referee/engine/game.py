"""The family-neutral game interface: what the referee, the SDK and every bot rely on."""

from __future__ import annotations

import os
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Self

from referee.engine.errors import EngineError, RecordError
from referee.engine.rulesets import Ruleset, get_ruleset

# Phases a game can be in; a family may add its own (Summer Pavilion: its play and bonus phases).
TAKE = "take"  # players take tiles from the factories and the centre
WALL = "wall"  # wall-tiling that needs a player's decision (gray wall)
OVER = "over"  # the game has ended

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # no mypy here (compiling needs it, the sources do not): a no-op

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


# A family from outside the compiled engine (a plug-in, tests/families/tiny) subclasses Game as
# plain Python: the compiled Game must allow it. The compiled families' classes stay native.
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A game of one ruleset in progress. Subclasses are the family engines.

    The interface follows python-chess: `legal_moves()`, `push(move)`, `copy()`, notation both ways
    and a readable `str()`. Seats are numbered from 0.
    """

    __slots__ = ()
    family: ClassVar[str]

    ruleset: Ruleset
    players: int
    turn: int
    round: int
    phase: str

    # --- moves -----------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> tuple[Any, ...]:
        """Every legal move of the seat to move (empty once the game is over)."""

    @abstractmethod
    def push(self, move: Any) -> None:
        """Apply `move`; raise IllegalMoveError naming the rule if the rules forbid it."""

    @abstractmethod
    def parse_move(self, text: object) -> Any:
        """The move written `text` in this family's notation (NotationError if it is not one)."""

    @classmethod
    @abstractmethod
    def moves_by_notation(cls) -> Mapping[str, Any]:
        """Every move of this family by its notation: reads a list of moves sent as text (the
        legal moves of a move request) without rebuilding a game."""

    def push_notation(self, text: object) -> Any:
        """Parse `text`, apply it and return the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def is_legal(self, move: Any) -> bool:
        """Whether `move` may be pushed now."""
        return move in self.legal_moves()

    # --- the game as a whole ----------------------------------------------------------------
    @abstractmethod
    def copy(self, stack: bool = False) -> Self:
        """An independent copy. `stack=True` keeps the history, so the copy can write a record."""

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """The score of each seat now (final scores once the game is over)."""

    def is_over(self) -> bool:
        return self.phase == OVER

    @abstractmethod
    def ranks(self) -> tuple[int, ...]:
        """Rank of each seat, 1 = best; tied seats share a rank (1, 1, 3)."""

    @abstractmethod
    def record(self, players: list[str] | None = None) -> dict[str, Any]:
        """The game so far as a JSON-able record (see docs/engine.md); `players` overrides the
        names recorded for the seats."""

    @abstractmethod
    def to_state(self) -> dict[str, Any]:
        """Everything every player may see, as a JSON-able dict; nothing hidden (no bag order)."""

    @classmethod
    def family_of(cls, ruleset: str) -> type[Game]:
        """The engine class that plays `ruleset`."""
        return ENGINES[get_ruleset(ruleset).family]

    @classmethod
    def from_state(cls, state: dict[str, Any], seed: int | None = None) -> Game:
        """A playable game rebuilt from `to_state()`; unknown chance (the bag order) from `seed`.
        Called on `Game`, it picks the family from the state's ruleset."""
        if not isinstance(state, dict) or not isinstance(state.get("ruleset"), str):
            raise EngineError("state: a dict with a 'ruleset' key, as to_state() gives")
        return Game.family_of(state["ruleset"]).from_state(state, seed)

    @property
    @abstractmethod
    def round_scores(self) -> list[tuple[int, ...]]:
        """The scores after each finished round, before end-of-game bonuses."""

    @classmethod
    def from_record(cls, record: dict[str, Any], upto: int | None = None) -> Game:
        """Replay a record from its recorded chance outcomes, checking every move; RecordError
        says where it went wrong. Called on `Game`, it picks the family from the record's
        ruleset. With `upto`, only the game's first `upto` moves are played: the position
        before move `upto` (0-based; `replay rerun` numbers moves so), e.g. for a unit test of
        a bot's choice there."""
        if not isinstance(record, dict):
            raise RecordError("a record is a JSON object")
        ruleset = record.get("ruleset")
        if not isinstance(ruleset, str):
            raise RecordError("missing 'ruleset' (e.g. \"azul\")")
        try:
            engine = Game.family_of(ruleset)
        except EngineError as exc:
            raise RecordError(str(exc)) from None
        return engine.from_record(record, upto)


class Blank:
    """Marks a game made empty, to be filled in field by field (a family's copy, from_state)."""


BLANK: Final = Blank()

# Each registered family's engine by family name (filled by referee.engine.family.register), so
# that Game.from_state and from_record build a game of the right family from a ruleset's name.
ENGINES: dict[str, type[Game]] = {}


def ranks_from_keys(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranks from sort keys (bigger is better): equal keys share a rank (1, 1, 3)."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


# Seeds for games whose caller chose none (a bot's engine rebuilds one per move): seeded from
# the OS once, and again in a forked child so that two processes never share a sequence.
_SEEDS: Final = random.Random()
os.register_at_fork(after_in_child=_SEEDS.seed)


def fresh_seed() -> int:
    """A seed for a game whose caller did not choose one."""
    return _SEEDS.getrandbits(63)
