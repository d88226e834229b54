"""`bench compare`: real games recorded in-process, then simulated tests drawing from them;
its JSON keys are stable and its figures consistent."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tournaments.cli import app


def test_bench_compare_prints_its_figures() -> None:
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "compare",
            "--new",
            "greedy",
            "--base",
            "random",
            "--pairs",
            "10",
            "--tests",
            "20",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["pairs_recorded"] == 10 and sum(out["pool_pair_outcomes"]) == 10
    assert out["pool_elo"] > 200  # greedy beats random nearly always
    different, same = out["different"], out["same"]
    assert different["duplicate"]["h1_rate"] == 1.0 == different["independent"]["h1_rate"]
    for arm in (*different.values(), *same.values()):
        assert arm["tests"] == 20
        assert arm["h1_rate"] + arm["h0_rate"] + arm["inconclusive_rate"] == 1.0
    # The ratio is taken before the means are rounded to one decimal for printing.
    ratio = different["duplicate"]["mean_games"] / different["independent"]["mean_games"]
    assert out["games_ratio"] == pytest.approx(ratio, abs=0.01)


def test_bench_compare_refuses_a_bad_test() -> None:
    result = CliRunner().invoke(app, ["bench", "compare", "--elo1", "-5", "--json"])
    assert result.exit_code == 2 and "must be greater than" in result.stderr
