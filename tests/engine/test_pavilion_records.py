"""Summer Pavilion records: every chance outcome recorded, replayed exactly, errors located."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tournaments.cli  # noqa: F401  (registers the commands on the app)
from referee.engine import PavilionGame, RecordError, load_record, replay, verify
from tests.engine.test_pavilion_basics import random_game
from tournaments.commands.groups import app

RECORDS = Path(__file__).parent / "records"
runner = CliRunner()


def record_with_refills() -> dict[str, Any]:
    for seed in range(50):
        record = random_game("pavilion", 2, seed=seed).record()
        if any(r["refills"] for r in record["rounds"]):
            return record
    raise AssertionError("no random game took bonus tiles")


def test_cli_verifies_pavilion_records_and_prints_each_rounds_scores() -> None:
    paths = [RECORDS / "good-pavilion.json", RECORDS / "good-pavilion-mono.json"]
    result = runner.invoke(app, ["replay", "verify", *map(str, paths)])
    assert result.exit_code == 0, result.output
    assert result.output.count("OK ") == 2 and "final" in result.output
    out = runner.invoke(app, ["replay", "verify", "--json", str(paths[1])]).output
    d = json.loads(out)
    rec = load_record(paths[1])
    assert d["ok"] and d["complete"] and len(d["round_scores"]) == 6
    assert d["final_scores"] == rec["final_scores"] and d["round_scores"] == rec["round_scores"]


def test_cli_reports_the_first_illegal_move_of_a_pavilion_record() -> None:
    path = RECORDS / "bad-pavilion-illegal-move.json"
    result = runner.invoke(app, ["replay", "verify", "--json", str(path)])
    assert result.exit_code == 1
    d = json.loads(result.output)
    assert d["error"]["round"] == 2 and d["error"]["move_number"] == 3
    assert d["error"]["move"] == "1-6R+5" and d["error"]["rule"] == "not-placement"


def test_cli_reports_a_refill_the_bag_could_not_give() -> None:
    path = RECORDS / "bad-pavilion-refill.json"
    result = runner.invoke(app, ["replay", "verify", str(path)])
    assert result.exit_code == 1 and "supply refill" in result.output
    assert "Traceback" not in result.output


def test_record_holds_options_initial_supply_deals_and_refills() -> None:
    game = random_game("pavilion", 3, seed=5, wild_order="YBRPGO")
    record = game.record(["a", "b", "c"])
    assert record["options"] == {"wild_order": "YBRPGO"} and record["players"] == ["a", "b", "c"]
    assert len(record["supply"]) == 10
    assert all(
        len(r["factories"]) == 7 and isinstance(r["refills"], list) for r in record["rounds"]
    )
    assert replay(record).to_state() == game.to_state()


def test_replay_uses_the_recorded_refills_not_chance() -> None:
    record = record_with_refills()
    k = next(i for i, r in enumerate(record["rounds"]) if r["refills"])
    game = replay(record)
    assert isinstance(game, PavilionGame)
    # A different but possible refill replays too, and changes the game.
    changed = json.loads(json.dumps(record))
    first = changed["rounds"][k]["refills"][0]
    changed["rounds"][k]["refills"][0] = first[::-1]
    verdict = verify(changed)
    assert verdict.error is None or verdict.error.round == k + 1


def test_missing_refill_is_a_record_error_at_its_move() -> None:
    record = record_with_refills()
    k = next(i for i, r in enumerate(record["rounds"]) if r["refills"])
    record["rounds"][k]["refills"] = []
    with pytest.raises(RecordError, match="refill") as exc:
        replay(record)
    assert exc.value.round == k + 1 and exc.value.move is not None
    assert exc.value.move.startswith("bonus:")


def test_extra_refill_is_a_record_error() -> None:
    record = random_game("pavilion", 2, seed=3).record()
    record["rounds"][0]["refills"] = ["PG"]
    with pytest.raises(RecordError, match="refills recorded") as exc:
        replay(record)
    assert exc.value.round == 1


def test_deal_the_bag_cannot_give_is_a_record_error() -> None:
    record = random_game("pavilion", 2, seed=3).record()
    record["rounds"][0]["factories"][:4] = ["PPPP"] * 4
    record["supply"] = "PPPPPPPPPP"  # 10 + 16 purple: the bag holds 22
    with pytest.raises(RecordError, match="purple") as exc:
        replay(record)
    assert exc.value.round == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"options": {"wild_order": "PPGOYB"}}, "each of P G O Y B R once"),
        ({"options": {"speed": 1}}, "unknown option"),
        ({"supply": "PGX"}, "not a tile colour"),
        ({"supply": "PGOYBRPGOYB"}, "at most 10"),
        ({"ruleset": "azul"}, "factory 1"),
    ],
)
def test_bad_headers_say_what_is_wrong(change: dict[str, Any], message: str) -> None:
    record = random_game("pavilion", 2, seed=3).record()
    record.update(change)
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_a_partial_record_replays_to_the_position_it_stops_at() -> None:
    game = random_game("pavilion", 2, seed=8)
    record = game.record()
    record["rounds"] = record["rounds"][:3]
    record["rounds"][-1]["moves"] = record["rounds"][-1]["moves"][:5]
    record.pop("final_scores")
    record["round_scores"] = record["round_scores"][:2]
    verdict = verify(record)
    assert verdict.ok and not verdict.complete and len(verdict.round_scores) == 2
