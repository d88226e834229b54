"""`azul-arena replay verify`: human and JSON output, exit codes, bad files never a traceback."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import tournaments.cli  # noqa: F401  (registers the commands on the app)
from referee.engine import load_record, new_game, verify
from tournaments.commands.groups import app

RECORDS = Path(__file__).parent / "records"
GOOD = sorted(RECORDS.glob("good-*.json"))
runner = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["replay", "verify", *args])


def json_lines(output: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_cli_verify_good_records_exit_0_with_ok_and_score_table() -> None:
    assert len(GOOD) == 6  # one per classic ruleset, pavilion and pavilion-mono
    result = run(*map(str, GOOD))
    assert result.exit_code == 0, result.output
    for path in GOOD:
        assert f"OK {path}" in result.output
    assert "round" in result.output and "final" in result.output
    assert "Traceback" not in result.output


def test_cli_verify_json_one_line_per_file_with_round_and_final_scores() -> None:
    result = run("--json", *map(str, GOOD))
    assert result.exit_code == 0
    lines = json_lines(result.output)
    assert [d["file"] for d in lines] == [str(p) for p in GOOD]
    for d, path in zip(lines, GOOD, strict=True):
        rec = load_record(path)
        assert d["ok"] is True and d["complete"] is True and d["error"] is None
        assert d["final_scores"] == rec["final_scores"]
        assert d["round_scores"] == rec["round_scores"]
        assert len(d["round_scores"]) == len(rec["rounds"])
        assert {"file", "round_scores", "final_scores", "ok", "complete", "error"} <= set(d)


def test_cli_verify_illegal_move_reports_round_move_and_why_exit_1() -> None:
    path = RECORDS / "bad-illegal-move.json"
    result = run(str(path))
    assert result.exit_code == 1
    assert "FAIL" in result.output and "round 1, move 2, '1Y1'" in result.output
    assert "source-lacks-colour" in result.output
    d = json_lines(run("--json", str(path)).output)[0]
    assert d["ok"] is False and d["file"] == str(path)
    assert d["error"] == {
        "round": 1,
        "move_number": 2,
        "move": "1Y1",
        "reason": "factory 1 holds no yellow tile",
        "rule": "source-lacks-colour",
    }


def test_cli_verify_wrong_final_score_fails_with_mismatch() -> None:
    result = run("--json", str(RECORDS / "bad-final-score.json"))
    assert result.exit_code == 1
    d = json_lines(result.output)[0]
    assert d["ok"] is False and d["error"] is None and d["complete"] is True
    assert "final scores" in d["mismatches"][0]
    human = run(str(RECORDS / "bad-final-score.json"))
    assert "FAIL" in human.output and "final scores" in human.output


def test_cli_verify_impossible_deal_and_bad_json_are_one_line_errors() -> None:
    result = run(str(RECORDS / "bad-impossible-deal.json"), str(RECORDS / "bad-json.json"))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    fails = [line for line in result.output.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 2
    assert "bad-impossible-deal.json: round 1:" in fails[0] and "blue" in fails[0]
    assert "bad-json.json" in fails[1] and "line 4, column 1" in fails[1]


def test_cli_verify_checks_every_file_even_after_a_bad_one(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    files = [str(missing), str(RECORDS / "bad-json.json"), str(GOOD[0])]
    result = run("--json", *files)
    assert result.exit_code == 1
    lines = json_lines(result.output)
    assert [d["file"] for d in lines] == files
    assert [d["ok"] for d in lines] == [False, False, True]
    assert "missing.json" in lines[0]["error"]["reason"]


def test_cli_verify_odd_json_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    odd = {
        "a.json": "[]",
        "b.json": '{"ruleset": "azul", "players": 2, "rounds": [1]}',
        "c.json": '{"ruleset": "azul", "players": 2, "rounds": [{"factories": null}]}',
        "d.json": '{"ruleset": "azul", "players": 2, "rounds": [{"factories": '
        '["BBYR","KKWW","RRRY","BYKW","WWKK"], "moves": [3]}]}',
    }
    for name, text in odd.items():
        (tmp_path / name).write_text(text)
    result = run(*(str(tmp_path / n) for n in odd))
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert sum(line.startswith("FAIL") for line in result.output.splitlines()) == 4


def test_cli_verify_partial_game_is_ok_but_not_complete(tmp_path: Path) -> None:
    game = new_game("azul", 2, seed=9)
    for _ in range(5):
        game.push(game.legal_moves()[0])
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(game.record()))
    d = json_lines(run("--json", str(path)).output)[0]
    assert d["ok"] is True and d["complete"] is False and d["final_scores"] is None


def test_cli_verify_record_written_by_the_engine_verifies(tmp_path: Path) -> None:
    game = new_game("azul-gray", 3, seed=4)
    rnd = random.Random(4)
    while not game.is_over():
        game.push(rnd.choice(game.legal_moves()))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game.record(["a", "b", "c"])))
    d = json_lines(run("--json", str(path)).output)[0]
    assert d["ok"] and d["final_scores"] == list(game.scores)
    assert verify(game.record()).ok


def test_cli_verify_without_files_is_usage_error_2() -> None:
    assert run().exit_code == 2


def test_cli_verify_subprocess_exit_codes_and_no_traceback() -> None:
    cmd = [sys.executable, "-m", "tournaments.cli", "replay", "verify"]
    ok = subprocess.run([*cmd, str(GOOD[0])], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "OK" in ok.stdout
    bad = subprocess.run(
        [*cmd, "--json", *map(str, sorted(RECORDS.glob("bad-*.json")))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1
    assert "Traceback" not in bad.stdout + bad.stderr
    assert len(bad.stdout.splitlines()) == len(sorted(RECORDS.glob("bad-*.json"))) == 6
    usage = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2
