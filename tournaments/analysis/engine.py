"""The analysis's engine behind one function: `value_moves` values a position's moves for the
seat to move, at a budget, deterministically for a seed. A stronger engine swaps in here (and
only here): everything above reads a `Valuation`.

What a value is: the **expected final score margin** of the seat to move, in points, estimated
at the end of the current round: that seat's score after the round's scoring (wall-tiling,
floor) plus the end-of-game bonuses in progress, projected by how near each is to done and how
many rounds are left (`bots.expert.values.leaf_values`), minus the same for the best other seat.
When the round ends the game, the projection is the final scores with their bonuses, exactly.
A round is the horizon because the next deal is chance: within a classic round there is none.

How it is estimated:
- **exact** (classic, at most `EXACT_TILES` tiles left on the table, the rest of the round within
  `EXACT_NODES_PER_PLAYOUT * budget` positions): every line of play to the round's end
  (`tournaments.analysis.exact`), each seat playing for its own margin;
- otherwise **sampled**: about `budget` playouts to the round's end, spent by sequential halving
  over the candidate moves (`tournaments.analysis.sampled`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from bots.expert.values import candidate_moves
from tournaments.analysis.exact import ExactSearch, TooLarge, solvable
from tournaments.analysis.sampled import sampled_values

ENGINE_NAME: Final = "azul-arena round-end search 1"
DEFAULT_BUDGET: Final = 200  # playouts per decision (the sampled search)
EXACT_TILES: Final = 12  # the exact search is tried with at most this many tiles left ...
EXACT_NODES_PER_PLAYOUT: Final = 500  # ... and stops after this many positions per playout


@dataclass(frozen=True)
class Valuation:
    """What the engine found in one position: each valued move's margin for the seat to move
    (notation -> points), the best move, and whether the values are the exact search's."""

    values: dict[str, float]
    best: str
    exact: bool

    def value(self, move: str) -> float:
        return self.values[move]


def decision_seed(seed: int, ply: int) -> int:
    """The seed of one decision: the same for a ply however many of the game's plies are
    analysed, in what order or on which worker."""
    return random.Random(f"azul-arena analysis {seed} {ply}").getrandbits(63)


def value_moves(state: Any, budget: int, seed: int, include: tuple[Any, ...] = ()) -> Valuation:
    """Value the moves of `state` worth considering (`bots.expert.values.candidate_moves`) and
    those of `include` (the played move, whatever it was) for the seat to move."""
    moves = list(candidate_moves(state))
    listed = {str(m) for m in moves}
    for move in include:
        if str(move) not in listed:
            moves.append(move)
            listed.add(str(move))
    kept = {i for i, m in enumerate(moves) if any(str(m) == str(x) for x in include)}
    if solvable(state, EXACT_TILES):
        try:
            values = ExactSearch(EXACT_NODES_PER_PLAYOUT * budget).value_moves(state, moves)
        except TooLarge:
            pass
        else:
            best = max(range(len(moves)), key=lambda i: values[i])
            return _valuation(moves, values, best, exact=True)
    values, best = sampled_values(state, moves, kept, budget, seed)
    return _valuation(moves, values, best, exact=False)


def _valuation(moves: list[Any], values: list[float], best: int, exact: bool) -> Valuation:
    return Valuation(
        {str(m): v for m, v in zip(moves, values, strict=True)}, str(moves[best]), exact
    )
