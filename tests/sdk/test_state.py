"""LazyGame: the state a bot receives stands for the engine Game, and builds it only when used."""

from __future__ import annotations

import copy
import random

import pytest

from referee.engine import Game, new_game
from referee.protocol import bot_pb2
from referee.protocol.codec import decode_state, encode_state
from sdk.state import LazyGame, read_moves

RULESETS = ("azul", "azul-mini", "azul-gray", "azul-greenbox")


def positions(ruleset: str, players: int, seed: int, count: int) -> list[Game]:
    """`count` positions along one random game, taken before each move."""
    rng = random.Random(seed)
    game = new_game(ruleset, players=players, seed=seed)
    seen = []
    while not game.is_over() and len(seen) < count:
        seen.append(game.copy())
        game.push(rng.choice(game.legal_moves()))
    return seen


def lazy(game: Game) -> tuple[LazyGame, list[int]]:
    """The LazyGame a bot would receive for `game`, sent through the wire format, and a list
    that counts how often it built the Game."""
    request = bot_pb2.MoveRequest()
    encode_state(game.to_state(), request.state)
    request.legal_moves.extend(str(m) for m in game.legal_moves())
    message = bot_pb2.MoveRequest.FromString(request.SerializeToString())
    builds: list[int] = []

    def build() -> Game:
        builds.append(1)
        return Game.from_state(decode_state(message.state))

    ruleset = message.state.ruleset
    return LazyGame(build, lambda: read_moves(ruleset, list(message.legal_moves))), builds


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_legal_moves_from_the_request_are_the_engines(ruleset: str, players: int) -> None:
    for game in positions(ruleset, players, seed=players * 7, count=60):
        state, builds = lazy(game)
        moves = state.legal_moves()
        assert moves == game.legal_moves()
        assert all(a is b for a, b in zip(moves, game.legal_moves(), strict=True))  # interned
        assert not builds, "listing legal moves must not rebuild the game"


def test_the_game_is_built_once_on_first_use_and_then_forwarded_to() -> None:
    game = positions("azul", 2, seed=3, count=5)[-1]
    state, builds = lazy(game)
    assert not builds
    assert state.turn == game.turn and state.scores == game.scores
    assert state.to_state() == game.to_state()
    assert str(state) == str(game)
    assert len(builds) == 1
    assert isinstance(state.game, Game) and state.game is state.game


def test_pushing_on_the_state_changes_its_legal_moves() -> None:
    game = positions("azul", 2, seed=5, count=3)[-1]
    state, _ = lazy(game)
    first = state.legal_moves()[0]
    state.push(first)
    game.push(first)
    assert state.legal_moves() == game.legal_moves()
    assert state.turn == game.turn


def test_copies_are_independent_games() -> None:
    game = positions("azul-gray", 3, seed=11, count=4)[-1]
    state, _ = lazy(game)
    sim = state.copy()
    sim.push(sim.legal_moves()[0])
    assert state.to_state() == game.to_state(), "a copy's moves must not touch the state"
    for twin in (copy.copy(state), copy.deepcopy(state)):
        assert twin is not state.game and twin.to_state() == game.to_state()


def test_a_name_the_game_lacks_is_an_attribute_error() -> None:
    state, _ = lazy(positions("azul", 2, seed=1, count=1)[0])
    with pytest.raises(AttributeError):
        state.no_such_thing  # noqa: B018
    assert not hasattr(state, "__setstate_extra__")


def test_a_game_that_cannot_be_built_says_why() -> None:
    def broken() -> Game:
        raise AttributeError("'NoneType' object has no attribute 'boards'")

    state = LazyGame(broken, lambda: read_moves("azul", ["1BF"]))
    assert str(state.legal_moves()[0]) == "1BF"  # no build needed for these
    with pytest.raises(RuntimeError, match="cannot rebuild the game"):
        state.turn  # noqa: B018
