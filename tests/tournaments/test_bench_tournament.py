"""`bench tournament`: the referee's CPU a move, the transport's floor and the referee's with no
match measured in the same run, and `--profile`, a profile of the referee's process kept in the
benchmark's output; real bot processes and a real referee, a few games."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tournaments.cli import app

PROFILE_ROW = {
    "function",
    "calls_per_move",
    "own_us_per_move",
    "cumulative_us_per_move",
    "own_share",
}


def test_bench_tournament_profiles_the_referee_and_sets_it_beside_the_floor() -> None:
    args = "bench tournament --games 6 --concurrency 1 --profile --top 12 --json"
    result = CliRunner().invoke(app, args.split())
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["games"], out["failed"]) == (6, 0)
    # One game at a time: the games counted are the games stored, so the two figures agree.
    per_move = 1e3 * out["referee_cpu_ms_per_game"] * out["games"] / out["moves"]
    assert out["referee_cpu_us_per_move"] == pytest.approx(per_move)
    assert out["referee_cpu_us_per_move"] > 0 and out["bot_cpu_us_per_move"] > 0
    assert out["sampling_cpu_ms_per_game"] >= 0
    assert out["bare_pingpong_us"] > 0 and out["bare_pingpong_cpu_us"] > 0
    assert out["per_move_ratio_to_pingpong"] == pytest.approx(
        out["per_move_us"] / out["bare_pingpong_us"]
    )
    assert out["referee_cpu_ratio_to_pingpong"] == pytest.approx(
        out["referee_cpu_us_per_move"] / out["bare_pingpong_cpu_us"]
    )
    # The referee with its match taken away, asking the same bots in turn in the same run.
    for key in ("no_match_per_move_us", "no_match_cpu_us_per_move", "no_match_bot_cpu_us_per_move"):
        assert out[key] > 0, key
    assert out["per_move_ratio_to_no_match"] == pytest.approx(
        out["per_move_us"] / out["no_match_per_move_us"]
    )
    assert out["referee_cpu_ratio_to_no_match"] == pytest.approx(
        out["referee_cpu_us_per_move"] / out["no_match_cpu_us_per_move"]
    )
    assert out["referee_cpu_over_no_match_us"] == pytest.approx(
        out["referee_cpu_us_per_move"] - out["no_match_cpu_us_per_move"]
    )
    profile = out["profile"]
    assert profile["moves"] == out["moves"] and profile["profiled_us_per_move"] > 0
    for key in ("top_own", "top_cumulative"):
        rows = profile[key]
        assert len(rows) == 12 and all(set(row) == PROFILE_ROW for row in rows)
    cumulative = [row["cumulative_us_per_move"] for row in profile["top_cumulative"]]
    assert cumulative == sorted(cumulative, reverse=True)
    # The match is what a tournament's referee spends its time in: it heads the list.
    assert any("referee/match.py" in row["function"] for row in profile["top_cumulative"])


def test_bench_tournament_prints_the_profile_tables() -> None:
    result = CliRunner().invoke(
        app, ["bench", "tournament", "--games", "2", "--concurrency", "1", "--profile"]
    )
    assert result.exit_code == 0, result.output
    assert "top functions by own time" in result.stdout
    assert "top functions by cumulative time" in result.stdout
    assert "bare gRPC ping-pong" in result.stdout and "us of CPU a move" in result.stdout


def test_bench_tournament_profiles_one_embedded_run_only() -> None:
    result = CliRunner().invoke(
        app, ["bench", "tournament", "--games", "2", "--profile", "--workers", "1"]
    )
    assert result.exit_code == 2
    assert "--profile profiles one run" in result.output
