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

from typing import Any

from bots.expert.solver import tiles_left
from bots.expert.values import CENTRE, is_classic_engine, leaf_values
from sdk.helpers import move_gains

EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry holds: the value, or a bound on it


class TooLarge(Exception):
    """The rest of the round does not fit in the node budget: the tree search values it."""


def margins(values: list[float]) -> list[float]:
    """Each seat's margin: its value minus the best of the other seats' (2 players: the lead)."""
    return [v - max(w for j, w in enumerate(values) if j != i) for i, v in enumerate(values)]


def solvable(state: Any, max_tiles: int) -> bool:
    """Whether the exact search is worth trying: a classic round with few tiles left."""
    return is_classic_engine(state) and tiles_left(state) <= max_tiles


class ExactSearch:
    """The exact margins of the moves of one position, within `max_nodes` positions searched."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[int, float]] = {}
        self.maxn_table: dict[tuple[Any, ...], list[float]] = {}

    def value_moves(self, state: Any, moves: list[Any]) -> list[float]:
        """The margin of the seat to move after each of `moves` (TooLarge when it does not fit).
        Every listed move gets its exact value, with a full window: the best move's and the
        played move's values both count, not only which is better."""
        self.round: int = state.round
        self.me: int = state.turn
        out = []
        for move in moves:
            child = state.copy()
            child.push(move)
            if state.players == 2:
                out.append(self._alphabeta(child, float("-inf"), float("inf")))
            else:
                out.append(self._maxn(child)[self.me])
        return out

    def _done(self, state: Any) -> bool:
        return bool(state.round != self.round or state.is_over())

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooLarge

    def _alphabeta(self, state: Any, alpha: float, beta: float) -> float:
        """My margin at the round's end (2 players), by alpha-beta with a table of bounds."""
        self._tick()
        if self._done(state):
            return margins(leaf_values(state))[self.me]
        key = position_key(state)
        found = self.table.get(key)
        if found is not None:
            kind, value = found
            if kind == EXACT or (kind == LOWER and value >= beta):
                return value
            if kind == UPPER and value <= alpha:
                return value
        lo, hi = alpha, beta
        maximising = state.turn == self.me
        best = float("-inf") if maximising else float("inf")
        for move in _ordered(state):
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
        """Every seat's margin at the round's end, each seat to move taking its own best."""
        self._tick()
        if self._done(state):
            return margins(leaf_values(state))
        key = position_key(state)
        found = self.maxn_table.get(key)
        if found is not None:
            return found
        mover, best = state.turn, None
        for move in distinct_moves(state):
            child = state.copy()
            child.push(move)
            values = self._maxn(child)
            if best is None or values[mover] > best[mover]:
                best = values
        assert best is not None  # a position inside a round has a legal move
        self.maxn_table[key] = best
        return best


def distinct_moves(state: Any) -> list[Any]:
    """The legal moves, one of each set that leads to the same position (two factories holding
    the same tiles). Unlike the expert's `candidate_moves` no floor dump is dropped: with the
    floor full a dump costs nothing, and a tile on a pattern line may be worth less than that
    (an exhaustive search finds such positions: tests/tournaments/test_analysis.py)."""
    moves = state.legal_moves()
    if state.phase != "take":
        return list(moves)
    factories, seen, out = state._factories, set(), []
    for move in moves:
        if move.source != CENTRE:
            key = (factories[move.source], move.colour, move.line)
            if key in seen:
                continue
            seen.add(key)
        out.append(move)
    return out


def _ordered(state: Any) -> list[Any]:
    """The distinct moves, the mover's best immediate gain first: alpha-beta cuts sooner."""
    moves = distinct_moves(state)
    gains = move_gains(state, moves)
    return [moves[i] for i in sorted(range(len(moves)), key=lambda i: -gains[i])]


def position_key(state: Any) -> tuple[Any, ...]:
    """What decides the rest of a classic round (walls and scores change only at its end):
    whose turn, the table and every seat's lines, floor and wall."""
    return (
        state.turn,
        state.phase,
        state._wall_next,
        tuple(state._factories),
        state._centre,
        state._marker_in_centre,
        tuple(state._line_colour),
        tuple(state._line_count),
        tuple(state._floor_count),
        tuple(state._wall),
        tuple(state._cells),
    )
