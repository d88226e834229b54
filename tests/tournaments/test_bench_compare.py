"""`bench compare`: real games recorded in-process, then simulated tests drawing from them;
its JSON keys are stable and its figures consistent."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tournaments.benchmarks.compare import pair_correlation, pool_intervals
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
    low, high = out["pool_elo_interval"]
    assert 0 < low <= out["pool_elo"] <= high
    m_low, m_high = out["pool_margin_elo_interval"]
    assert 0 < m_low <= out["pool_margin_elo"] <= m_high
    for key in ("pair_correlation_wdl", "pair_correlation_margin"):
        assert out[key] is None or -1.0 <= out[key] <= 1.0


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


def test_pair_correlation_reads_how_alike_a_pairs_games_are() -> None:
    # The same margin twice, the second seat 5 points worse: fully alike (the seat's edge
    # is not likeness); mirrored: they cancel; a game that never varies says nothing.
    alike = [(float(m) + 5, float(m)) for m in (-8, -1, 0, 3, 12)]
    assert pair_correlation(alike) == 1.0
    assert pair_correlation([(a, -a) for a, _ in alike]) == -1.0
    assert pair_correlation([(1.0, b) for _, b in alike]) is None
    unrelated = [(1.0, 1.0), (1.0, 0.0), (0.0, 1.0), (0.0, 0.0)]
    assert pair_correlation(unrelated) == 0.0


def test_pool_intervals_say_whether_a_small_difference_is_resolved() -> None:
    # Pairs won, lost and split alike: no difference, both intervals hold 0.
    even = [((1.0, 6.0), (1.0, 4.0)), ((0.0, -7.0), (0.0, -3.0)), ((1.0, 2.0), (0.0, -2.0))] * 3
    found = pool_intervals(even)
    for low, high in found.values():
        assert low < 0 < high
    # NEW wins 30 pairs of 40 and loses the rest's second game: resolved, low above 0.
    ahead = [((1.0, 9.0), (1.0, 4.0))] * 30 + [((1.0, 2.0), (0.0, -3.0))] * 10
    found = pool_intervals(ahead)
    assert found["pool_elo_interval"][0] > 0 and found["pool_margin_elo_interval"][0] > 0
