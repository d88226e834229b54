"""`azul-arena bot new`, `bot check` and `bench strength`, run as a user runs them."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tournaments.cli import app
from tournaments.commands.bot import class_name_for
from tournaments.domain.report import wilson

HERE = Path(__file__).parent
BIN = Path(sys.executable).parent  # the venv's commands (not resolved: python is a symlink)
runner = CliRunner()


def test_scaffolded_bot_passes_bot_check_and_its_own_tests(tmp_path: Path) -> None:
    made = runner.invoke(app, ["bot", "new", "my-first", "--dir", str(tmp_path)])
    assert made.exit_code == 0, made.output
    project = tmp_path / "my-first"
    assert {p.name for p in project.iterdir()} >= {"bot.py", "test_bot.py", "README.md"}
    text = (project / "bot.py").read_text()
    assert "class MyFirstBot(sdk.Bot)" in text and "sdk.run(MyFirstBot)" in text
    readme = (project / "README.md").read_text()
    assert "azul-arena match" in readme and "legal_moves" in readme

    checked = runner.invoke(
        app, ["bot", "check", str(project / "bot.py"), "--time-per-move", "0.3", "--json"]
    )
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.output.strip().splitlines()[-1])
    assert report["passed"] is True
    assert report["rulesets"] == [
        "azul",
        "azul-mini",
        "azul-gray",
        "azul-greenbox",
        "pavilion",
        "pavilion-mono",
    ]
    names = {c["name"] for c in report["checks"]}
    assert {
        "launch and handshake",
        "only legal moves",
        "survives 4-player games",
        "plays azul-gray",
        "plays pavilion",
        "plays pavilion-mono",
    } <= names
    assert all(c["passed"] for c in report["checks"])

    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(project)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr

    again = runner.invoke(app, ["bot", "new", "my-first", "--dir", str(tmp_path)])
    assert again.exit_code == 2  # never overwrites a bot


def _hints(cwd: Path, path: str) -> list[list[str]]:
    """The commands `bot new hinted` prints after "next:", run with PATH `path`."""
    made = subprocess.run(
        [sys.executable, "-m", "tournaments.cli", "bot", "new", "hinted"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PATH": path, "COLUMNS": "200"},
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    return [shlex.split(line) for line in made.stdout.split("next:\n", 1)[1].splitlines() if line]


def test_bot_new_prints_hints_that_run_as_given_outside_the_venv(tmp_path: Path) -> None:
    # Not activated: the venv is not on PATH, so the hints name its commands by path.
    bare = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != str(BIN))
    match, check, tests = _hints(tmp_path, bare)
    assert match[0] == str(BIN / "azul-arena") and match[1:] == ["match", "hinted/bot.py", "random"]
    assert check[:3] == [str(BIN / "azul-arena"), "bot", "check"]
    assert tests == [str(BIN / "python"), "-m", "pytest", "hinted"]
    played = subprocess.run(
        [*match, "--isolation", "none", "-t", "0.05", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PATH": bare},
        timeout=120,
    )
    assert played.returncode == 0, played.stderr


def test_bot_new_hints_say_the_bare_name_in_an_activated_venv(tmp_path: Path) -> None:
    activated = os.pathsep.join([str(BIN), os.environ["PATH"]])
    assert [hint[0] for hint in _hints(tmp_path, activated)] == [
        "azul-arena",
        "azul-arena",
        "python",
    ]


def test_bot_check_fails_a_bot_that_plays_illegal_moves() -> None:
    result = runner.invoke(
        app, ["bot", "check", str(HERE / "illegal_bot.py"), "-r", "azul", "-t", "0.3", "--json"]
    )
    assert result.exit_code == 1, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    failed = {c["name"] for c in report["checks"] if not c["passed"]}
    assert "only legal moves" in failed
    assert report["passed"] is False


def test_bot_check_does_not_count_the_referees_moves_as_legal_ones() -> None:
    """A bot that raises on every move made no move of its own: "only legal moves" fails and
    says so, rather than "94 moves, all legal" (the referee's substitutes)."""
    result = runner.invoke(
        app, ["bot", "check", str(HERE / "raising_bot.py"), "-r", "azul", "-t", "0.3", "--json"]
    )
    assert result.exit_code == 1, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    legal = next(c for c in report["checks"] if c["name"] == "only legal moves")
    assert not legal["passed"]
    assert legal["detail"].startswith("no move of its own"), legal["detail"]
    assert "played by the referee" in legal["detail"]


def test_bot_check_reports_an_entry_that_cannot_start() -> None:
    result = runner.invoke(app, ["bot", "check", "no/such/bot.py", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["checks"][0]["name"] == "launch" and not report["checks"][0]["passed"]


def test_bench_strength_json_shape_on_a_tiny_local_run() -> None:
    result = runner.invoke(
        app,
        [
            "bench",
            "strength",
            "--local",
            "-n",
            "2",
            "-t",
            "0.02",
            "-b",
            "random",
            "-b",
            "greedy",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    (pair,) = data["pairs"]
    assert (pair["a"], pair["b"], pair["games"]) == ("random", "greedy", 2)
    assert 0.0 <= pair["a_win_rate"] <= 1.0
    assert pair["ci95"][0] <= pair["a_win_rate"] <= pair["ci95"][1]
    assert data["path"] == "local"


def test_wilson_interval_and_class_names() -> None:
    low, high = wilson(19, 20)
    assert 0.75 < low < 0.95 < high <= 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    assert class_name_for("my-first") == "MyFirstBot"
    assert class_name_for("alpha_bot") == "AlphaBot"
