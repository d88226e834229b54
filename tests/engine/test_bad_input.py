"""Bad input gives a clear error naming the place (RecordError / NotationError /
IllegalMoveError with .rule), never a crash of another kind."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from referee.engine import (
    ClassicGame,
    EngineError,
    IllegalMoveError,
    NotationError,
    RecordError,
    load_record,
    new_game,
    replay,
    verify,
)
from tests.engine.positions import play, position, record, state

RECORDS = Path(__file__).parent / "records"
DEAL = ["BBYR", "KKWW", "RRRY", "BYKW", "WWKK"]


def good() -> dict:  # type: ignore[type-arg]
    return json.loads((RECORDS / "good-azul.json").read_text())


# ------------------------------------------------------------------ notation
@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "not a move"),
        ("4K", "not a move"),
        ("4K23", "not a move"),
        ("0B1", "source"),
        ("XB1", "source"),
        ("1Z1", "colour"),
        ("1B6", "destination"),
        ("1B0", "destination"),
        ("6@1", "wall placement"),
        ("1@9", "wall placement"),
    ],
)
def test_illegal_notation_raises_notation_error_saying_what_is_wrong(text: str, hint: str) -> None:
    game = new_game("azul", 2, seed=1)
    with pytest.raises(NotationError, match=hint):
        game.parse_move(text)
    with pytest.raises(NotationError):
        game.push_notation(text)


def test_notation_not_text_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        new_game("azul", 2, seed=1).parse_move(42)  # type: ignore[arg-type]


def test_wall_placement_outside_gray_wall_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="azul-gray"):
        new_game("azul", 2, seed=1).parse_move("1@1")


def test_notation_is_case_insensitive_and_ignores_spaces() -> None:
    game = new_game("azul", 2, seed=1)
    assert game.parse_move(" crf ") is game.parse_move("CRF")


# ------------------------------------------------------------------ illegal moves name their rule
@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("8B1", "no-such-factory"),
        ("CB1", "source-lacks-colour"),
    ],
)
def test_illegal_move_error_has_rule_and_message(text: str, rule: str) -> None:
    game = position(factories=["BBYR"])
    with pytest.raises(IllegalMoveError) as info:
        game.push_notation(text)
    assert info.value.rule == rule
    assert text in str(info.value) and rule in str(info.value)


def test_wall_move_while_taking_and_take_while_wall_tiling_are_refused() -> None:
    game = position("azul-gray", factories=["B"])
    with pytest.raises(IllegalMoveError) as info:
        game.push_notation("1@1")
    assert info.value.rule == "not-wall-tiling"
    play(game, "1B1")
    assert game.phase == "wall"
    with pytest.raises(IllegalMoveError) as info:
        game.push(game.parse_move("1BF"))
    assert info.value.rule == "wall-tiling"
    with pytest.raises(IllegalMoveError) as info:
        game.push_notation("2@1")
    assert info.value.rule == "wrong-line"


# ------------------------------------------------------------------ records
def _record_error(rec: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(rec)  # type: ignore[arg-type]
    return info.value


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(format="other/2"), "format"),
        (lambda r: r.pop("ruleset"), "ruleset"),
        (lambda r: r.update(ruleset="chess"), "chess"),
        (lambda r: r.update(players="two"), "players"),
        (lambda r: r.update(players=5), "2-4"),
        (lambda r: r.update(first_player=7), "first_player"),
        (lambda r: r.update(rounds=[]), "rounds"),
        (lambda r: r.update(rounds="x"), "rounds"),
    ],
)
def test_malformed_record_header_gives_record_error(change, words: str) -> None:  # type: ignore[no-untyped-def]
    rec = good()
    change(rec)
    assert words in str(_record_error(rec))


def test_record_not_an_object_gives_record_error() -> None:
    _record_error([1, 2, 3])


@pytest.mark.parametrize(
    ("factories", "words"),
    [
        (DEAL[:4], "4 factories"),
        (["BBYRK", *DEAL[1:]], "at most 4"),
        (["BBXR", *DEAL[1:]], "'X'"),
        ([7, *DEAL[1:]], "string"),
    ],
)
def test_malformed_factories_give_record_error_with_round(factories, words: str) -> None:  # type: ignore[no-untyped-def]
    err = _record_error(record(rounds=[(factories, ["1B1"])]))
    assert err.round == 1
    assert words in str(err) and "round 1" in str(err)


def test_impossible_deal_gives_record_error_with_round() -> None:
    err = _record_error(record(players=3, rounds=[(["BBBB"] * 6 + ["YYRK"], [])]))
    assert err.round == 1 and "blue" in str(err)


def test_short_factories_while_bag_not_empty_give_record_error() -> None:
    err = _record_error(record(rounds=[(["BBY", *DEAL[1:]], [])]))
    assert err.round == 1 and "19 tiles drawn where 20 were to be drawn" in str(err)


def test_illegal_move_in_record_gives_round_move_number_and_rule() -> None:
    err = _record_error(record(rounds=[(DEAL, ["1B2", "1Y1"])]))
    assert (err.round, err.move_number, err.move, err.rule) == (1, 2, "1Y1", "source-lacks-colour")
    assert "round 1, move 2, '1Y1'" in str(err)


def test_bad_notation_in_record_gives_record_error_with_place() -> None:
    err = _record_error(record(rounds=[(DEAL, ["1B2", "hello"])]))
    assert (err.round, err.move_number, err.move) == (1, 2, "hello")


def test_moves_after_the_round_ended_give_record_error() -> None:
    rec = good()
    rec["rounds"][0]["moves"].append("1B1")
    err = _record_error(rec)
    assert err.round == 1 and "ended" in str(err)


def test_unfinished_round_followed_by_another_gives_record_error() -> None:
    rec = good()
    rec["rounds"][0]["moves"].pop()
    err = _record_error(rec)
    assert err.round == 1 and "not finished" in str(err)


def test_round_after_game_over_gives_record_error() -> None:
    rec = good()
    rec["rounds"].append(copy.deepcopy(rec["rounds"][-1]))
    err = _record_error(rec)
    assert "over" in str(err)


def test_load_record_bad_json_names_file_line_and_column(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as info:
        load_record(RECORDS / "bad-json.json")
    assert "bad-json.json" in str(info.value) and "line 4" in str(info.value)
    missing = tmp_path / "missing.json"
    with pytest.raises(RecordError, match=r"missing\.json"):
        load_record(missing)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match=r"binary\.json"):
        load_record(binary)
    array = tmp_path / "array.json"
    array.write_text("[]")
    with pytest.raises(RecordError, match=r"array\.json"):
        load_record(array)


def test_verify_reports_wrong_final_score_as_mismatch() -> None:
    verdict = verify(load_record(RECORDS / "bad-final-score.json"))
    assert not verdict.ok and verdict.error is None and verdict.complete
    assert verdict.mismatches and "final scores" in verdict.mismatches[0]


def test_verify_reports_wrong_round_scores_as_mismatch() -> None:
    rec = good()
    rec["round_scores"][0] = [99, 99]
    verdict = verify(rec)
    assert not verdict.ok and "round scores" in verdict.mismatches[0]


def test_verify_good_records_of_every_ruleset() -> None:
    for path in sorted(RECORDS.glob("good-*.json")):
        verdict = verify(load_record(path))
        assert verdict.ok and verdict.complete, path
        assert verdict.final_scores == load_record(path)["final_scores"]


def test_verify_partial_record_is_ok_but_not_complete() -> None:
    rec = good()
    rec["rounds"] = rec["rounds"][:2]
    del rec["final_scores"], rec["round_scores"]
    verdict = verify(rec)
    assert verdict.ok and not verdict.complete and verdict.final_scores is None


# ------------------------------------------------------------------ states
def test_state_with_wrong_tile_count_is_refused() -> None:
    st = state(factories=["BBYR"])
    st["bag"] = st["bag"][1:]
    with pytest.raises(EngineError, match="100"):
        ClassicGame.from_state(st)


@pytest.mark.parametrize("key", ["ruleset", "boards", "bag", "phase"])
def test_state_missing_key_is_an_engine_error(key: str) -> None:
    st = state(factories=["BBYR"])
    del st[key]
    with pytest.raises(EngineError):
        ClassicGame.from_state(st)


def test_state_with_mixed_pattern_line_is_refused() -> None:
    st = state(factories=["BBYR"])
    st["boards"][0]["lines"][2] = "BY"
    with pytest.raises(EngineError, match="line 3"):
        ClassicGame.from_state(st)
