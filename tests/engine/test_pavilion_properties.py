"""Property tests (hypothesis) over random Summer Pavilion games, both rulesets, 2-4 players."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import PavilionGame, game_from_state, new_game, replay
from tests.engine.pavilion_positions import COLOURS, tile_count

MAX_MOVES = 5000  # far above any real game

games = st.tuples(
    st.sampled_from(["pavilion", "pavilion-mono"]),
    st.integers(2, 4),
    st.integers(0, 2**40),
    st.integers(0, 2**32),
    st.permutations(list(COLOURS)).map("".join),
    st.floats(0.0, 1.0),
)
Args = tuple[str, int, int, int, str, float]
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(
    ruleset: str, players: int, seed: int, choice_seed: int, wild_order: str, pass_rate: float
) -> Iterator[PavilionGame]:
    """Yield the game before every move and once more at the end (the same object, mutated).
    `pass_rate`: how often a pass is chosen when a placement is possible (0 = never)."""
    game = new_game(ruleset, players, seed=seed, wild_order=wild_order)
    assert isinstance(game, PavilionGame)
    rnd = random.Random(choice_seed)
    for _ in range(MAX_MOVES):
        yield game
        if game.is_over():
            return
        moves = game.legal_moves()
        assert moves, f"no legal move while the game runs: {game!r}"
        active = [m for m in moves if not m.is_pass]
        game.push(rnd.choice(active if active and rnd.random() >= pass_rate else moves))
    raise AssertionError(f"game did not end within {MAX_MOVES} moves")


@FAST
@given(games)
def test_property_132_tiles_always_accounted_for(args: Args) -> None:
    for game in random_game(*args):
        assert tile_count(game.to_state()) == {c: 22 for c in COLOURS}


@FAST
@given(games)
def test_property_every_game_ends_after_6_rounds(args: Args) -> None:
    rounds = set()
    for game in random_game(*args):
        rounds.add(game.round)
    assert game.is_over() and rounds == {1, 2, 3, 4, 5, 6}
    assert len(game.round_scores) == 6 and game.legal_moves() == ()


@FAST
@given(games)
def test_property_no_score_below_zero(args: Args) -> None:
    for game in random_game(*args):
        assert min(game.scores) >= 0
    assert all(min(s) >= 0 for s in game.round_scores)


@FAST
@given(games)
def test_property_a_record_replays_to_the_same_final_state(args: Args) -> None:
    *_, game = random_game(*args)
    record = json.loads(json.dumps(game.record()))
    again = replay(record)
    assert again.to_state() == game.to_state()
    assert again.round_scores == game.round_scores and again.scores == game.scores


@FAST
@given(games)
def test_property_state_round_trip_and_legal_moves(args: Args) -> None:
    for game in random_game(*args):
        state = game.to_state()
        rebuilt = game_from_state(state, seed=0)
        assert rebuilt.to_state() == state
        assert rebuilt.legal_moves() == game.legal_moves()
        for move in game.legal_moves()[:20]:
            assert game.is_legal(move)


@FAST
@given(games)
def test_property_legal_moves_are_exactly_the_pushable_ones(args: Args) -> None:
    every = list(PavilionGame.moves_by_notation().values())
    rnd = random.Random(args[2])
    for game in random_game(*args):
        if rnd.random() > 0.1:
            continue
        legal = set(game.legal_moves())
        for move in rnd.sample(every, 150) + list(legal)[:30]:
            assert game.is_legal(move) == (move in legal), (str(move), game.phase)
