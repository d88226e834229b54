"""Kit bots in real games: the Node.js sample, the C++ sample and a Python reference bot through
the real referee, in a match and in a short tournament (the CLI, a TOML entries file naming the
kit folders, the SQLite store)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import Arena, MatchConfig, MatchResult
from tournaments.cli import app

runner = CliRunner()


@pytest.mark.slow  # builds the C++ kit: about a minute of CPU on a fresh checkout (CI runs it)
def test_a_match_between_the_node_sample_the_cpp_sample_and_a_python_bot(
    node_bot: Path, cpp_bot: Path, tmp_path: Path
) -> None:
    seats = [str(node_bot), str(cpp_bot), "greedy"]

    async def go() -> MatchResult:
        async with Arena(seats, log_dir=tmp_path) as arena:
            return await arena.play(
                seats, MatchConfig(seed=7, time_per_move=0.5, first_move_allowance=1.0)
            )

    result = asyncio.run(go())
    assert result.reason == "completed"
    assert [s.bot_name for s in result.seats] == ["greedy-js", "greedy-cpp", "greedy"]
    assert [s.termination for s in result.seats] == ["ok", "ok", "ok"]
    assert all(s.strikes == 0 and s.moves >= 10 for s in result.seats)
    assert sorted(result.ranks)[0] == 1 and len(result.record["rounds"]) >= 5


@pytest.mark.slow  # builds the C++ kit: about a minute of CPU on a fresh checkout (CI runs it)
def test_a_tournament_of_kit_folders_named_in_a_toml_entries_file(
    node_bot: Path, cpp_bot: Path, tmp_path: Path
) -> None:
    entries = tmp_path / "entries.toml"
    entries.write_text(
        f'[[entry]]\nname = "js"\nfolder = "{node_bot}"\n'
        f'[[entry]]\nname = "cpp"\nfolder = "{cpp_bot}"\n'
        '[[entry]]\nname = "py"\nbuiltin = "greedy"\n'
        '[[entry]]\nname = "rnd"\nbuiltin = "random"\n'
    )
    db = tmp_path / "t.db"
    run = runner.invoke(
        app,
        [
            "tournament",
            "run",
            "--entries",
            str(entries),
            "--seed",
            "2",
            "--time-per-move",
            "0.5",
            "--db",
            str(db),
            "--plain",
        ],
    )
    assert run.exit_code == 0, run.output
    shown = runner.invoke(app, ["tournament", "show", "--db", str(db), "--json"])
    data = json.loads(shown.output)
    assert data["games_total"] == data["games_done"] == 6 * 2  # 6 pairs, both seat orders
    board = {row["entry"]: row for row in data["leaderboard"]}
    assert set(board) == {"js", "cpp", "py", "rnd"}
    assert all(row["faults"] == 0 and row["games"] == 6 for row in board.values())
    assert data["leaderboard"][-1]["entry"] == "rnd"  # every greedy bot beats random


@pytest.mark.slow  # builds the C++ kit: about a minute of CPU on a fresh checkout (CI runs it)
def test_bench_latency_sets_a_kit_bot_beside_the_sdk_bot(cpp_bot: Path) -> None:
    """The figures' shape only (the bench prints times; tests never judge them)."""
    run = runner.invoke(
        app,
        ["bench", "latency", "--entry", str(cpp_bot), "--games", "1", "--spawns", "1", "--json"],
    )
    assert run.exit_code == 0, run.output
    figures = json.loads(run.output.strip().splitlines()[-1])
    [kit] = figures["entries"]
    assert kit["entry"] == str(cpp_bot) and kit["moves"] >= 10
    assert kit["per_move_us"] > 0 and kit["sdk_per_move_us"] > 0
    assert abs(kit["ratio_to_sdk"] - kit["per_move_us"] / kit["sdk_per_move_us"]) < 0.01


def test_bench_latency_refuses_an_entry_that_cannot_start(tmp_path: Path) -> None:
    run = runner.invoke(app, ["bench", "latency", "--entry", str(tmp_path), "--json"])
    assert run.exit_code == 2 and "bot.toml" in run.output
