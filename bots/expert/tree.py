"""The expert's Monte-Carlo tree over the current round (the next deal is chance: the round's
end is the horizon, valued by `values.leaf_values`).

What differs from `bots/mcts_bot.py`:
- progressive widening instead of fixed widths: a node searches its best moves by the
  immediate-gain ranking first and admits the next one as its visits grow
  (`width + sqrt(visits) / widen`), so a move the ranking undervalues (a denial, a line left
  to fill later) is still reached where the search spends its time, and never where it does
  not;
- the candidates are `values.candidate_moves`: no duplicate factories, no useless floor dumps,
  no pass that keeps fewer tiles than it could;
- leaf values cached by board (classic), so a simulation costs about half of mcts's; in Summer
  Pavilion the gains and leaves are read from the engine's fields (`pavilion_fields`), about a
  fifth of mcts's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from bots.expert.values import leaf_values, ranked_moves, rewards
from sdk.helpers import move_gains


class Node:
    """A position reached by `move` of seat `mover`. No parent link: without reference cycles a
    dropped tree is freed at once, and the cyclic collector may stay off during a search."""

    __slots__ = ("children", "minimax", "move", "mover", "total", "untried", "visits")

    def __init__(self, move: Any, mover: int) -> None:
        self.move, self.mover = move, mover
        self.children: list[Node] = []
        self.untried: list[Any] | None = None  # ranked candidates, the best last
        self.visits = 0
        self.total = 0.0  # sum of the rewards of `mover`
        # Every seat's reward by the heuristic, backed up max^n-style from the children grown
        # so far (implicit minimax backups); None until the node's position is valued.
        self.minimax: list[float] | None = None

    def best_child(self, c: float, weight: float) -> Node:
        """UCB1 on a blend of the mean reward and the backed-up heuristic one (`weight` of it):
        the mean of noisy playouts is slow to see a line refuted by a reply, the minimax value
        sees it as soon as that reply is in the tree (Lanctot et al., 2014)."""
        log_n = math.log(self.visits)
        best, best_score = self.children[0], -math.inf
        for ch in self.children:  # a loop, not max(key=...): compiled, it calls nothing
            mean = ch.total / ch.visits
            if ch.minimax is not None:
                mean += weight * (ch.minimax[ch.mover] - mean)
            score = mean + c * math.sqrt(log_n / ch.visits)
            if score > best_score:
                best, best_score = ch, score
        return best


class RoundTree:
    """UCT with progressive widening over the rest of a round, from one root."""

    def __init__(
        self,
        rng: Any,
        params: Any,
        widths: list[int],
        root_width: int,
        reward: Callable[[list[float], float], list[float]] = rewards,
    ) -> None:
        """`widths`: each seat's base width below the root, `root_width` the root's; `reward`
        turns the leaf's values into each seat's reward (the bot's: `values.rewards`)."""
        self.rng, self.params, self.widths, self.root_width = rng, params, widths, root_width
        self.reward = reward
        self.root: Node | None = None

    def simulate(self, root: Node, sim: Any, round_no: int) -> None:
        """One simulation on `sim` (a copy of the root position, consumed)."""
        self.root = root
        node, path = root, [root]
        reward: list[float] | None = None  # the leaf's, once valued
        while True:  # selection, with expansion where the node's width allows one more child
            if node.untried is None:
                in_round = sim.round == round_no and not sim.is_over()
                node.untried = ranked_moves(sim, self.rng) if in_round else []
            if node.untried and len(node.children) < self._width(node, sim.turn):
                move, mover = node.untried.pop(), sim.turn
                if not _push(sim, move):  # drawn from another copy's bag (Summer Pavilion)
                    break
                child = Node(move, mover)
                if self.params.minimax_weight:
                    reward = self.reward(leaf_values(sim), self.params.scale)
                    child.minimax = reward
                node.children.append(child)
                path.append(child)
                break
            if not node.children:
                break
            child = node.best_child(self.params.exploration, self.params.minimax_weight)
            if not _push(sim, child.move):
                break
            node = child
            path.append(node)
        if self.params.playout:
            self._playout(sim, round_no)
        if reward is None or self.params.playout:  # else the new child's value is the leaf's
            reward = self.reward(leaf_values(sim), self.params.scale)
        for node in reversed(path):
            node.visits += 1
            if node.mover >= 0:
                node.total += reward[node.mover]
            _back_up(node)

    def _width(self, node: Node, seat: int) -> int:
        base = self.root_width if node is self.root else self.widths[seat]
        return base + int(math.sqrt(node.visits) / self.params.widen)

    def _playout(self, sim: Any, round_no: int) -> None:
        """Classic Azul: to the round's end, each move the best immediate gain of a few random
        candidates (a sensible opponent, cheap enough for hundreds of playouts a move)."""
        draw, sample = self.rng.random, self.params.sample
        while sim.round == round_no and not sim.is_over():
            moves = sim.legal_moves()
            n = len(moves)
            # random() and a product, not choice(): choice's rejection sampling is Python code
            sampled = [moves[int(draw() * n)] for _ in range(sample)]
            gains = move_gains(sim, sampled)
            sim.push(sampled[gains.index(max(gains))])


def _back_up(node: Node) -> None:
    """The node's heuristic rewards become those of its child best for the seat that moves
    there (max^n: each seat picks its own best; with 2 players plain minimax)."""
    best: list[float] | None = None
    best_value = -math.inf
    for ch in node.children:  # a loop, not max(key=...): compiled, it calls nothing
        values = ch.minimax
        if values is not None and values[ch.mover] > best_value:
            best, best_value = values, values[ch.mover]
    if best is not None:
        node.minimax = best


def _push(sim: Any, move: Any) -> bool:
    """Play `move` on `sim`; False when it is illegal there (Summer Pavilion: the tree grew in
    other draws of the bag, where a bonus tile this copy's supply lacks was there)."""
    try:
        sim.push(move)
    except ValueError:  # IllegalMoveError
        return False
    return True
