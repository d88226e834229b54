"""The exact value of every move near a classic round's end: each line of play searched to the
round's end, valued by the round's scoring with the end-of-game bonuses projected (or, when the
round ends the game, the final scores with their bonuses).

Within a classic round nothing is left to chance once the factories are filled, so late in a
round the rest of it is a small game of perfect information. Each seat plays for its own margin
(its value minus the best other seat's): with 2 players that is minimax, searched by alpha-beta;
with 3-4 players each seat picks its own best (max^n), as the expert bot's solver models them.
The leaves are `bots.expert.values.leaf_values`, the expert's own view of a round's end.
"""

from __future__ import annotations

import math
from typing import Any

from bots.expert import RoundSolver, candidate_moves, is_classic_engine, tiles_left


def margins(values: list[float]) -> list[float]:
    """Each seat's margin: its value minus the best of the other seats' (2 players: the lead)."""
    return [v - max(w for j, w in enumerate(values) if j != i) for i, v in enumerate(values)]


def solvable(state: Any, max_tiles: int) -> bool:
    """Whether the exact search is worth trying: a classic round with few tiles left."""
    return is_classic_engine(state) and tiles_left(state) <= max_tiles


def exact_search(max_nodes: int) -> RoundSolver:
    """The expert's round solver as the analysis asks it: every distinct move searched (no
    pruning), each seat playing for its margin, within `max_nodes` positions and no clock.
    `value_moves(state, moves)` gives each move's exact margin for the seat to move, or raises
    OutOfBudget when the rest of the round does not fit (the tree search values it then).
    Made here rather than subclassed: the solver is compiled (referee/engine/compiled.py), and
    an interpreted class may not derive from a compiled one."""
    return RoundSolver(
        me=0,  # value_moves sets the seat to move
        max_nodes=max_nodes,
        deadline=math.inf,
        scale=1.0,
        moves=distinct_moves,
        seat_values=margins,
    )


def distinct_moves(state: Any) -> list[Any]:
    """The legal moves, one of each set that leads to the same position (two factories holding
    the same tiles). Unlike the expert's search no floor dump is dropped, on any wall: with the
    floor full a dump costs nothing, and a tile on a pattern line may be worth less than that
    (an exhaustive search finds such positions: tests/tournaments/test_analysis.py)."""
    return candidate_moves(state, keep_dumps=True)
