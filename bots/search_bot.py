"""SearchBot: depth-limited lookahead over the current round, against every opponent reply.

Idea: Azul is deterministic between two deals, so the rest of a round is a game tree with no
chance in it. The bot searches that tree by iterative deepening (depth 1, 2, 3, ... plies) until
its clock budget runs out, and plays the best move of the deepest search it completed.

- Minimax with alpha-beta pruning on `my value - the mean of the other seats' values`. With
  two players that is the plain zero-sum game. With three or four it is the *paranoid* search:
  every opponent is assumed to play against me (to minimise that difference), which makes the
  game two-sided again, so alpha-beta prunes and the search reaches my own next move (4 or 5
  plies) within the clock. The alternative, max-n (each seat maximises its own value, the
  values travel up as vectors), models the opponents better but cannot prune: it stopped at
  2-3 plies, before my next move, and played below greedy in 4-player Summer Pavilion.
  Classic Azul with 4 players is the exception (`greedy_opponents`): three opponents all
  against me are too pessimistic there, so each opponent plays its own best move by its own
  value, and only my moves branch, so the same clock reaches further along my own moves
  (measured in docs/notes/more-players.md; with 3 players, and in Summer Pavilion, the paranoid
  search did as well or better).
- Leaves: the depth limit, or the end of the round (the next deal is chance: the round end is a
  leaf), valued by `sdk.helpers.round_end_values` (classic: score after wall-tiling and floor,
  plus bonuses in progress and partial lines), or the end of the game (the real scores).
- Branching is 50-100 moves early in a round, so each node only searches its `width` most
  promising moves, ordered by the mover's own greedy value (the root searches more of them).

Summer Pavilion is searched the same way: a round is the taking of tiles (no chance: the
factories are dealt) and then their placement. What a hand of tiles is worth shows only in the
placement: the leaves are valued by `sdk.helpers.round_end_values`, which plays each seat's
hand onto its own stars (greedily, alone: placements hardly interact) and passes, keeping four
tiles and dropping the rest (`sdk.pavilion.project_board`). So a take is judged by the
placements it pays for, not by a flat value per tile. The placement phase offers hundreds of
moves (every space with every number of wild tiles, every choice of tiles kept when passing),
so a node first keeps the likeliest by the quick guess `sdk.pavilion.move_gains` and orders
those by the same projection, for the mover (the guess breaks the projection's ties: which
tiles a pass keeps, valued by what they buy next round). Turns do not alternate there (bonus
tiles, players who passed): each node asks whose turn it is.

Weaknesses, which the mcts bot addresses: every leaf is only a heuristic guess, so a move whose
worth shows after the horizon (tiles taken now, placed ten plies later) is judged by that guess;
the narrow width can prune the best reply away; with 3-4 players the paranoid opponents are
too pessimistic (they play for themselves, not all against me), and the greedy ones of
classic's 4 players too predictable (each has one reply); in Summer Pavilion the supply
refills the search sees are one draw of the bag, taken as certain, and the projection of a hand
is one greedy line of placements (a better order of the same tiles is not seen beyond the
horizon).
"""

from __future__ import annotations

import gc
import time
from typing import ClassVar

import sdk
from sdk import pavilion
from sdk.helpers import (
    boards,
    evaluate_all,
    evaluate_board,
    is_gray,
    move_gains,
    round_end_values,
)


class _OutOfTime(Exception):
    pass


class SearchBot(sdk.Bot):
    """Alpha-beta over the current round (paranoid with 3-4 players), deepening in time."""

    name = "search"
    version = "1.1"  # 1.1: 4-player classic opponents play their own best move
    rulesets = sdk.EVERY_RULESET
    # The move ordering of each family (a method's name): see the methods' docstrings.
    orderings: ClassVar[dict[str, str]] = {
        "classic": "_ordered_classic",
        "pavilion": "_ordered_pavilion",
    }
    root_width = 16
    width = 6
    max_depth = 12
    # (family, players) where each opponent plays its own best move instead of against me
    # (the module docstring): `bot compare` over 96 games, +103 Elo (52 to 155) on the margin
    # with 4 players in classic Azul, +18 (-36 to 72) with 3.
    greedy_opponents: ClassVar[set[tuple[str, int]]] = {("classic", 4)}

    parameters: ClassVar[dict[str, str]] = {
        "depth": "plies searched per move, whatever the clock (iterative deepening stops there)",
        "root": f"moves searched at the root (default {root_width}): a small change to test "
        "with `bot compare`",
    }

    def __init__(self, depth: int | None = None, root: int | None = None) -> None:
        super().__init__()
        # A fixed budget (`search:depth=3`): that depth every move, the same moves at any load;
        # the clock only stops a search that would otherwise time out.
        self.depth = depth
        if root is not None:
            self.root_width = root
        self.deadline = 0.0
        self.depth_reached = 0
        self.iteration = 0  # the depth of the search under way
        self.modelled = False  # this game's opponents play their own best move

    def on_game_start(self, info: sdk.GameInfo) -> None:
        # What exists now (modules, the engine's tables) lives as long as the process: frozen,
        # the collector's full passes skip it instead of scanning it at a random moment inside
        # some move's clock (the search makes thousands of game copies a move: it collects).
        gc.freeze()

    # -- the decision --------------------------------------------------------------------------
    def choose_move(self, state):  # type: ignore[no-untyped-def]
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        now = time.monotonic()
        # A fixed budget may use nearly all the clock (it rarely needs it); otherwise 60%.
        deadline = now + self.clock.budget(0.95 if self.depth else 0.6)
        self.me, self.round = state.turn, state.round
        self.modelled = (state.family, state.players) in self.greedy_opponents
        self.depth_reached = 0
        # The search copies the game thousands of times but makes no reference cycles: the
        # cyclic collector, off while it runs, has nothing to find and cannot pause it.
        gc.disable()
        try:
            # The root's ordering (a Summer Pavilion placement phase: tens of ms on a busy
            # core) may run on past the search's deadline, up to most of the move's time;
            # a process descheduled beyond that still owes a move: the quick guess.
            self.deadline = now + self.clock.budget(0.9)
            try:
                children = self._ordered(state, self.root_width)
            except _OutOfTime:
                gains = move_gains(state, moves)
                return moves[gains.index(max(gains))]
            self.deadline = deadline
            best = children[0][0]
            for depth in range(1, (self.depth or self.max_depth) + 1):
                self.iteration = depth
                try:
                    best = self._search_root(children, depth)
                except _OutOfTime:
                    if self.depth:
                        self.log.warning("out of time at depth %d of %d", depth, self.depth)
                    break
                self.depth_reached = depth
            return best
        finally:
            gc.enable()

    def _search_root(self, children, depth):  # type: ignore[no-untyped-def]
        best_move, best_value = children[0][0], float("-inf")
        for move, child in children:
            value = self._alphabeta(child, depth - 1, best_value, float("inf"))
            if value > best_value:
                best_move, best_value = move, value
        return best_move

    # -- the tree ------------------------------------------------------------------------------
    def _leaf(self, state, depth: int) -> bool:  # type: ignore[no-untyped-def]
        leaf = depth <= 0 or state.is_over() or state.round != self.round
        # A Summer Pavilion leaf's projection not yet cached takes a millisecond or two, and
        # a node has several: the clock is read at each leaf of the deeper searches too.
        if leaf and self.iteration > 1 and time.monotonic() > self.deadline:
            raise _OutOfTime
        return leaf

    def _ordered(self, state, width: int):  # type: ignore[no-untyped-def]
        """The `width` children best for the seat to move by its own value, as (move, child)."""
        if time.monotonic() > self.deadline:
            raise _OutOfTime
        ordering = getattr(self, self.orderings[state.family])
        return ordering(state, state.legal_moves(), width)  # type: ignore[no-any-return]

    def _ordered_classic(self, state, moves, width: int):  # type: ignore[no-untyped-def]
        """Classic Azul: every move, each valued by the mover's board after it (or the round's
        end, when it ends the round)."""
        mover = state.turn
        gray = is_gray(state)
        scored = []
        for move in moves:
            # Up to 200 moves with 4 players: the clock is read for each.
            if time.monotonic() > self.deadline:
                raise _OutOfTime
            child = state.copy()
            child.push(move)
            if child.round != state.round or child.is_over():
                value = evaluate_all(child)[mover]
            else:
                value = evaluate_board(boards(child)[mover], gray)
            scored.append((value, move, child))
        scored.sort(key=lambda t: -t[0])
        return [(m, c) for _, m, c in scored[:width]]

    def _ordered_pavilion(self, state, moves, width: int):  # type: ignore[no-untyped-def]
        """Summer Pavilion: a placement phase offers up to a few hundred moves (each space with
        each number of wild tiles, each choice of tiles kept when passing). The quick guess
        `move_gains` (one public-state read for all of them) keeps the `2 * width` likeliest;
        these are valued by the projection of the mover's round end and ordered."""
        mover = state.turn
        gains = pavilion.move_gains(state.to_state(), moves)
        # The likeliest first: the projection ties passes that keep as many tiles (it credits
        # every kept tile alike), and the sort below keeps their order.
        keep = sorted(range(len(moves)), key=lambda i: -gains[i])[: 2 * width]
        moves = [moves[i] for i in keep]
        scored = []
        for move in moves:
            # A projection not yet cached can take a millisecond or two: the clock is read
            # for each (the root's ordering, with no deadline, always completes).
            if time.monotonic() > self.deadline:
                raise _OutOfTime
            child = state.copy()
            child.push(move)
            scored.append((pavilion.project(child, mover), move, child))
        scored.sort(key=lambda t: -t[0])
        return [(m, c) for _, m, c in scored[:width]]

    def _alphabeta(self, state, depth: int, alpha: float, beta: float) -> float:  # type: ignore[no-untyped-def]
        if self._leaf(state, depth):
            return self._value(round_end_values(state))
        maximising = state.turn == self.me
        if self.modelled and not maximising:  # the opponent's own best move, no other
            ((_, child),) = self._ordered(state, 1)
            return self._alphabeta(child, depth - 1, alpha, beta)
        value = float("-inf") if maximising else float("inf")
        for _, child in self._ordered(state, self.width):
            score = self._alphabeta(child, depth - 1, alpha, beta)
            if maximising:
                value = max(value, score)
                alpha = max(alpha, value)
            else:
                value = min(value, score)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    def _value(self, values: list[float]) -> float:
        """What the search maximises (and the paranoid opponents minimise): my value minus the
        mean of the others' (with two players: my lead). A rank counts every seat I finish
        ahead of, not only the best one: against the best other seat alone the search played
        worse in 4-player games."""
        others = [v for seat, v in enumerate(values) if seat != self.me]
        return values[self.me] - sum(others) / len(others)


if __name__ == "__main__":
    sdk.run(SearchBot)
