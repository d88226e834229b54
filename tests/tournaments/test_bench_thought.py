"""`bench thought`: the searching bots' simulations per second of CPU over the same positions,
with stable JSON keys, figures consistent with what the bots did, and a readable table."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tournaments.cli import app

KEYS = {
    "bot",
    "decisions",
    "searched",
    "solved",
    "simulations",
    "simulations_per_s",
    "ms_per_search",
    "solver_nodes_per_s",
    "ms_per_solve",
    "ms_per_decision",
}


def test_bench_thought_measures_mcts_and_expert_in_one_run() -> None:
    result = CliRunner().invoke(
        app,
        ["bench", "thought", "--positions", "6", "--iterations", "40", "--seed", "3", "--json"],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["ruleset"], out["players"], out["iterations"]) == ("azul", 2, 40)
    assert out["positions"] == 6
    assert [row["bot"] for row in out["bots"]] == ["mcts", "expert"]
    for row in out["bots"]:
        assert set(row) == KEYS
        assert row["searched"] + row["solved"] == row["decisions"] == 6
        # A fixed budget: every searched decision ran exactly --iterations simulations.
        assert row["simulations"] == 40 * row["searched"]
        assert row["simulations_per_s"] > 0 if row["searched"] else True
        assert (row["solver_nodes_per_s"] > 0) == (row["solved"] > 0)
    assert out["bots"][0]["solved"] == 0  # mcts has no exact search


def test_bench_thought_prints_a_table_for_pavilion() -> None:
    result = CliRunner().invoke(
        app, ["bench", "thought", "--ruleset", "pavilion", "--positions", "3", "--iterations", "20"]
    )
    assert result.exit_code == 0, result.output
    assert "speed of thought" in result.stdout and "expert" in result.stdout
    assert "simulations/s" in result.stdout


def test_bench_thought_refuses_an_unknown_ruleset() -> None:
    result = CliRunner().invoke(app, ["bench", "thought", "--ruleset", "chess"])
    assert result.exit_code != 0 and "chess" in result.output
