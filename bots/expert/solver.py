"""The exact end of a classic round: every line of play to the round's end, no heuristic move
choice, once few enough tiles are left on the table.

The last plies of a round decide who takes the leftovers (the floor penalties, the lines
finished or left short); a tree that samples them can misjudge a forced sequence. When the rest
of the round fits in a node budget it is searched in full: alpha-beta on my lead with 2 players,
max^n (each seat for its own reward, `values.rewards`: its chance of finishing above each
other seat) with 3 or 4, both with a table of the positions already solved (the same position
is reached by taking the same tiles in another order). The leaves are the round's end valued
as the tree's are (`values.leaf_values`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from bots.expert.values import candidate_moves, leaf_values, rewards
from sdk.helpers import move_gains

EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is: exact, or a bound


class OutOfBudget(Exception):
    """The search met its node budget or its deadline: the tree decides instead."""


class RoundSolver:
    """Searches the rest of the current round of a ClassicGame in full, within `max_nodes`
    positions and before `deadline` (time.monotonic()). `table`: the positions an earlier
    search of the same round by the same seat solved (every entry is a finished node's value or
    bound, so a search that ran out of budget leaves only true ones): the next attempt starts
    from them instead of from nothing.

    `moves` lists the moves searched at a position (the bot's `candidate_moves`; the game
    analysis searches every distinct move) and `seat_values` turns the round-end values into
    what each seat maximises with 3-4 players (the bot: `rewards`, the tree's; the analysis:
    margins). With 2 players a leaf is my lead either way."""

    def __init__(
        self,
        me: int,
        max_nodes: int,
        deadline: float,
        scale: float,
        table: dict[tuple[Any, ...], tuple[int, Any]] | None = None,
        moves: Callable[[Any], list[Any]] = candidate_moves,
        seat_values: Callable[[list[float]], list[float]] | None = None,
    ) -> None:
        self.me, self.max_nodes, self.deadline, self.scale = me, max_nodes, deadline, scale
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[int, Any]] = {} if table is None else table
        self.moves = moves
        self.seat_values = seat_values or (lambda values: rewards(values, scale))

    def best_move(self, state: Any) -> Any:
        """The move that is best for the seat to move, by the exact search (OutOfBudget when
        the rest of the round does not fit)."""
        self.round = state.round
        moves = self.moves(state)
        best, best_value = moves[0], float("-inf")
        for move in moves:
            child = state.copy()
            child.push(move)
            if state.players == 2:
                value = self._alphabeta(child, best_value, float("inf"))
            else:
                value = self._maxn(child)[self.me]
            if value > best_value:
                best, best_value = move, value
        return best

    def value_moves(self, state: Any, moves: list[Any]) -> list[float]:
        """The value for the seat to move after each of `moves`, each with a full window (the
        played move's value counts, not only which move is better); OutOfBudget when the rest
        of the round does not fit."""
        self.round, self.me = state.round, state.turn
        out = []
        for move in moves:
            child = state.copy()
            child.push(move)
            if state.players == 2:
                out.append(self._alphabeta(child, float("-inf"), float("inf")))
            else:
                out.append(self._maxn(child)[self.me])
        return out

    def _tick(self) -> None:
        self.nodes += 1
        # The clock is read every 64 nodes: a fixed budget stops on nodes, the clock only
        # guards against a machine too slow for it.
        if self.nodes > self.max_nodes or (
            self.nodes & 63 == 0 and time.monotonic() > self.deadline
        ):
            raise OutOfBudget

    def _done(self, state: Any) -> bool:
        return state.round != self.round or state.is_over()

    def _alphabeta(self, state: Any, alpha: float, beta: float) -> float:
        """My lead at the round's end (2 players), by alpha-beta with a table of bounds."""
        self._tick()
        if self._done(state):
            values = leaf_values(state)
            return values[self.me] - values[1 - self.me]
        key = _key(state)
        found = self.table.get(key)
        if found is not None:
            kind, value = found
            if kind == EXACT or (kind == LOWER and value >= beta):
                return float(value)
            if kind == UPPER and value <= alpha:
                return float(value)
        lo, hi = alpha, beta
        maximising = state.turn == self.me
        best = float("-inf") if maximising else float("inf")
        for move in _ordered(state, self.moves):
            child = state.copy()
            child.push(move)
            value = self._alphabeta(child, alpha, beta)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        kind = UPPER if best <= lo else LOWER if best >= hi else EXACT
        self.table[key] = (kind, best)
        return best

    def _maxn(self, state: Any) -> list[float]:
        """Every seat's reward at the round's end (3-4 players): each seat to move takes the
        child best for itself (max^n, the tree's model of the other seats)."""
        self._tick()
        if self._done(state):
            return self.seat_values(leaf_values(state))
        key = _key(state)
        found = self.table.get(key)
        if found is not None:
            return list(found[1])
        mover = state.turn
        best: list[float] | None = None
        for move in self.moves(state):
            child = state.copy()
            child.push(move)
            values = self._maxn(child)
            if best is None or values[mover] > best[mover]:
                best = values
        assert best is not None  # a position inside a round has a legal move
        self.table[key] = (EXACT, best)
        return best


def _ordered(state: Any, listed: Callable[[Any], list[Any]] = candidate_moves) -> list[Any]:
    """The moves searched, the mover's best immediate gain first: alpha-beta cuts sooner."""
    moves = listed(state)
    gains = move_gains(state, moves)
    return [moves[i] for i in sorted(range(len(moves)), key=lambda i: -gains[i])]


def _key(state: Any) -> tuple[Any, ...]:
    """What decides the rest of a classic round: whose turn, the table, every seat's lines and
    floor (walls and scores change only at the round's end; the gray wall's choices then)."""
    return (
        state.turn,
        state.phase,
        state._wall_next,
        tuple(state._factories),
        state._centre,
        state._marker_in_centre,
        state._next_starter,  # who takes first next round: the leaf values credit it
        tuple(state._line_colour),
        tuple(state._line_count),
        tuple(state._floor_count),
        tuple(state._wall),
        tuple(state._cells),
    )


def tiles_left(state: Any) -> int:
    """Tiles on the table (factories and centre) of a ClassicGame: how much round is left."""
    on_factories = sum((code >> (3 * c)) & 7 for code in state._factories if code for c in range(5))
    centre = state._centre
    return on_factories + sum((centre >> (8 * c)) & 255 for c in range(5))


# log(nodes) ~ a + b * log(the product of the candidates' numbers along the greedy line),
# fitted on positions of classic rounds with 5-16 tiles left, solved from a fresh table:
# 2 players (alpha-beta) 218 positions, residual sd 0.69 (a factor of 2); 3 players (max^n,
# no cuts: about the product itself) 48 positions, sd 0.73; 4 players 30 positions, sd 0.77.
_SIZE_FIT = {2: (1.10, 0.69), 3: (0.40, 1.04), 4: (0.37, 1.00)}


def estimated_nodes(state: Any) -> float:
    """About how many positions `RoundSolver` visits to solve the rest of this classic round
    from nothing: from the product of the candidates' numbers along the line the solver
    searches first (each seat's best immediate gain), a few dozen positions' work. Cheap
    enough to ask at every move, so that an exact search is only tried when it will likely
    fit, and a failed one (its time lost to the tree) is rare."""
    game, round_no, log_product = state.copy(), state.round, 0.0
    while game.round == round_no and not game.is_over():
        moves = _ordered(game)
        log_product += math.log(len(moves))
        game.push(moves[0])
    a, b = _SIZE_FIT[min(max(state.players, 2), 4)]
    return math.exp(a + b * log_product)
