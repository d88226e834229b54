"""The codec: every key of a state dict survives encode -> bytes -> decode, in each family's own
typed fields (Summer Pavilion's in GameState.pavilion, never as JSON)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from referee.engine import new_game
from referee.protocol import bot_pb2, game_pb2
from referee.protocol.codec import decode_state, encode_state


def wire(state: dict[str, Any]) -> tuple[dict[str, Any], game_pb2.GameState]:
    """`state` through a MoveRequest's bytes, as a bot receives it: (decoded dict, message)."""
    request = bot_pb2.MoveRequest()
    encode_state(state, request.state)
    received = bot_pb2.MoveRequest.FromString(request.SerializeToString())
    return decode_state(received.state), received.state


def pavilion_state(players: int = 2) -> dict[str, Any]:
    """A mid-game Summer Pavilion state written by hand in the contract's format."""
    stars = ["P.G...", "......", "..R...", "......", "B.....", "......", "YYY..."]
    return {
        "ruleset": "pavilion",
        "players": players,
        "round": 3,
        "turn": 1,
        "phase": "play",
        "round_starter": 0,
        "wild_order": "PGOYBR",
        "wild": "O",
        "factories": ["PPGO", "", "YBRR", "GGGO", "OOOO", "", "PR", "YB", "BR"][: 2 * players + 1],
        "centre": "PGG",
        "marker_in_centre": False,
        "supply": "PG.OYB..RR",
        "bag": "PPPPGGOOYYYBBRRRR",
        "depot": "GGOB",
        "bonus_owed": 0,
        "boards": [
            {
                "score": 12 + seat,
                "stars": list(stars) if seat == 0 else ["......"] * 7,
                "tiles": "PPGO" if seat == 1 else "",
                "kept": "GG" if seat == 0 else "",
                "passed": seat == 0,
                "has_marker": seat == 0,
            }
            for seat in range(players)
        ],
    }


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("phase", ["take", "play", "bonus", "over"])
def test_a_pavilion_state_round_trips_in_typed_fields(players: int, phase: str) -> None:
    state = pavilion_state(players)
    state["phase"] = phase
    state["bonus_owed"] = 2 if phase == "bonus" else 0
    back, msg = wire(state)
    assert back == state
    assert msg.HasField("pavilion")
    assert msg.extra_json == "", "the contract's keys all have typed fields"
    assert msg.pavilion.supply == "PG.OYB..RR"
    assert list(msg.pavilion.boards[0].stars)[6] == "YYY..."
    assert msg.boards[0].has_marker and not msg.boards[0].wall  # no classic board parts


# One changed value per key of the contract: each must reach the other side as changed.
_TOP_CHANGES: dict[str, Any] = {
    "ruleset": "pavilion-mono",
    "players": 3,
    "round": 6,
    "turn": 0,
    "phase": "bonus",
    "round_starter": 1,
    "wild_order": "GOPYBR",
    "wild": "R",
    "factories": ["", "RRRR", "PGOY", "YYBB", "GR"],
    "centre": "",
    "marker_in_centre": True,
    "supply": "..........",
    "bag": "",
    "depot": "",
    "bonus_owed": 3,
}
_BOARD_CHANGES: dict[str, Any] = {
    "score": 0,
    "stars": ["RRRRRR"] * 7,
    "tiles": "BBBBBY",
    "kept": "PGOY",
    "passed": "flipped",
    "has_marker": "flipped",  # booleans: each seat's value is flipped
}


def test_the_changes_cover_every_key_of_the_contract() -> None:
    state = pavilion_state()
    assert set(_TOP_CHANGES) | {"boards"} == set(state)
    assert set(_BOARD_CHANGES) == set(state["boards"][0])


@pytest.mark.parametrize("key", sorted(_TOP_CHANGES))
def test_every_state_key_travels(key: str) -> None:
    state = pavilion_state()
    assert state[key] != _TOP_CHANGES[key]
    state[key] = _TOP_CHANGES[key]
    back, _ = wire(state)
    assert back[key] == _TOP_CHANGES[key]
    assert back == state


@pytest.mark.parametrize("key", sorted(_BOARD_CHANGES))
def test_every_board_key_travels_for_every_seat(key: str) -> None:
    for seat in range(3):
        state = pavilion_state(3)
        old = state["boards"][seat][key]
        new = (not old) if isinstance(old, bool) else copy.deepcopy(_BOARD_CHANGES[key])
        assert new != old
        state["boards"][seat][key] = new
        back, _ = wire(state)
        assert back["boards"][seat][key] == new
        assert back == state


def test_a_key_the_message_does_not_model_travels_as_json() -> None:
    state = pavilion_state()
    state["future_key"] = {"a": [1, 2]}
    state["boards"][1]["future_board_key"] = "x"
    back, msg = wire(state)
    assert back == state
    assert "future_key" in msg.extra_json and "stars" not in msg.extra_json


def test_a_ruleset_this_engine_does_not_know_travels_in_its_family_part() -> None:
    # A newer referee's Summer Pavilion variant: its family is read from its keys.
    state = pavilion_state()
    state["ruleset"] = "pavilion-future"
    back, msg = wire(state)
    assert back == state and msg.HasField("pavilion") and msg.extra_json == ""
    classic = new_game("azul", players=2, seed=1).to_state()
    classic["ruleset"] = "azul-future"
    back, msg = wire(classic)
    assert back == classic and not msg.HasField("pavilion")


def test_seat_boards_that_do_not_match_are_a_clear_error() -> None:
    msg = encode_state(pavilion_state(3))
    del msg.pavilion.boards[-1]
    with pytest.raises(ValueError, match="3 boards but 2 pavilion boards"):
        decode_state(msg)


@pytest.mark.parametrize("ruleset", ["azul", "azul-gray"])
def test_classic_states_are_unchanged_and_carry_no_pavilion_part(ruleset: str) -> None:
    rng = random.Random(5)
    game = new_game(ruleset, players=3, seed=5)
    while not game.is_over():
        state = game.to_state()
        back, msg = wire(state)
        assert back == state
        assert not msg.HasField("pavilion") and msg.extra_json == ""
        game.push(rng.choice(game.legal_moves()))


def test_phases_have_their_own_enum_values() -> None:
    seen = set()
    for phase in ("take", "play", "bonus", "over"):
        state = pavilion_state()
        state["phase"] = phase
        seen.add(encode_state(state).phase)
    assert seen == {
        game_pb2.PHASE_TAKE,
        game_pb2.PHASE_PLAY,
        game_pb2.PHASE_BONUS,
        game_pb2.PHASE_OVER,
    }


@pytest.mark.parametrize(
    ("ruleset", "players", "options"),
    [("pavilion", 2, {}), ("pavilion", 4, {"wild_order": "GOPYBR"}), ("pavilion-mono", 3, {})],
)
def test_engine_states_of_whole_pavilion_games_round_trip(
    ruleset: str, players: int, options: dict[str, str]
) -> None:
    from referee.engine import Game

    rng = random.Random(players)
    game = new_game(ruleset, players=players, seed=players, **options)
    phases = set()
    while not game.is_over():  # the states a move request carries (none once it is over)
        state = game.to_state()
        back, msg = wire(state)
        assert back == state
        assert msg.HasField("pavilion") and msg.extra_json == ""
        phases.add(state["phase"])
        # What a bot rebuilds from the wire is the same game, as far as anyone can see.
        rebuilt = Game.from_state(back)
        assert rebuilt.to_state() == state and rebuilt.legal_moves() == game.legal_moves()
        # Placing rather than passing fills the stars, so that bonus tiles come up.
        moves = game.legal_moves()
        places = [m for m in moves if m.is_place]
        game.push(rng.choice(places if places and rng.random() < 0.95 else moves))
    assert phases == {"take", "play", "bonus"}
    assert back["wild_order"] == options.get("wild_order", "PGOYBR")


def test_match_settings_carry_options_as_a_map_and_the_old_field_is_still_read() -> None:
    from referee.protocol import referee_pb2
    from referee.protocol.codec import settings_options
    from referee.service import config_from_settings

    new = referee_pb2.MatchSettings(ruleset="pavilion", options={"wild_order": "gopybr"})
    old = referee_pb2.MatchSettings(ruleset="pavilion", wild_order="GOPYBR")
    both = referee_pb2.MatchSettings(
        ruleset="pavilion", wild_order="PGOYBR", options={"wild_order": "GOPYBR"}
    )
    assert settings_options(new) == {"wild_order": "gopybr"}
    assert settings_options(old) == settings_options(both) == {"wild_order": "GOPYBR"}
    assert config_from_settings(new).options == {"wild_order": "gopybr"}
    with pytest.raises(ValueError, match="azul has no option wild_order"):
        config_from_settings(referee_pb2.MatchSettings(ruleset="azul", wild_order="GOPYBR"))
