"""Property tests (hypothesis) over random games of all four classic rulesets, 2-4 players."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import ClassicGame, Move, new_game, replay
from referee.engine.classic.moves import ALL_MOVES, parse_move
from tests.engine.positions import COLOURS, tiles_in

CLASSIC = ["azul", "azul-mini", "azul-gray", "azul-greenbox"]
MAX_MOVES = 2000  # far above any real game (a round has at most 9 * 4 + 9 turns)

games = st.tuples(
    st.sampled_from(CLASSIC), st.integers(2, 4), st.integers(0, 2**40), st.integers(0, 2**32)
)
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(ruleset: str, players: int, seed: int, choice_seed: int) -> Iterator[ClassicGame]:
    """Yield the game before every move and once more at the end (the same object, mutated)."""
    game = new_game(ruleset, players, seed=seed)
    rnd = random.Random(choice_seed)
    for _ in range(MAX_MOVES):
        yield game
        if game.is_over():
            return
        moves = game.legal_moves()
        assert moves, f"no legal move while the game runs: {game!r}"
        game.push(rnd.choice(moves))
    raise AssertionError(f"game did not end within {MAX_MOVES} moves")


def finished(args: tuple[str, int, int, int]) -> ClassicGame:
    *_, game = random_game(*args)
    return game


@FAST
@given(games)
def test_property_100_tiles_always_accounted_for(args: tuple[str, int, int, int]) -> None:
    for game in random_game(*args):
        assert tiles_in(game.to_state()) == {c: 20 for c in COLOURS}


@FAST
@given(games)
def test_property_scores_never_negative(args: tuple[str, int, int, int]) -> None:
    for game in random_game(*args):
        assert min(game.scores) >= 0
    assert all(min(s) >= 0 for s in game.round_scores)


@FAST
@given(games)
def test_property_every_game_ends_in_bounded_moves(args: tuple[str, int, int, int]) -> None:
    game = finished(args)  # random_game raises if it takes more than MAX_MOVES
    assert game.is_over() and game.legal_moves() == ()
    assert len(game.ranks()) == game.players and min(game.ranks()) == 1


@FAST
@given(games)
def test_property_replaying_own_record_gives_same_scores(args: tuple[str, int, int, int]) -> None:
    game = finished(args)
    rec = game.record()
    again = replay(rec)
    assert again.is_over()
    assert again.scores == game.scores
    assert again.round_scores == game.round_scores
    assert again.to_state() == game.to_state()
    assert rec["final_scores"] == list(game.scores)


@FAST
@given(games, st.integers(0, 2**32))
def test_property_replaying_a_partial_record_gives_the_same_position(
    args: tuple[str, int, int, int], cut: int
) -> None:
    states = [(g.to_state(), g.record()) for g in random_game(*args)]
    st_, rec = states[cut % len(states)]
    assert replay(rec).to_state() == st_


@FAST
@given(games, st.integers(0, 2**32))
def test_property_copy_is_independent_of_original(
    args: tuple[str, int, int, int], pick: int
) -> None:
    rnd = random.Random(pick)
    for game in random_game(*args):
        if game.is_over() or rnd.random() > 0.3:
            continue
        before = game.to_state()
        sim = game.copy()
        # play the copy on, through wall-tiling and into later rounds
        for _ in range(rnd.randint(1, 40)):
            if sim.is_over():
                break
            sim.push(rnd.choice(sim.legal_moves()))
        assert game.to_state() == before
        # and the other way round: pushing on the original leaves a copy as it was
        sim = game.copy()
        sim_before = sim.to_state()
        probe = game.copy()
        for _ in range(rnd.randint(1, 40)):
            if probe.is_over():
                break
            probe.push(rnd.choice(probe.legal_moves()))
        assert sim.to_state() == sim_before


@FAST
@given(games)
def test_property_to_state_from_state_gives_same_legal_moves(
    args: tuple[str, int, int, int],
) -> None:
    for game in random_game(*args):
        state = game.to_state()
        rebuilt = ClassicGame.from_state(state, seed=1)
        assert set(rebuilt.legal_moves()) == set(game.legal_moves())
        assert rebuilt.to_state() == state
        assert rebuilt.scores == game.scores and rebuilt.is_over() == game.is_over()


@FAST
@given(games)
def test_property_from_state_game_plays_on_like_the_original(
    args: tuple[str, int, int, int],
) -> None:
    # Within a round no chance is involved: the rebuilt game follows the original move by move.
    rnd = random.Random(args[3])
    for game in random_game(*args):
        if game.is_over() or rnd.random() > 0.05:
            continue
        a, b = game.copy(), ClassicGame.from_state(game.to_state(), seed=2)
        start = a.round
        while not a.is_over() and a.round == start:
            m = rnd.choice(a.legal_moves())
            a.push(m)
            b.push(m)
            assert a.scores == b.scores
            if a.round == start:
                assert a.to_state() == b.to_state()


@FAST
@given(games)
def test_property_move_notation_round_trips(args: tuple[str, int, int, int]) -> None:
    for game in random_game(*args):
        for m in game.legal_moves():
            assert game.parse_move(str(m)) is m
            assert game.parse_move(f"  {str(m).lower()} ") is m


def test_every_move_notation_round_trips() -> None:
    assert len({str(m) for m in ALL_MOVES}) == len(ALL_MOVES)
    for m in ALL_MOVES:
        assert parse_move(str(m)) is m
        if m.is_take:
            assert Move.take(m.source, m.colour, m.line) is m
        else:
            assert Move.wall(m.line, m.column) is m


@FAST
@given(games)
def test_property_floor_is_always_a_legal_destination(args: tuple[str, int, int, int]) -> None:
    for game in random_game(*args):
        if game.phase != "take":
            continue
        moves = game.legal_moves()
        for m in moves:
            assert Move.take(m.source, m.colour, 5) in moves


def _legal_moves_are_the_pushable_ones(args: tuple[str, int, int, int]) -> None:
    rnd = random.Random(args[2])
    for game in random_game(*args):
        if game.is_over() or rnd.random() > 0.1:
            continue
        legal = set(game.legal_moves())
        for m in ALL_MOVES:
            assert game.is_legal(m) == (m in legal), str(m)


@FAST
@given(
    st.tuples(
        st.sampled_from(CLASSIC), st.integers(2, 4), st.integers(0, 2**40), st.integers(0, 2**32)
    )
)
def test_property_legal_moves_are_exactly_the_pushable_ones(
    args: tuple[str, int, int, int],
) -> None:
    _legal_moves_are_the_pushable_ones(args)


def test_unseeded_games_differ_between_forked_processes() -> None:
    """A game created without a seed draws one from a per-process generator; a forked child
    (Dask and multiprocessing workers, the referee's own forks) must not repeat its parent's."""
    import os

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report its first unseeded deal and leave at once
        os.write(write, str(new_game("azul", 2).to_state()["factories"]).encode())
        os._exit(0)
    os.close(write)
    parent = str(new_game("azul", 2).to_state()["factories"])
    child = os.read(read, 4096).decode()
    os.waitpid(pid, 0)
    os.close(read)
    assert child and child != parent
