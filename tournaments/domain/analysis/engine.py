"""The analysis's engine behind one function: `value_moves` values a position's moves for the
seat to move, at a budget, deterministically for a seed. A stronger engine swaps in here (and
only here): everything above reads a `Valuation`.

What a value is: the **expected final score margin** of the seat to move, in points, estimated
at the end of the current round: that seat's score after the round's scoring (wall-tiling,
floor) plus the end-of-game bonuses in progress, projected by how near each is to done and how
many rounds are left (`bots.expert.values.leaf_values`), minus the same for the best other seat.
When the round ends the game, the projection is the final scores with their bonuses, exactly.
A round is the horizon because the next deal is chance: within a classic round there is none.
The positions given here are the public ones (`game.public_position`), without the record's later
deals: a line that ends the round deals from its own bag and lid, past the horizon (no value
changes with that deal).

How it is estimated:
- **exact** (classic, at most `EXACT_TILES` tiles left on the table, the rest of the round within
  `EXACT_NODES_PER_SIMULATION * budget` positions): every line of play to the round's end
  (`tournaments.domain.analysis.exact`), each seat playing for its own margin;
- otherwise **searched**: `budget` simulations of the expert bot's round tree, every candidate
  move a child of the root (`tournaments.domain.analysis.tree`); its rewards turned back into
  points.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from bots.expert import OutOfBudget, candidate_moves, net_fits, use_net
from tournaments.domain.analysis.exact import distinct_moves, exact_search, solvable
from tournaments.domain.analysis.tree import tree_values

ENGINE_NAME: Final = "azul-arena exact round end + expert round tree 2"
# The search where the exact one does not reach: (state, moves, kept, budget, seed) -> (each
# move's margin, the best one's index). A stronger engine swaps in here.
search_values = tree_values
EXACT_TILES: Final = 12  # the exact search is tried with at most this many tiles left ...
EXACT_NODES_PER_SIMULATION: Final = 100  # ... and stops after this many positions per simulation


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
    """Value the moves of `state` for the seat to move, and those of `include` (the played
    move, whatever it was): every distinct move where the exact search runs, else the moves
    worth considering (`bots.expert.values.candidate_moves`). Leaves are valued as the bot
    values them by default (its network where it was trained)."""
    use_net(net_fits(state))
    if solvable(state, EXACT_TILES):
        moves = _with(distinct_moves(state), include)
        try:
            values = exact_search(EXACT_NODES_PER_SIMULATION * budget).value_moves(state, moves)
        except OutOfBudget:
            pass
        else:
            best = max(range(len(moves)), key=lambda i: values[i])
            return _valuation(moves, values, best, exact=True)
    moves = _with(candidate_moves(state), include)
    wanted = {str(m) for m in include}
    kept = {i for i, m in enumerate(moves) if str(m) in wanted}
    values, best = search_values(state, moves, kept, budget, seed)
    return _valuation(moves, values, best, exact=False)


def _with(moves: list[Any], include: tuple[Any, ...]) -> list[Any]:
    """`moves` and those of `include` not among them."""
    listed = {str(m) for m in moves}
    return list(moves) + [m for m in include if str(m) not in listed]


def _valuation(moves: list[Any], values: list[float], best: int, exact: bool) -> Valuation:
    return Valuation(
        {str(m): v for m, v in zip(moves, values, strict=True)}, str(moves[best]), exact
    )
