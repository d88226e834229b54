"""`azul-arena bench outside` (tournaments/benchmarks/outside.py) through the real referee,
with stand-in engines (tests/outside/clock_bot.py) that fault unless their seat has its own
clock: no AzulBot needed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournaments.cli import app

CLOCK_BOT = Path(__file__).with_name("clock_bot.py")


def _clock_entry(expect: float) -> str:
    return f"{sys.executable} {CLOCK_BOT} --expect {expect}"


def test_each_side_thinks_on_its_own_clock() -> None:
    """The engine's seat gets --engine-time, ours a --fraction of it, in both seats."""
    result = CliRunner().invoke(
        app,
        [
            "bench", "outside", "-e", _clock_entry(0.4), "-b", f"ours={_clock_entry(0.1)}",
            "-t", "0.4", "-f", "0.25", "-n", "2", "--isolation", "process", "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["bot"] == "ours" and data["faults"] == 0
    (setting,) = data["settings"]
    assert (setting["bot_time"], setting["engine_time"], setting["fraction"]) == (0.1, 0.4, 0.25)
    assert setting["games"] == 2 and setting["bot_faults"] == setting["engine_faults"] == 0
    assert setting["bot_fault_kinds"] == setting["engine_fault_kinds"] == {}
    # Both play the first legal move: the same deal, seats swapped, so one win each.
    assert setting["bot_wins"] + setting["engine_wins"] + setting["draws"] == 2
    low, high = setting["ci95"]
    assert low <= setting["win_rate"] <= high
    assert setting["goal"] is None and setting["goal_met"] is None  # no goal at a quarter


def test_a_slow_starting_engine_gets_the_startup_timeout() -> None:
    """An engine that takes 1.5 s to say Hello cannot start within a 1 s startup timeout (its
    faults), and plays within 10 s."""
    slow = f"{_clock_entry(0.3)} --startup-delay 1.5"
    faults = []
    for timeout in ("1", "10"):
        result = CliRunner().invoke(
            app,
            ["bench", "outside", "-e", slow, "-b", "first=random", "-t", "0.3", "-f", "1",
             "-n", "1", "--isolation", "process", "--startup-timeout", timeout, "--json"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        (setting,) = json.loads(result.output.strip().splitlines()[-1])["settings"]
        faults.append(setting["engine_faults"])
    assert faults[0] > 0 and faults[1] == 0, faults


def test_a_missing_engine_program_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["bench", "outside", "-e", "/nonexistent/engine --x"])
    assert result.exit_code == 2
    assert "/nonexistent/engine" in result.output and "PATH" in result.output


def test_our_bot_may_not_take_the_engine_name() -> None:
    result = CliRunner().invoke(
        app, ["bench", "outside", "-e", _clock_entry(1.0), "-b", "outside=greedy"]
    )
    assert result.exit_code == 2
    assert "NAME=SPEC" in result.output


@pytest.mark.slow
def test_an_engine_that_cannot_start_shows_as_its_faults_with_a_hint() -> None:
    """The sandbox shows a bot only its own folder and the project's packages, not tests/: the
    stand-in engine cannot start there, and the table says what to try."""
    from referee import IsolationError, require

    try:
        require("sandbox")
    except IsolationError as exc:
        pytest.skip(f"no sandbox here: {exc}")
    result = CliRunner().invoke(
        app,
        ["bench", "outside", "-e", _clock_entry(0.3), "-b", "first_legal=random",
         "-t", "0.3", "-f", "1", "-n", "1", "--isolation", "sandbox"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "faults at x1: ours {}" in result.output
    assert "--isolation process" in result.output
