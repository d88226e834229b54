"""How a position becomes numbers: one encoding per game family, brought by its descriptor.

An `Encoding` turns engine games into the observation vector (float32, the same layout for every
ruleset and player count of its family, seen from one seat) and moves into actions (the
engine's own move index: a fixed action space per family). The numbers are written by the
family's `write(game, seat, out, at)`, which fills the non-zero entries of one observation into a
zeroed buffer (a librt `vec` of floats: `out[i] = x`) straight from the engine's fields, and
`mark(game, out, at)`, which puts a 1 at each legal action of a zeroed `vec` of bytes. The
built-in families' writers live in their engine packages (referee/engine/<family>/features.py)
and are compiled with the engine, where a store into a vec is a machine store
(referee/engine/features.py), so that an observation costs less than a move. N games are
written into one buffer and handed out as one (N, size) float32 array, without a numpy call
per game; the environments keep their buffers and numpy views of them, and hand out copies.

A family brings its encoding through its descriptor: `Family(..., rl="module")` names a module
whose `ENCODING` is an Encoding subclass (sdk/rl/encoding/classic.py is the model; a plug-in
family's Writer may be plain Python). `encoding_for` finds it from the ruleset; a family without
one gets a ValueError that says so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from librt.vecs import vec
from mypy_extensions import u8

from referee.engine import (
    EngineError,
    Game,
    clear_floats,
    clear_mask,
    family_of,
    float_buffer,
    get_ruleset,
    mask_buffer,
)

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


def float_view(buffer: vec[float], n: int = -1) -> npt.NDArray[np.float64]:
    """The first n floats of a vec (all: -1) as a numpy array without a copy (read-only)."""
    return np.frombuffer(memoryview(buffer), np.float64, count=n)


def mask_view(buffer: vec[u8]) -> Mask:
    """A vec of bytes as an int8 numpy array without a copy (read-only)."""
    return np.frombuffer(memoryview(buffer), np.int8)


def as_floats(buffer: vec[float], n: int) -> Floats:
    """The first n floats of a vec (the writers' float64s) as a new float32 array."""
    return float_view(buffer, n).astype(np.float32)


# N games at once: (games, seats, out, size) and (games, out, width); games and seats are lists.
BatchWrite = Callable[[Any, Any, Any, int], None]
BatchMark = Callable[[Any, Any, int], None]


def write_each(write: Callable[[Any, int, Any, int], None]) -> BatchWrite:
    """The batch writer of a family that brings none: `write` game after game."""

    def write_batch(games: Sequence[Game], seats: Sequence[int], out: Any, size: int) -> None:
        at = 0
        for game, seat in zip(games, seats, strict=True):
            write(game, seat, out, at)
            at += size

    return write_batch


def mark_each(mark: Callable[[Any, Any, int], None]) -> BatchMark:
    """The batch mask writer of a family that brings none: `mark` game after game."""

    def mark_batch(games: Sequence[Game], out: Any, width: int) -> None:
        at = 0
        for game in games:
            mark(game, out, at)
            at += width

    return mark_batch


@dataclass(frozen=True)
class Writer:
    """What writes a family's numbers: `write(game, seat, out, at)` the observation (its
    non-zero entries, into a zeroed vec of floats), `mark(game, out, at)` the action mask (1
    at each legal action of a zeroed vec of bytes),
    `layout`, the (block, size) pairs `write` fills, in order (None: not checked), and
    optionally the same for N games in one call (a compiled loop is cheaper than a Python one):
    `write_batch(games, seats, out, size)`, game i at out[i * size], and
    `mark_batch(games, out, width)`."""

    write: Callable[[Any, int, Any, int], None]
    mark: Callable[[Any, Any, int], None] = mark_legal
    layout: tuple[tuple[str, int], ...] | None = None
    write_batch: BatchWrite | None = None
    mark_batch: BatchMark | None = None


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
        writer = self.writer
        self.write, self.mark = writer.write, writer.mark
        self.write_batch = writer.write_batch or write_each(writer.write)
        self.mark_batch = writer.mark_batch or mark_each(writer.mark)
        described = tuple((f.name, f.size) for f in self.fields)
        layout = self.writer.layout
        if layout is not None and described != layout:  # an engine change not followed here
            raise RuntimeError(
                f"{self.family}: the fields {described} are not those written {layout}"
            )
        self._local = threading.local()  # the float buffer of each thread (_floats)
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])
        self.offsets: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            self.offsets[f.name] = slice(start, start + f.size)
            start += f.size

    def observe(self, games: Sequence[Game], seats: Sequence[int]) -> Floats:
        """The observation of each game from the seat beside it, one row per game."""
        size = self.size
        if len(seats) != len(games):
            raise ValueError(f"{len(games)} games but {len(seats)} seats")
        if type(games) is not list or type(seats) is not list:  # the compiled loops take lists
            games, seats = list(games), [int(seat) for seat in seats]
        n = size * len(games)
        buffer = self._floats(n)
        self.write_batch(games, seats, buffer, size)
        return as_floats(buffer, n).reshape(len(games), size)

    def observe_one(self, game: Game, seat: int) -> Floats:
        """The observation of one game from `seat`: a vector of `size` floats."""
        buffer = self._floats(self.size)
        self.write(game, seat, buffer, 0)
        return as_floats(buffer, self.size)

    def _floats(self, n: int) -> vec[float]:
        """n zeros to write into: this thread's buffer, used again (the writers' result is
        copied out before the next call). New memory costs more than clearing, even a few
        kilobytes of it: writing into it faults pages in, once the allocator has returned
        the heap's top to the system."""
        buffer: vec[float] | None = getattr(self._local, "floats", None)
        if buffer is None or len(buffer) < n:
            buffer = self._local.floats = float_buffer(n)
        else:
            clear_floats(buffer, n)
        return buffer

    def masks(self, games: Sequence[Game]) -> Mask:
        """The action mask of each game (1 for its legal moves), one row per game."""
        width = self.n_actions
        rows = mask_buffer(width * len(games))
        self.mark_batch(games if type(games) is list else list(games), rows, width)
        return mask_view(rows).reshape(len(games), width).copy()

    def mask_one(self, game: Game) -> Mask:
        """The action mask of one game; all zeros once it is over."""
        rows = mask_buffer(self.n_actions)
        self.mark(game, rows, 0)
        return mask_view(rows).copy()

    def fill(self, games: list[Game], seats: list[int], floats: vec[float], rows: vec[u8]) -> None:
        """observe and masks into the caller's buffers (each cleared first; at least
        len(games) x `size` and x `n_actions` long): the vectorised environment's every step,
        through buffers of its own that numpy views once."""
        clear_floats(floats, self.size * len(games))
        clear_mask(rows, self.n_actions * len(games))
        self.write_batch(games, seats, floats, self.size)
        self.mark_batch(games, rows, self.n_actions)

    def fill_to_move(self, game: Game, floats: vec[float], rows: vec[u8]) -> None:
        """The observation of the seat to move into `floats` and its mask into `rows` (each
        cleared first; at least `size` and `n_actions` long): the PettingZoo environment's
        every step, through buffers of its own that numpy views once."""
        clear_floats(floats, self.size)
        clear_mask(rows, self.n_actions)
        self.write(game, game.turn, floats, 0)
        self.mark(game, rows, 0)

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
