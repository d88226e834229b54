"""MctsBot: Monte-Carlo tree search over the current round, within the move's clock.

Idea: between two deals Azul has no chance and no hidden information, so the rest of a round is
a plain game tree. The bot grows that tree one simulation at a time until its clock budget is
spent, then plays the most visited move. Each simulation:

1. Selection: from the root, follow the child with the best UCB1 score (its mean reward for the
   seat that moved into it, plus an exploration term) while the node is fully expanded.
2. Expansion: add one untried move. A node only ever tries its `width` most promising moves
   (the root `root_width`), best first, ranked by `sdk.helpers.move_gain`: the points the move
   brings right away, minus its floor penalty. Azul has 50-100 moves early in a round, most of
   them poor: this prior is what lets the search go deep enough to see replies. With 3 or 4
   players an opponent's node tries fewer (`opponent_widths`): between two of the bot's moves
   every other seat moves once, and two or three plies of 8 replies each are more lines than a
   move's simulations can visit; the tree would stop before the bot's own next move. Some 25
   lines of replies fit: 5 a node with 3 players, 3 with 4.
3. Playout: to the end of the round (the next deal is chance: the tree and the playouts stop
   there), with a cheap but sensible policy: of a few random legal moves, the one with the best
   `move_gain`. The round end is valued with `sdk.helpers.round_end_values` (classic: the score
   after wall-tiling and floor, plus credit for end bonuses in progress and partial lines).
4. Backpropagation: every node on the path gets the reward of the seat that moved into it: a
   sigmoid of that seat's value minus the best other seat's (max^n style: each seat maximises
   its own reward, which works for 2, 3 and 4 players).

The tree is kept between moves: when the bot moves again in the same round, the subtree of the
position it finds (its last move, then the opponents' replies) becomes the new root. At 0.1 s a
move (a 60 ms budget) it runs some 300-1,000 simulations in classic Azul (fewer early in a
round, more late) and about 1,000 in Summer Pavilion (below).

Summer Pavilion: a round is the taking of tiles, then their placement, so what the tiles taken
are worth shows only in the placement (a hand that completes a star against one thrown away at
-1 a tile). There the simulation has no random playout: the new leaf is valued at once by
`round_end_values`, which plays each seat's hand onto its own stars and passes
(`sdk.pavilion.project_board`). That projection is a playout of its own, greedy and
deterministic, of the part of the round that decides a hand's worth, and it costs a tenth of a
real placement phase: some 1,000 simulations a move instead of 50-100, and a tree that reaches
the end of the taking. A lower exploration constant (`explorations`) fits values that vary
less than playout results do. (Playouts tried and not kept: random ones, best-of-a-few, and
greedy placement phases with noise; each judged a hand by its luck or was too slow for the
tree to see the replies.) The chance inside a round (the supply refilled from the bag after
bonus tiles) is sampled: each simulation's copy of the game draws its refills from one of
`samples` orders of the bag the public state shows.

What it knows that search does not: the round after this one. A seat that passes keeps up to
four tiles for the next round, and the next round's wild colour is known in advance (the wild
order): a kept tile of that colour will pay for any placement, one of a colour with room left
on the seat's stars for some, one of a colour with no room for none (it costs its point at the
game's end all the same). The leaf's projection chooses and values the kept tiles by that
(`round_end_values(next_round=True)`, `sdk.pavilion.next_round_values`), where search's
leaves credit every kept tile alike (only its move ordering tells them apart); so the tree
judges a pass, and the takes that lead to it, by the next round too. And who starts it: the
holder of the start-player token places first (the first pick of the bonus tiles) and takes
first next round; search sees only what taking the token costs (a point a tile), mcts's leaves
credit it `sdk.pavilion.START_TOKEN` as well.
The ladder it makes with the other bots is measured in docs/strength.md.

Weaknesses: the playout policy is a guess and the bot trusts its averages (a line the policy
plays badly looks bad); the tree stops at the round end, so plans longer than a round (a star
filled over three rounds) live only in the heuristic's credit for bonuses in progress. In
Summer Pavilion it averages values of one heuristic, the projection, where search takes their
minimax: the two rungs see nearly the same things (mcts also the next round's worth of the
kept tiles), and mcts is ahead mostly by growing its tree where the play is (deeper on the
likely lines); its margin over search is thinner there than in classic Azul.
"""

from __future__ import annotations

import gc
import math
import random
import time
from typing import Any, ClassVar

import sdk
from sdk.family import family_helpers
from sdk.helpers import move_gains, relative_values, round_end_values

# The share of a move's time mcts thinks (`sdk.Clock.budget`): the rest is a margin a student's
# bot built on it can spend on its own work before and after the search.
MCTS_SHARE = 0.6


class _Node:
    """A position in the tree, reached by `move` made by seat `mover`. Nodes know their children
    but not their parent: without reference cycles a tree is freed as soon as it is dropped."""

    __slots__ = ("children", "move", "mover", "total", "untried", "visits")

    def __init__(self, move: Any, mover: int) -> None:
        self.move, self.mover = move, mover
        self.children: list[_Node] = []
        self.untried: list[Any] | None = None  # moves to expand, the most promising last
        self.visits = 0
        self.total = 0.0  # sum of the rewards of `mover`

    def best_child(self, c: float) -> _Node:
        log_n = math.log(self.visits)
        return max(
            self.children, key=lambda ch: ch.total / ch.visits + c * math.sqrt(log_n / ch.visits)
        )


class MctsBot(sdk.Bot):
    """UCT over the current round: greedy-ranked expansion, greedy-ish playouts to the round
    end (Summer Pavilion: the projection of each hand instead), heuristic values there, the
    tree reused between moves of a round."""

    name = "mcts"
    version = "2.0"
    rulesets = sdk.EVERY_RULESET
    # UCB1's exploration constant by family: Summer Pavilion's leaves are valued by a
    # deterministic projection, whose values vary less than classic playouts' results.
    explorations: ClassVar[dict[str, float]] = {"classic": 0.35, "pavilion": 0.2}
    root_width = 16
    width = 8
    opponent_widths: ClassVar[dict[int, int]] = {
        3: 5,
        4: 3,
    }  # an opponent's node, by players (see the module docstring)
    sample = 3  # playout policy: the best of this many random legal moves
    # The playout policy of each family (a method's name): see the methods' docstrings.
    playouts: ClassVar[dict[str, str]] = {"classic": "_sampled_playout", "pavilion": "_no_playout"}
    scale = 6.0  # points: a lead of `scale` gives a reward of about 0.73
    samples = 8  # Summer Pavilion: orders of the bag the simulations draw refills from

    parameters: ClassVar[dict[str, str]] = {
        "iterations": "simulations per move, whatever the clock"
    }

    def __init__(self, seed: int | None = None, iterations: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)  # the referee reseeds it at each game start
        # A fixed budget (`mcts:iterations=400`): this many simulations a move, the same moves
        # at any load; the clock only stops a search that would otherwise time out.
        self.iterations = iterations
        self.simulations = 0  # of the last decision
        self.tree: tuple[Any, _Node] | None = None  # (position, node) after the last move

    def on_game_start(self, info: sdk.GameInfo) -> None:
        self.tree = None
        # What exists now (modules, the engine's tables) lives as long as the process: frozen,
        # the collector's full passes skip it instead of scanning it at a random moment inside
        # some move's clock (tens of ms).
        gc.freeze()

    def choose_move(self, state: Any) -> Any:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        fixed = self.iterations  # a fixed budget may use nearly all the clock: it rarely needs it
        deadline = time.monotonic() + self.clock.budget(0.95 if fixed else MCTS_SHARE)
        exploration = self.explorations[state.family]
        root = self._reused_root(state) or _Node(None, -1)
        # A kept tree grew in other draws of the bag (Summer Pavilion): a child it tried may be
        # a bonus tile this supply does not hold.
        legal = set(moves)
        root.children = [child for child in root.children if child.move in legal]
        tried = {child.move for child in root.children}
        root.untried = [m for m in self._ranked(state, self.root_width) if m not in tried]
        worlds = self._worlds(state)
        me, players = state.turn, state.players
        opponents = self.opponent_widths.get(players, self.width)
        widths = [self.width if seat == me else opponents for seat in range(players)]
        self.simulations = 0
        # The tree has no reference cycles (see _Node), so the cyclic garbage collector has
        # nothing to find: switched off while searching, it stops scanning the thousands of new
        # objects (about a third of the time) and pausing tens of ms at a random moment.
        gc.disable()
        try:
            while True:
                world = worlds[self.simulations % len(worlds)].copy()
                self._simulate(root, world, state.round, exploration, widths)
                self.simulations += 1
                if fixed is not None and self.simulations >= fixed:
                    break
                if time.monotonic() > deadline:
                    if fixed is not None:
                        self.log.warning(
                            "out of time after %d of %d simulations", self.simulations, fixed
                        )
                    break
        finally:
            gc.enable()
        best = max(root.children, key=lambda ch: ch.visits)
        after = state.copy()
        after.push(best.move)
        self.tree = (after, best)
        return best.move

    def _worlds(self, state: Any) -> list[Any]:
        """The games the simulations start from. Classic Azul has no chance inside a round: the
        position itself. Summer Pavilion refills its supply from the bag after bonus tiles: the
        public state shows what the bag holds, not its order, so `samples` games rebuilt from it
        with orders of their own, taken in turn (a refill is not a certainty)."""
        if not family_helpers(state).chance_within_round:
            return [state]
        public = state.to_state()
        return [state.from_state(public, self.rng.getrandbits(63)) for _ in range(self.samples)]

    # -- the tree ------------------------------------------------------------------------------
    def _ranked(self, state: Any, width: int) -> list[Any]:
        """The `width` most promising moves by `move_gain`, the best last (popped first)."""
        moves = state.legal_moves()
        gains = [
            (g, self.rng.random(), m) for g, m in zip(move_gains(state, moves), moves, strict=True)
        ]
        gains.sort()
        return [m for _, _, m in gains[-width:]]

    def _reused_root(self, state: Any) -> _Node | None:
        """The node of the last decision's tree that `state` reached (see `reused_root`)."""
        tree, self.tree = self.tree, None
        found: _Node | None = reused_root(tree, state)
        return found

    def _simulate(
        self, root: _Node, sim: Any, round_no: int, exploration: float, widths: list[int]
    ) -> None:
        node, path = root, [root]
        # Summer Pavilion refills its supply from the bag within a round, and this copy's bag
        # may draw other tiles than the copies that grew the tree: a tree move (a bonus tile)
        # can be illegal here. The simulation then goes on from the node before it.
        tree_holds = True
        while True:  # 1. selection
            if node.untried is None:  # ranked on its second visit: most leaves never get one
                in_round = sim.round == round_no and not sim.is_over()
                node.untried = self._ranked(sim, widths[sim.turn]) if in_round else []
            if node.untried or not node.children:
                break
            child = node.best_child(exploration)
            try:
                sim.push(child.move)
            except ValueError:  # IllegalMoveError: see above
                tree_holds = False
                break
            node = child
            path.append(node)
        if node.untried and tree_holds:  # 2. expansion
            move = node.untried.pop()
            mover = sim.turn
            try:
                sim.push(move)
            except ValueError:  # ranked in another copy's chance, as above
                tree_holds = False
            if tree_holds:
                child = _Node(move, mover)
                node.children.append(child)
                path.append(child)
        self._playout(sim, round_no)  # 3. playout
        rewards = [
            1.0 / (1.0 + math.exp(-v / self.scale))
            for v in relative_values(round_end_values(sim, next_round=True))
        ]
        for node in path:  # 4. backpropagation
            node.visits += 1
            if node.mover >= 0:
                node.total += rewards[node.mover]

    def _playout(self, sim: Any, round_no: int) -> None:
        """Play to the end of the round with the family's playout policy (`playouts`)."""
        getattr(self, self.playouts[sim.family])(sim, round_no)

    def _sampled_playout(self, sim: Any, round_no: int) -> None:
        """Classic Azul: each move the best `move_gain` of a few random ones."""
        choice = self.rng.choice
        while sim.round == round_no and not sim.is_over():
            moves = sim.legal_moves()
            sampled = [choice(moves) for _ in range(self.sample)]
            gains = move_gains(sim, sampled)
            sim.push(sampled[gains.index(max(gains))])

    def _no_playout(self, sim: Any, round_no: int) -> None:
        """Summer Pavilion: none. The leaf is valued as it stands by `round_end_values`, whose
        projection of each seat's placements is the playout (see the module docstring)."""


def reused_root(tree: tuple[Any, Any] | None, state: Any) -> Any:
    """The node of the last decision's tree (`tree`: the position after the bot's move and its
    node) that `state` reached: below the move the bot played, the opponents' replies (a few
    plies, found by comparing public states). None when the round has changed or the replies
    were moves the tree never tried. Any tree whose nodes have `children`, `move` and `visits`
    (mcts's, expert's)."""
    if tree is None:
        return None
    target = state.to_state()
    stack, budget = [(*tree, 0)], 64  # at most `budget` positions compared
    while stack and budget > 0:
        position, node, depth = stack.pop()
        if position.round != state.round or position.is_over():
            continue
        budget -= 1
        if position.to_state() == target:
            return node
        if depth < state.players - 1:
            # Most visited last, so tried first: the likeliest replies.
            for child in sorted(node.children, key=lambda ch: ch.visits):
                after = position.copy()
                try:
                    after.push(child.move)
                except ValueError:  # tried in another draw of the bag (a bonus tile)
                    continue
                stack.append((after, child, depth + 1))
    return None
