"""`azul-arena replay analyse` and `bench analyse`: the table, `--json`'s stable keys, the
annotated record (`-o`) that `replay verify` still accepts, `--seat`, `--workers`, clear errors;
a 3-player game analysed whole; a decision the engine fails on marked in every output, exit 3;
and on a real game, greedy's play scores the lower accuracy against mcts."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tournaments.cli  # noqa: F401  (registers the commands on the app)
from referee.engine import load_record, new_game
from tournaments.commands.groups import app

runner = CliRunner()
MOVE_KEYS = {
    "ply",
    "seat",
    "played",
    "best",
    "value_played",
    "value_best",
    "loss",
    "label",
    "exact",
    "not_valued",
}
SUMMARY_KEYS = {
    "seat",
    "decisions",
    "mean_loss",
    "inaccuracy",
    "mistake",
    "blunder",
    "accuracy",
    "not_valued",
}


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 14 moves of a random 2-player azul-mini game (random moves: labels to find)."""
    game = new_game("azul-mini", players=2, seed=21)
    rng = random.Random(21)
    for _ in range(14):
        game.push(rng.choice(game.legal_moves()))
    path = tmp_path_factory.mktemp("analyse") / "game.json"
    path.write_text(json.dumps(game.record(["ann", "bob"])))
    return path


def analyse(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["replay", "analyse", "--budget", "30", *args])


def test_json_has_the_stable_keys_and_workers_change_nothing(game_file: Path) -> None:
    one = analyse(str(game_file), "--json")
    assert one.exit_code == 0, one.output
    body = json.loads(one.output)
    assert body["game"] == str(game_file)
    assert [m["ply"] for m in body["moves"]] == list(range(14))
    assert all(set(m) == MOVE_KEYS for m in body["moves"])
    assert [set(s) for s in body["summary"]] == [SUMMARY_KEYS, SUMMARY_KEYS]
    two = analyse(str(game_file), "--json", "--workers", "2")
    assert two.exit_code == 0, two.output
    assert json.loads(two.output) == body


def test_table_and_annotated_record_that_verify_accepts(game_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "annotated.json"
    result = analyse(str(game_file), "--seat", "1", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "bob" in result.output and "accuracy" in result.output
    assert "ann" not in result.output.split("summary")[1]  # seat 0 not analysed
    annotated = load_record(out)
    assert {m["seat"] for m in annotated["analysis"]["moves"]} == {1}
    assert annotated["rounds"] == load_record(game_file)["rounds"]
    verified = runner.invoke(app, ["replay", "verify", str(out)])
    assert verified.exit_code == 0 and "OK" in verified.output


def test_bad_arguments_say_what_to_do(game_file: Path, tmp_path: Path) -> None:
    seat = analyse(str(game_file), "--seat", "2")
    assert seat.exit_code == 2 and "--seat 2" in seat.output and "seats 0 to 1" in seat.output
    nothing = analyse()
    assert nothing.exit_code == 2 and "--db FILE --game ID" in nothing.output
    bad = tmp_path / "bad.json"
    record = load_record(game_file)
    record["rounds"][0]["moves"][1] = "9Y1"
    bad.write_text(json.dumps(record))
    illegal = analyse(str(bad))
    assert illegal.exit_code == 1 and "Traceback" not in illegal.output
    assert "cannot analyse this game" in illegal.output and "9Y1" in illegal.output
    assert "does not replay" in illegal.output


def test_a_3_player_game_the_record_replays_is_analysed_whole(tmp_path: Path) -> None:
    from tests.tournaments.test_analysis import greedy_record

    path = tmp_path / "three.json"
    path.write_text(json.dumps(greedy_record("azul", 3, 9)))
    result = analyse(str(path), "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["moves"] and all(m["not_valued"] is None for m in body["moves"])
    assert [s["not_valued"] for s in body["summary"]] == [0, 0, 0]


def test_a_decision_not_valued_is_marked_everywhere_and_exits_3(
    game_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tournaments.domain.analysis.game as game_module
    from tournaments.domain.analysis.engine import decision_seed, value_moves

    def value_or_fail(state: Any, budget: int, seed: int, include: tuple[Any, ...] = ()) -> Any:
        if seed == decision_seed(0, 5):
            raise RuntimeError("out of luck")
        return value_moves(state, budget, seed, include)

    monkeypatch.setattr(game_module, "value_moves", value_or_fail)
    out = tmp_path / "annotated.json"
    table = analyse(str(game_file), "-o", str(out))
    assert table.exit_code == 3, table.output
    assert "not valued" in table.output and "RuntimeError: out of luck" in table.output
    assert "1 decision(s) not valued" in table.output and "accuracy" in table.output
    marked = [m for m in load_record(out)["analysis"]["moves"] if m["not_valued"]]
    assert [(m["ply"], m["not_valued"], m["loss"]) for m in marked] == [
        (5, "RuntimeError: out of luck", None)
    ]
    assert runner.invoke(app, ["replay", "verify", str(out)]).exit_code == 0
    body = analyse(str(game_file), "--json")
    assert body.exit_code == 3
    moves = json.loads(body.stdout.splitlines()[0])["moves"]
    assert [m["ply"] for m in moves if m["not_valued"]] == [5]


def test_bench_analyse_prints_its_figures_as_json() -> None:
    result = runner.invoke(
        app,
        ["bench", "analyse", "--games", "1", "--budget", "20", "--ruleset", "azul-mini", "--json"],
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    for key in ("game_s", "decisions", "exact_decisions_per_s", "agreement", "exact_positions"):
        assert key in body
    assert body["decisions"] > 0 and 0 <= body["agreement"] <= 1


@pytest.mark.slow
def test_greedy_scores_a_lower_accuracy_than_mcts(tmp_path: Path) -> None:
    from bots.greedy_bot import GreedyBot
    from bots.mcts_bot import MctsBot
    from sdk.local import play_local

    played = play_local(
        [GreedyBot(seed=1), MctsBot(seed=1, iterations=300)],
        ruleset="azul",
        seed=4,
        time_per_move=30,
    )
    path = tmp_path / "greedy-mcts.json"
    path.write_text(json.dumps(played.record))
    result = analyse(str(path), "--json")
    assert result.exit_code == 0, result.output
    greedy, mcts = json.loads(result.output)["summary"]
    assert greedy["accuracy"] < mcts["accuracy"]
    assert greedy["mean_loss"] > mcts["mean_loss"]
