"""Summer Pavilion: the engine's surface (rulesets, options, notation, state, records)."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from referee.engine import (
    RULESETS,
    EngineError,
    Game,
    IllegalMoveError,
    NotationError,
    PavilionGame,
    PavilionMove,
    game_from_state,
    new_game,
    replay,
    verify,
)
from tests.engine.pavilion_positions import tile_count


def random_game(
    ruleset: str = "pavilion", players: int = 2, seed: int = 0, wild_order: str | None = None
) -> PavilionGame:
    """A finished game of random moves that prefers placing (so boards fill up)."""
    chooser = random.Random(seed)
    game = new_game(ruleset, players, seed=seed, wild_order=wild_order)
    assert isinstance(game, PavilionGame)
    while not game.is_over():
        legal = game.legal_moves()
        active = [m for m in legal if not m.is_pass]
        game.push(chooser.choice(active if active and chooser.random() < 0.9 else legal))
    return game


def test_rulesets_are_registered_in_the_pavilion_family() -> None:
    for name in ("pavilion", "pavilion-mono"):
        assert RULESETS[name].family == "pavilion"
        assert Game.family_of(name) is PavilionGame
        assert isinstance(new_game(name, 3, seed=1), PavilionGame)


def test_new_game_sets_up_the_table() -> None:
    game = new_game("pavilion", 2, seed=4)
    s = game.to_state()
    assert s["round"] == 1 and s["phase"] == "take" and s["wild"] == "P"
    assert all(len(f) == 4 for f in s["factories"]) and len(s["factories"]) == 5
    assert len(s["supply"]) == 10 and "." not in s["supply"]
    assert len(s["bag"]) == 132 - 10 - 20
    assert [b["score"] for b in s["boards"]] == [5, 5]
    assert sum(tile_count(s).values()) == 132


def test_wild_order_option() -> None:
    game = new_game("pavilion", 2, seed=4, wild_order="gopybr")
    assert game.to_state()["wild_order"] == "GOPYBR" and game.to_state()["wild"] == "G"
    assert game.record()["options"] == {"wild_order": "GOPYBR"}
    with pytest.raises(EngineError, match="each of P G O Y B R once"):
        new_game("pavilion", 2, wild_order="PPOYBR")
    with pytest.raises(EngineError, match="no option wild_order"):
        new_game("azul", 2, wild_order="PGOYBR")


def test_state_has_exactly_the_contract_keys() -> None:
    s = new_game("pavilion", 3, seed=1).to_state()
    assert set(s) == {
        "ruleset",
        "players",
        "round",
        "turn",
        "phase",
        "round_starter",
        "wild_order",
        "wild",
        "factories",
        "centre",
        "marker_in_centre",
        "supply",
        "bag",
        "depot",
        "bonus_owed",
        "boards",
    }
    assert set(s["boards"][0]) == {"score", "stars", "tiles", "kept", "passed", "has_marker"}
    assert s["boards"][0]["stars"] == ["......"] * 7


@pytest.mark.parametrize("ruleset", ["pavilion", "pavilion-mono"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_state_round_trip_at_every_move(ruleset: str, players: int) -> None:
    chooser = random.Random(players)
    game = new_game(ruleset, players, seed=players)
    while not game.is_over():
        s = game.to_state()
        rebuilt = game_from_state(json.loads(json.dumps(s)), seed=1)
        assert rebuilt.to_state() == s
        assert [str(m) for m in rebuilt.legal_moves()] == [str(m) for m in game.legal_moves()]
        legal = game.legal_moves()
        active = [m for m in legal if not m.is_pass]
        game.push(chooser.choice(active if active and chooser.random() < 0.9 else legal))


def test_moves_have_notation_and_are_shared_objects() -> None:
    table = PavilionGame.moves_by_notation()
    game = new_game("pavilion", 2, seed=2)
    for move in game.legal_moves():
        assert table[str(move)] is move
        assert game.parse_move(str(move).lower()) is move
        assert pickle.loads(pickle.dumps(move)) is move
        assert hash(move) == move.index
    assert sorted(game.legal_moves()) == sorted(game.legal_moves(), key=lambda m: m.index)
    assert str(game.parse_move(" pass:gp ")) == "pass:PG"
    assert str(game.parse_move("4-3B+0")) == "4-3B"
    assert isinstance(game.parse_move("bonus:R"), PavilionMove)


@pytest.mark.parametrize(
    "text", ["", "pass:PPPPP", "7-1P", "1-7P", "1-1X", "1-6P+6", "3X", "bonus:PG", "take", 5]
)
def test_bad_notation_says_what_is_wrong(text: object) -> None:
    game = new_game("pavilion", 2, seed=2)
    with pytest.raises(NotationError):
        game.parse_move(text)


def test_illegal_move_names_the_rule_and_leaves_the_game_unchanged() -> None:
    game = new_game("pavilion", 2, seed=2)
    before = game.to_state()
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("1-1P")
    assert exc.value.rule == "not-placement"
    assert game.to_state() == before


@pytest.mark.parametrize("ruleset", ["pavilion", "pavilion-mono"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_replays_to_the_same_game(ruleset: str, players: int) -> None:
    game = random_game(ruleset, players, seed=players, wild_order="BRPGOY")
    record = json.loads(json.dumps(game.record(["a", "b", "c", "d"][:players])))
    assert record["options"] == {"wild_order": "BRPGOY"}
    assert len(record["rounds"]) == 6 and len(record["supply"]) == 10
    verdict = verify(record)
    assert verdict.ok and verdict.complete
    assert verdict.final_scores == list(game.scores)
    assert [tuple(s) for s in verdict.round_scores] == game.round_scores
    assert replay(record).to_state() == game.to_state()


def test_copy_is_independent() -> None:
    game = new_game("pavilion", 2, seed=9)
    sim = game.copy()
    while not sim.is_over():
        sim.push(sim.legal_moves()[0])
    assert game.round == 1 and game.to_state() != sim.to_state()
    assert game.copy(stack=True).record() == game.record()
    with pytest.raises(EngineError, match="history"):
        game.copy().record()


def test_text_picture_shows_stars_supply_and_tiles() -> None:
    game = new_game("pavilion", 2, seed=9)
    text = str(game)
    assert "supply" in text and "wild P (purple)" in text
    assert "4 blue" in text and "tiles -" in text
