"""How a position becomes numbers: one encoding per game family, brought by its descriptor.

An `Encoding` turns engine games into the observation vector (float32, the same layout for every
ruleset and player count of its family, seen from one seat) and moves into actions (the
engine's own move index: a fixed action space per family). The numbers are written by the
family's `write(game, seat, out, at)`, which fills the non-zero entries of one observation into a
zeroed float32 buffer straight from the engine's fields: the built-in families' writers live in
their engine packages (referee/engine/<family>/features.py) and are compiled with the engine,
so that an observation costs about what a move costs. N games are written into one buffer and
handed out as one (N, size) array, without a numpy call per game.

A family brings its encoding through its descriptor: `Family(..., rl="module")` names a module
whose `ENCODING` is an Encoding subclass (sdk/rl/encoding/classic.py is the model; a plug-in
family's Writer may be plain Python). `encoding_for` finds it from the ruleset; a family without
one gets a ValueError that says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from referee.engine import EngineError, Game, family_of, get_ruleset

# Board slots in every observation: the largest table of any ruleset (2-4 players). Slots of
# absent seats are zeros, so one policy reads games of any player count.
MAX_SEATS = 4

Floats = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Field:
    """One named block of the observation vector (docs/rl.md lists them)."""

    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def mark_legal(game: Game, out: Any, at: int) -> None:
    """The generic mask writer (a family's compiled one is faster)."""
    for move in game.legal_moves():
        out[at + move.index] = 1


@dataclass(frozen=True)
class Writer:
    """What writes a family's numbers: `write(game, seat, out, at)` the observation (its
    non-zero entries, into a zeroed float32 buffer), `mark(game, out, at)` the action mask, and
    `layout`, the (block, size) pairs `write` fills, in order (None: not checked)."""

    write: Callable[[Any, int, Any, int], None]
    mark: Callable[[Any, Any, int], None] = mark_legal
    layout: tuple[tuple[str, int], ...] | None = None


class Encoding:
    """The observation and action layout of one family for one player count.

    A subclass sets `family`, `fields` (in the order of the vector), `moves` (every move by
    action number = the engine's move.index) and `writer` (a Writer; its layout must be the
    fields')."""

    family: ClassVar[str] = ""
    fields: ClassVar[tuple[Field, ...]] = ()
    moves: ClassVar[tuple[Any, ...]] = ()
    writer: ClassVar[Writer]

    def __init__(self, players: int) -> None:
        self.players = players
        self.size = sum(f.size for f in self.fields)
        self.n_actions = len(self.moves)
        self.write, self.mark = self.writer.write, self.writer.mark
        described = tuple((f.name, f.size) for f in self.fields)
        layout = self.writer.layout
        if layout is not None and described != layout:  # an engine change not followed here
            raise RuntimeError(
                f"{self.family}: the fields {described} are not those written {layout}"
            )
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])
        self.offsets: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            self.offsets[f.name] = slice(start, start + f.size)
            start += f.size
        self._zeros = bytes(4 * self.size)

    def observe(self, games: Sequence[Game], seats: Sequence[int]) -> Floats:
        """The observation of each game from the seat beside it, one row per game."""
        size = self.size
        buffer = bytearray(4 * size * len(games))
        out = memoryview(buffer).cast("f")
        write = self.write
        at = 0
        for game, seat in zip(games, seats, strict=True):
            write(game, seat, out, at)
            at += size
        return np.frombuffer(buffer, np.float32).reshape(len(games), size)

    def observe_one(self, game: Game, seat: int) -> Floats:
        """The observation of one game from `seat`: a vector of `size` floats."""
        buffer = bytearray(self._zeros)
        self.write(game, seat, memoryview(buffer).cast("f"), 0)
        return np.frombuffer(buffer, np.float32)

    def masks(self, games: Sequence[Game]) -> Mask:
        """The action mask of each game (1 for its legal moves), one row per game."""
        width = self.n_actions
        buffer = bytearray(width * len(games))
        mark = self.mark
        at = 0
        for game in games:
            mark(game, buffer, at)
            at += width
        return np.frombuffer(buffer, np.int8).reshape(len(games), width)

    def mask_one(self, game: Game) -> Mask:
        """The action mask of one game; all zeros once it is over."""
        buffer = bytearray(self.n_actions)
        self.mark(game, buffer, 0)
        return np.frombuffer(buffer, np.int8)

    def mask_into(self, mask: Mask, games: Sequence[Game]) -> None:
        """Set row i of `mask` (zeroed by the caller) to game i's legal moves."""
        mask[: len(games)] |= self.masks(games)

    def field(self, observation: Floats, name: str) -> Floats:
        """The block `name` of one observation (or a batch), in its documented shape."""
        f = next(f for f in self.fields if f.name == name)
        return observation[..., self.offsets[name]].reshape(*observation.shape[:-1], *f.shape)

    def describe(self, action: int) -> str:
        """What action number `action` is, in words and in the family's notation."""
        if not 0 <= action < self.n_actions:
            return f"action {action} (not an action: they are 0 to {self.n_actions - 1})"
        return f"action {action} ({self.moves[action]})"


def moves_by_index(engine: type[Game]) -> tuple[Any, ...]:
    """Every move of a family by its index (the engine's `move.index` numbers them 0..n-1)."""
    moves = sorted(set(engine.moves_by_notation().values()), key=lambda m: int(m.index))
    if [m.index for m in moves] != list(range(len(moves))):
        raise RuntimeError(f"{engine.family}: move indexes are not 0..n-1")  # an engine change
    return tuple(moves)


@cache
def encoding_for(ruleset: str, players: int) -> Encoding:
    """The encoding of `ruleset`'s family for `players` seats: the `rl` part of the family's
    descriptor. ValueError for an unknown ruleset, a bad player count or a family without one."""
    try:
        rules = get_ruleset(ruleset)
        rules.check_players(players)
        family = family_of(ruleset)
    except EngineError as exc:
        raise ValueError(str(exc)) from None
    encoding: type[Encoding] | None = family.part("rl")
    if encoding is None:
        raise ValueError(
            f"{ruleset} is a game of the {family.name} family, which has no RL encoding yet: "
            "a family brings one with its descriptor, Family(..., rl='package.module') naming "
            "a module whose ENCODING is an sdk.rl.encoding.Encoding (docs/rl.md)"
        )
    return encoding(players)
