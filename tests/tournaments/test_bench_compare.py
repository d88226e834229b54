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
    assert out["statistic"] == "wdl" and "null" not in out


def test_bench_compare_refuses_a_bad_test() -> None:
    result = CliRunner().invoke(app, ["bench", "compare", "--elo1", "-5", "--json"])
    assert result.exit_code == 2 and "must be greater than" in result.stderr


def test_bench_compare_on_margins_checks_the_pairs_shifted_to_h0() -> None:
    result = CliRunner().invoke(
        app,
        [
            *("bench", "compare", "--new", "greedy", "--base", "random", "--pairs", "10"),
            *("--tests", "20", "--statistic", "margin", "--json"),
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["statistic"] == "margin" and out["pool_margin"] > 20  # greedy wins by far
    assert out["variance_ratio"] == out["variance_ratio_margin"]
    # The same pairs with every margin moved to no difference: H1 at most about alpha.
    for arm in out["null"].values():
        assert arm["tests"] == 20 and arm["h1_rate"] <= 0.25
    # BASE against itself with shared seeds: every pair is the same game twice, mirrored.
    assert out["same"]["duplicate"]["h0_rate"] == 1.0
