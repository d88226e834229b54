"""MctsBot: Monte-Carlo tree search within the move's clock.

Idea: grow a search tree of the current round, one simulation at a time, until the clock
budget is spent; play the most visited move. Each simulation:

1. Selection: from the root, follow the child with the best UCB1 score (its mean reward for the
   seat that moved into it, plus an exploration term) while the node is fully expanded.
2. Expansion: add one untried move. Moves to the floor are tried last, and the root only keeps
   its `root_width` most promising moves (by their immediate value, as GreedyBot sees it).
3. Playout: a few plies of a cheap policy (a random move that puts tiles on a pattern line, not
   on the floor), then the position is valued with `sdk.helpers.evaluate_all`.
4. Backpropagation: every node on the path gets the reward of the seat that moved into it: a
   sigmoid of that seat's value minus the best other seat's (works for 2, 3 and 4 players).

Chance: the round end deals new tiles from the bag, which the bot cannot see in order. The tree
stops at the round end (its moves would depend on the deal); playouts that cross it continue in a
deal sampled from the bag: each simulation starts from one of several copies of the position
rebuilt with `from_state` under different random seeds (the public state: no hidden order), so
each deals its own sample of the bag.
"""

from __future__ import annotations

import math
import random
import time

import sdk
from sdk.helpers import boards, evaluate_all, evaluate_board, is_gray, relative_values


class _Node:
    __slots__ = ("move", "parent", "mover", "children", "untried", "visits", "total")

    def __init__(self, move, parent, mover: int, untried: list) -> None:  # type: ignore[no-untyped-def]
        self.move, self.parent, self.mover = move, parent, mover
        self.children: list[_Node] = []
        self.untried = untried
        self.visits = 0
        self.total = 0.0

    def best_child(self, c: float) -> _Node:
        log_n = math.log(self.visits)
        return max(self.children, key=lambda ch: ch.total / ch.visits
                   + c * math.sqrt(log_n / ch.visits))


class MctsBot(sdk.Bot):
    """UCT over the current round, short playouts, sampled deals, heuristic values."""

    name = "mcts"
    version = "1.0"
    exploration = 0.35
    root_width = 12
    playout_plies = 4
    scale = 6.0  # points: a lead of `scale` gives a reward of about 0.73
    samples = 8  # deals sampled (determinised copies of the position)

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.simulations = 0

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        deadline = time.monotonic() + self.clock.budget(0.75)
        root = _Node(None, None, -1, self._root_moves(state, deadline))
        public = state.to_state()
        roots = []
        self.simulations = 0
        while True:
            if len(roots) < self.samples:  # one more sampled deal, until there are enough
                roots.append(type(state).from_state(public, seed=self.rng.getrandbits(62)))
            self._simulate(root, roots[self.simulations % len(roots)].copy(), state.round)
            self.simulations += 1
            if time.monotonic() > deadline:
                break
        return max(root.children, key=lambda ch: ch.visits).move

    # -- set-up --------------------------------------------------------------------------------
    def _root_moves(self, state, deadline: float) -> list:  # type: ignore[no-untyped-def]
        """The root's `root_width` best moves by immediate value, the best one tried first
        (out of time, the moves valued so far)."""
        me, gray = state.turn, is_gray(state)
        scored = []
        for move in state.legal_moves():
            if scored and time.monotonic() > deadline:
                break
            child = state.copy()
            child.push(move)
            if child.round != state.round or child.is_over():
                value = relative_values(evaluate_all(child))[me]
            else:
                value = evaluate_board(boards(child)[me], gray)
            scored.append((value, self.rng.random(), move))
        scored.sort(reverse=True)
        return [m for _, _, m in reversed(scored[:self.root_width])]

    def _untried(self, state) -> list:  # type: ignore[no-untyped-def]
        """Moves to expand, popped from the end: floor moves first in the list, so tried last."""
        moves = list(state.legal_moves())
        self.rng.shuffle(moves)
        moves.sort(key=lambda m: not m.is_wall and m.line != 5)  # 5 = the floor line
        return moves

    # -- one simulation ------------------------------------------------------------------------
    def _simulate(self, root: _Node, sim, round_no: int) -> None:  # type: ignore[no-untyped-def]
        node = root
        while not node.untried and node.children:
            node = node.best_child(self.exploration)
            sim.push(node.move)
        in_round = not sim.is_over() and sim.round == round_no
        if node.untried and in_round:
            move = node.untried.pop()
            mover = sim.turn
            sim.push(move)
            in_round = not sim.is_over() and sim.round == round_no
            child = _Node(move, node, mover, self._untried(sim) if in_round else [])
            node.children.append(child)
            node = child
        self._playout(sim)
        rewards = [1.0 / (1.0 + math.exp(-v / self.scale))
                   for v in relative_values(evaluate_all(sim))]
        while node is not None:
            node.visits += 1
            if node.mover >= 0:
                node.total += rewards[node.mover]
            node = node.parent

    def _playout(self, sim) -> None:  # type: ignore[no-untyped-def]
        """`playout_plies` moves of the playout policy: tiles onto pattern lines, not the floor."""
        choice = self.rng.choice
        for _ in range(self.playout_plies):
            if sim.is_over():
                return
            moves = sim.legal_moves()
            lines = [m for m in moves if m.is_wall or m.line != 5]
            sim.push(choice(lines or moves))


if __name__ == "__main__":
    sdk.run(MctsBot)
