"""ExpertBot: the strongest reference bot. A round of Azul has no chance once it is dealt
(classic; Summer Pavilion only its supply refills), so the bot searches the rest of the round
as the game of perfect information it is:

1. Near a classic round's end, exactly (`solver.RoundSolver`): every line of play to the
   round's end, when few enough tiles are left for it to fit in its node budget.
2. Otherwise a Monte-Carlo tree (`tree.RoundTree`) grown until the clock's budget (or the fixed
   number of simulations) is spent, kept between the bot's moves of a round.

The leaves are the round's end, valued by the round's scoring and what a board at a round's end
is worth in the rounds to come, learned from self-play (`values.leaf_values`; classic:
`learned.py`, Summer Pavilion: `pavilion_value.py`, each hand first placed and passed by mcts's
projection, read from the engine's fields by `pavilion_fields.py`). Summer Pavilion's refills
are drawn from `samples` orders of the bag rebuilt from the public state.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from typing import Any, ClassVar

import sdk
from bots.expert.solver import OutOfBudget, RoundSolver, estimated_nodes, tiles_left
from bots.expert.tree import Node, RoundTree
from bots.expert.values import is_classic_engine, net_fits, ranked_moves, use_net
from bots.mcts_bot import MCTS_SHARE, reused_root


@dataclass(frozen=True)
class Params:
    """The search's settings for one family."""

    exploration: float  # UCB1's constant: Summer Pavilion's projected leaves vary less
    playout: bool  # classic: sampled playouts to the round's end; pavilion: the projection
    scale: float = 6.0  # points: a lead of `scale` is a reward of about 0.73
    widen: float = 2.0  # progressive widening: one more child per `widen` of sqrt(visits)
    sample: int = 3  # playouts: the best immediate gain of this many random moves
    minimax_weight: float = 0.4  # selection: the backed-up heuristic's share (tree.Node)


PARAMS = {
    "classic": Params(exploration=0.35, playout=True),
    "pavilion": Params(exploration=0.2, playout=False),
}


class ExpertBot(sdk.Bot):
    """Exact ends of rounds, a progressively widened round tree elsewhere."""

    name = "expert"
    version = "1.1"  # 1.1: its 4-player Summer Pavilion leaf fitted on 720 games
    rulesets = sdk.EVERY_RULESET
    root_width = 12
    width = 6
    # An opponent's node's width with 3-4 players: the tree must reach the seat's next turn.
    opponent_widths: ClassVar[dict[int, int]] = {3: 4, 4: 3}
    samples = 8  # Summer Pavilion: orders of the bag the simulations draw refills from
    # Classic: the exact search is tried with at most this many tiles left on the table (by
    # players: 3 players make the widest trees for their tiles, max^n cannot prune) ...
    solve_tiles: ClassVar[dict[int, int]] = {2: 16, 3: 12, 4: 14}
    solve_nodes = 20  # ... and, at a fixed budget, within this many positions per simulation
    # ... and only when `solver.estimated_nodes` times this margin fits its node budget (the
    # estimate's error is about a factor of 2): a failed attempt's time is lost to the tree.
    solve_margin = 2.0
    solver_table_size = 100_000  # positions kept between the exact searches of a round (~50 MB)

    parameters: ClassVar[dict[str, str]] = {
        "iterations": "simulations per move, whatever the clock",
        "percent": "think this share of mcts's time instead (25: a quarter of it)",
        "net": "0: the linear fit's values; 1: the network's (learned.net_value); default: the"
        " network's in 2-player classic Azul and the Mini, where it was trained",
    }
    may_be_zero: ClassVar[frozenset[str]] = frozenset({"net"})

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        percent: int | None = None,
        net: int | None = None,
    ) -> None:
        super().__init__()
        if percent is not None and not 0 < percent <= 100:
            raise ValueError(f"percent={percent}: give a share of mcts's thinking time, 1 to 100")
        if net not in (None, 0, 1):
            raise ValueError(
                f"net={net}: give 1 (the network's values), 0 (the linear fit's) or leave it out"
            )
        # A coloured wall's future valued by the network (1) or the linear fit (0); None: the
        # network where it was trained (`values.net_fits`).
        self.net = None if net is None else bool(net)
        # `expert:percent=25` thinks a quarter of mcts's time: the strength at less time,
        # measured with `bench strength`; `percent=100` exactly mcts's.
        self.percent = percent
        if seed is not None:
            self.rng.seed(seed)  # the referee reseeds it at each game start
        # A fixed budget (`expert:iterations=400`): this many simulations a move, and an exact
        # search bounded in nodes, not seconds: the same moves at any load.
        self.iterations = iterations
        self.simulations = 0  # of the last decision
        self.solved = False  # whether the last decision was the exact search's
        self.solver_nodes = 0  # positions the last decision's exact search visited (0: none)
        # The exact search's positions per second of the clock, as measured on this machine
        # (its load included): what a time budget buys. A cautious start, then a running mean.
        self.solver_rate = 30_000.0
        self.tree: tuple[Any, Node] | None = None  # (position, node) after the last move
        self.unsolved = (-1, 0)  # (round, tiles left) where the exact search did not fit
        # The exact search's solved positions of this round (round, table): an attempt that
        # did not fit is not lost, the next one (fewer tiles left) starts from its positions.
        self.solver_table: tuple[int, dict[tuple[Any, ...], tuple[int, Any]]] = (-1, {})

    def on_game_start(self, info: sdk.GameInfo) -> None:
        self.tree = None
        self.unsolved = (-1, 0)
        self.solver_table = (-1, {})
        gc.freeze()  # the engine's tables live as long as the process: no collector passes

    def choose_move(self, state: Any) -> Any:
        moves = state.legal_moves()
        self.simulations, self.solver_nodes, self.solved = 0, 0, False
        if len(moves) == 1:
            return moves[0]
        start = time.monotonic()
        deadline = start + self.budget()
        use_net(net_fits(state) if self.net is None else self.net)
        gc.disable()  # no reference cycles are made: nothing for the collector to find
        try:
            move = self._solve(state, start, deadline)
            self.solved = move is not None
            if move is None:
                move = self._grow(state, deadline)
            return move
        finally:
            gc.enable()

    # The expert thinks all the clock affords but the SDK's reserve for the transport
    # (`Clock.budget(1.0)`), where mcts keeps 0.4 of it back, but never more than this many
    # seconds beyond mcts's: at 0.1 s a move the reserve binds first (70 ms), at 1 s a budget
    # of 0.9 of the clock came 3 times late in 20 games where mcts's margin had none.
    beyond_mcts = 0.01

    def budget(self) -> float:
        """Seconds to think about this move: the clock's whole budget, at most `beyond_mcts`
        more than mcts's (a fixed budget nearly all of it: it rarely needs it), or `percent` of
        mcts's."""
        if self.iterations:
            return self.clock.budget(0.95)
        if self.percent is not None:
            return self.clock.budget(MCTS_SHARE) * self.percent / 100
        return min(self.clock.budget(1.0), self.clock.budget(MCTS_SHARE) + self.beyond_mcts)

    def _solve(self, state: Any, start: float, deadline: float) -> Any:
        """The exact search's move, or None when the rest of the round does not fit: in its
        node budget (a fixed budget's: `solve_nodes` per simulation), before a third of the
        clock's budget (the tree then has the rest). A round whose rest did not fit is tried
        again only once fewer tiles are left."""
        if not is_classic_engine(state):
            return None
        tiles = tiles_left(state)
        failed_round, failed_tiles = self.unsolved
        if tiles > self.solve_tiles[state.players] or (
            failed_round == state.round and tiles >= failed_tiles
        ):
            return None
        until = start + (deadline - start) / 3
        if self.iterations is None:
            nodes, affordable = 10**9, self.solver_rate * (until - time.monotonic())
        else:
            nodes = affordable = self.solve_nodes * self.iterations
        if estimated_nodes(state) * self.solve_margin > affordable:
            return None  # the tree is the better use of this move's time
        table_round, table = self.solver_table
        if table_round != state.round or len(table) > self.solver_table_size:
            table = {}  # another round's positions never come again
        self.solver_table = (state.round, table)
        solver = RoundSolver(state.turn, nodes, until, PARAMS["classic"].scale, table)
        began = time.monotonic()
        try:
            move = solver.best_move(state)
        except OutOfBudget:
            self.unsolved = (state.round, tiles)
            return None
        finally:
            self.solver_nodes = solver.nodes
            self._measure_rate(solver.nodes, time.monotonic() - began)
        self.tree = None
        return move

    def _measure_rate(self, nodes: int, seconds: float) -> None:
        """Fold one exact search's positions per second into `solver_rate` (searches too
        short for the clock to tell are left out)."""
        if nodes >= 200 and seconds > 0.002:
            self.solver_rate += 0.3 * (nodes / seconds - self.solver_rate)

    def _grow(self, state: Any, deadline: float) -> Any:
        """The tree's move: simulations until the deadline or the fixed budget."""
        params = PARAMS[state.family]
        root = self._reused_root(state) or Node(None, -1)
        # A kept tree grew in other draws of the bag (Summer Pavilion): a child it tried may be
        # a bonus tile this supply does not hold. The root's candidates are ranked afresh.
        legal = set(state.legal_moves())
        root.children = [child for child in root.children if child.move in legal]
        tried = {child.move for child in root.children}
        root.untried = [m for m in ranked_moves(state, self.rng) if m not in tried]
        me, players = state.turn, state.players
        opponents = self.opponent_widths.get(players, self.width)
        widths = [self.width if seat == me else opponents for seat in range(players)]
        tree = RoundTree(self.rng, params, widths, self.root_width)
        worlds = self._worlds(state)
        self.simulations = 0
        while True:
            tree.simulate(root, worlds[self.simulations % len(worlds)].copy(), state.round)
            self.simulations += 1
            if self.iterations is not None and self.simulations >= self.iterations:
                break
            if time.monotonic() > deadline:
                if self.iterations is not None:
                    self.log.warning(
                        "out of time after %d of %d simulations", self.simulations, self.iterations
                    )
                break
        best = max(root.children, key=lambda ch: (ch.visits, ch.total))
        after = state.copy()
        after.push(best.move)
        self.tree = (after, best)
        return best.move

    def _worlds(self, state: Any) -> list[Any]:
        """The games the simulations start from, taken in turn: the position itself where no
        chance comes within a round (classic); else `samples` games rebuilt from the public
        state, each with an order of the bag of its own (Summer Pavilion's refills)."""
        if state.family == "classic":  # no chance between two deals
            return [state]
        public = state.to_state()
        return [state.from_state(public, self.rng.getrandbits(63)) for _ in range(self.samples)]

    def _reused_root(self, state: Any) -> Node | None:
        """The node of the last decision's tree that `state` reached (mcts's `reused_root`)."""
        tree, self.tree = self.tree, None
        found: Node | None = reused_root(tree, state)
        return found


if __name__ == "__main__":
    sdk.run(ExpertBot)
