"""How a position becomes numbers: one encoding per game family, chosen by the ruleset's family.

An `Encoding` turns engine games into the observation vector (float32, the same layout for every
ruleset and player count of its family, seen from one seat) and moves into actions (the
engine's own move index: a fixed action space per family). It works in two steps so that a
batch of games costs one numpy pass: `gather(game, seat)` reads the engine's compact fields as a
list of ints (Python, per game), `decode(rows)` spreads a batch of them into features (numpy,
per batch).

The family's encoding lives in its own module (`classic.py`, `pavilion.py`) and is found by
`encoding_for` from `get_ruleset(r).family`: the one place a new family plugs in (and what a
family descriptor will carry when the engine has one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.engine import Game, get_ruleset

# Board slots in every observation: the largest table of any ruleset (2-4 players). Slots of
# absent seats are zeros, so one policy reads games of any player count.
MAX_SEATS = 4

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]


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


class Encoding:
    """The observation and action layout of one family for one player count."""

    family: str = ""
    fields: tuple[Field, ...] = ()
    # Every move of the family, by action number (= the engine's move.index).
    moves: tuple[Any, ...] = ()

    def __init__(self, players: int) -> None:
        self.players = players
        self.size = sum(f.size for f in self.fields)
        self.n_actions = len(self.moves)
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])
        self._indexes: dict[tuple[Any, ...], npt.NDArray[np.int64]] = {}
        self.offsets: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            self.offsets[f.name] = slice(start, start + f.size)
            start += f.size

    def gather(self, game: Game, seat: int) -> list[int]:
        """The compact fields of `game` seen from `seat`, as ints (decode reads them)."""
        raise NotImplementedError

    def decode(self, rows: Ints) -> Floats:
        """Observations (N, size) from gathered rows (N, K)."""
        raise NotImplementedError

    def observe(self, games: Sequence[Game], seats: Sequence[int]) -> Floats:
        """The observation of each game from the seat beside it, one row per game."""
        flat: list[int] = []
        for game, seat in zip(games, seats, strict=True):
            flat += self.gather(game, seat)
        rows = np.array(flat, dtype=np.int64).reshape(len(games), -1)
        return self.decode(rows)

    def field(self, observation: Floats, name: str) -> Floats:
        """The block `name` of one observation (or a batch), in its documented shape."""
        f = next(f for f in self.fields if f.name == name)
        return observation[..., self.offsets[name]].reshape(*observation.shape[:-1], *f.shape)

    def mask_into(self, mask: npt.NDArray[np.int8], games: Sequence[Game]) -> None:
        """Set row i of `mask` (zeroed by the caller) to game i's legal moves."""
        width = mask.shape[1]
        flat = mask.reshape(-1)
        cache = self._indexes
        parts = []
        for i, game in enumerate(games):
            legal = game.legal_moves()
            found = cache.get(legal)  # the same legal set recurs often (a tuple of shared moves)
            if found is None:
                found = np.array([m.index for m in legal], np.int64)
                if len(cache) < 100_000:
                    cache[legal] = found
            parts.append(found + i * width)
        if parts:
            flat[np.concatenate(parts)] = 1

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


def one_hot(values: Ints, n: int) -> Floats:
    """values (...,) -> (..., n) float32; -1 and other out-of-range values give zeros."""
    hot: Floats = (values[..., None] == np.arange(n)).astype(np.float32)
    return hot


def bits(values: Ints, n: int) -> Floats:
    """The low `n` bits of each value, bit i at index i: (...,) -> (..., n)."""
    return ((values[..., None] >> np.arange(n)) & 1).astype(np.float32)


def packed8(values: Ints, n: int) -> Ints:
    """Multisets packed 8 bits per colour -> counts (..., n)."""
    return (values[..., None] >> (8 * np.arange(n))) & 255


@cache
def encoding_for(ruleset: str, players: int) -> Encoding:
    """The encoding of `ruleset`'s family for `players` seats (EngineError for an unknown one)."""
    rules = get_ruleset(ruleset)
    rules.check_players(players)
    if rules.family == "classic":
        from sdk.rl.encoding.classic import ClassicEncoding

        return ClassicEncoding(players)
    if rules.family == "pavilion":
        from sdk.rl.encoding.pavilion import PavilionEncoding

        return PavilionEncoding(players)
    raise NotImplementedError(f"no observation encoding for the {rules.family} family yet")
