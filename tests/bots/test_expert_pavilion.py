"""The expert's Summer Pavilion search reads the engine's fields (`bots.expert.pavilion_fields`):
its move gains and leaf values must be the readable definitions' (`sdk.pavilion.move_gains`,
`pavilion_value.board_value` on the public state, with the weights of the game's number of
players where a table is shipped, and mcts's `sdk.pavilion.project_board`) to the last bit,
or the search would rank and value differently from what docs/bots.md describes. Checked over
whole games of both sides of the board with 2-4 players, by greedy bots (they fill stars and
win bonus tiles) and random ones (odd hands, dumps, early passes)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bots.expert.pavilion_fields import move_gains, projected_value, seat_value
from bots.expert.pavilion_value import board_value
from bots.expert.pavilion_weights import WEIGHTS
from bots.greedy_bot import GreedyBot
from referee.engine import new_game
from sdk import pavilion

PAVILION = ("pavilion", "pavilion-mono")


def _positions(ruleset: str, players: int, seed: int, greedy: bool) -> Iterator[Any]:
    """Every position of one game, the last (over) included."""
    game = new_game(ruleset, players=players, seed=seed)
    rng = random.Random(seed)
    bots = [GreedyBot(seed=seed + s) for s in range(players)]
    while not game.is_over():
        yield game
        if greedy:
            game.push(bots[game.turn].choose_move(game.copy()))
        else:
            game.push(rng.choice(game.legal_moves()))
    yield game


@pytest.mark.parametrize("ruleset", PAVILION)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fields_give_the_readable_gains_and_leaf_values_exactly(
    ruleset: str, players: int
) -> None:
    seen_phases, placed = set(), 0
    for seed, greedy in ((players, True), (players + 10, False)):
        for game in _positions(ruleset, players, seed, greedy):
            state = game.to_state()
            seen_phases.add(state["phase"])
            moves = game.legal_moves()
            assert move_gains(game, moves) == pavilion.move_gains(state, moves), str(game)
            for seat in range(players):
                if players in WEIGHTS:  # the learned value (3 players: no table shipped)
                    assert seat_value(game, seat) == board_value(state, seat), (seat, str(game))
                projected = pavilion.project_board(state, seat, next_round=True)
                assert projected_value(game, seat) == projected, (seat, str(game))
            placed += sum(6 - star.count(".") for star in state["boards"][0]["stars"])
    assert seen_phases == {"take", "play", "bonus", "over"}
    assert placed  # stars were filled along the way
