"""`bench rl`: the RL environments' steps per second beside the engine's moves, with stable JSON
keys, the measures taking turns in rounds, the env's own time apart from the agent's."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tournaments.cli import app

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: make install")

RATES = {
    "engine_moves_per_s",
    "aec_steps_per_s",
    "aec_loop_steps_per_s",
    "gym_steps_per_s",
    "gym_loop_steps_per_s",
    "gym_moves_per_s",
    "vector_steps_per_s",
    "vector_loop_steps_per_s",
}
RATIOS = {"aec_vs_engine", "gym_vs_engine", "vector_vs_engine"}


def test_bench_rl_reports_every_env_beside_the_engine() -> None:
    args = ["bench", "rl", "--ruleset", "pavilion", "--players", "3", "--steps", "300"]
    result = CliRunner().invoke(app, [*args, "--envs", "8", "--rounds", "3", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == RATES | RATIOS | {
        "ruleset", "players", "steps", "rounds", "vector_envs", "python", "compiled"
    }  # fmt: skip
    assert (out["ruleset"], out["players"], out["rounds"], out["vector_envs"]) == (
        "pavilion", 3, 3, 8
    )  # fmt: skip
    assert all(out[key] > 0 for key in RATES)
    for env in ("aec", "gym", "vector"):  # the loop is the env's calls plus the agent's pick
        assert out[f"{env}_loop_steps_per_s"] < out[f"{env}_steps_per_s"]
    assert out["gym_moves_per_s"] == pytest.approx(3 * out["gym_steps_per_s"])
    assert 0 < out["vector_vs_engine"] < 5 and 0 < out["aec_vs_engine"] < 5


def test_bench_rl_table_names_the_goals() -> None:
    result = CliRunner().invoke(app, ["bench", "rl", "--steps", "200", "--rounds", "2"])
    assert result.exit_code == 0, result.output
    assert "vectorised env, 64 games" in result.output and ">= 50%" in result.output
    assert "Medians of 2 rounds" in result.output
