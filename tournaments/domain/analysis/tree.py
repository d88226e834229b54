"""The tree-searched value of a position's moves where the rest of the round is too large to
search in full: the expert bot's round tree (`bots.expert.tree.RoundTree`: UCT with progressive
widening and minimax backups, leaves at the round's end), grown for `budget` simulations from
the position with every candidate move a child of the root.

A child's value is its mean reward blended with its backed-up minimax reward as the tree's own
selection blends them, turned back from the tree's reward (a sigmoid of the lead over the best
other seat, `bots.expert.values.lead_rewards`: the bot's own reward with 2 players; with 3-4 it
plays for its mean rank instead) into points of margin.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bots.expert import PARAMS, ExpertBot, Node, RoundTree, lead_rewards, ranked_moves
from sdk.family import family_helpers


def tree_values(
    state: Any, moves: list[Any], kept: set[int], budget: int, seed: int
) -> tuple[list[float], int]:
    """Each of `moves`' margin for the seat to move after `budget` simulations, and the index
    of the best (the most visited, as the expert plays). `kept` (the played move's index) is
    part of the engine interface; this engine needs it not: every move is a root child."""
    rng = random.Random(seed)
    params = PARAMS.get(state.family, PARAMS["pavilion"])
    me, players = state.turn, state.players
    others = ExpertBot.opponent_widths.get(players, ExpertBot.width)
    widths = [ExpertBot.width if seat == me else others for seat in range(players)]
    tree = RoundTree(rng, params, widths, len(moves), reward=lead_rewards)
    root = Node(None, -1)
    order = {str(m): k for k, m in enumerate(ranked_moves(state, rng))}
    # Every move is a child of the root (the root's width is their number: each is grown in
    # the first simulations, `kept` ones included), in the ranking's order: pop() takes the last.
    # Nothing depends on which move was played: a position's values are the same for any.
    root.untried = sorted(moves, key=lambda m: order.get(str(m), -1))
    worlds = _worlds(state, rng)
    for k in range(max(budget, len(moves))):
        tree.simulate(root, worlds[k % len(worlds)].copy(), state.round)
    by_move = {str(ch.move): ch for ch in root.children}
    values = [_margin(by_move[str(m)], params) for m in moves]
    best_child = max(root.children, key=lambda ch: (ch.visits, ch.total))
    best = next(i for i, m in enumerate(moves) if str(m) == str(best_child.move))
    return values, best


def _margin(node: Node, params: Any) -> float:
    mean = node.total / node.visits if node.visits else 0.5
    if node.minimax is not None:
        mean += params.minimax_weight * (node.minimax[node.mover] - mean)
    mean = min(max(mean, 1e-6), 1 - 1e-6)
    return float(params.scale * math.log(mean / (1 - mean)))


def _worlds(state: Any, rng: random.Random) -> list[Any]:
    """The games the simulations start from, in turn: the position itself where a round holds
    no chance (classic), else games rebuilt from the public state, each with a bag order of its
    own (Summer Pavilion's refills): the record's real bag is never looked at."""
    if not family_helpers(state).chance_within_round:
        return [state]
    public = state.to_state()
    return [state.from_state(public, rng.getrandbits(63)) for _ in range(ExpertBot.samples)]
