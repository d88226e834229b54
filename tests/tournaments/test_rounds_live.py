"""Adaptive and Swiss tournaments through the real command, bots and store: a run killed
(SIGKILL) in the middle and rerun ends as an uninterrupted run does; entries join and leave a
running one."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.tournaments.test_interrupt import done_games
from tournaments.cli import app
from tournaments.domain.entries import Entry
from tournaments.domain.schedule import build_schedule
from tournaments.domain.store import Store

BOTS = Path(__file__).parent / "bots"
ROOT = Path(__file__).resolve().parents[2]


def _command(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "tournaments.cli", "tournament", *args, "--db", str(db)]


def _wait_for(db: Path, games: int, proc: subprocess.Popen[bytes], limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while done_games(db) < games:
        assert proc.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline, f"fewer than {games} games in {limit} s"
        time.sleep(0.02)


def _tournament(db: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every game in schedule order, with its results: what two runs must agree on."""
    with sqlite3.connect(db) as conn:
        games = conn.execute(
            "SELECT idx, game_id, seats, seed, status FROM games ORDER BY idx"
        ).fetchall()
        results = conn.execute(
            "SELECT game_idx, seat, entry, score, rank FROM results ORDER BY game_idx, seat"
        ).fetchall()
    return games, results


@pytest.mark.parametrize(
    "schedule, games",
    [
        # adaptive: 24 games twice over, about 7 s of CPU (CI runs it)
        pytest.param(["--schedule", "adaptive", "--games", "24"], 24, marks=pytest.mark.slow),
        (["--schedule", "swiss", "--rounds", "5"], 20),
    ],
    ids=["adaptive", "swiss"],
)
def test_killed_run_resumes_as_if_never_stopped(
    tmp_path: Path, schedule: list[str], games: int
) -> None:
    steady, weak = BOTS / "steady.py", BOTS / "weak.py"
    run = [
        "run",
        f"st1={steady}",
        f"st2={steady}",
        f"w1={weak}",
        f"w2={weak}",
        *schedule,
        "--seed",
        "5",
        "--concurrency",
        "2",
        "--time-per-move",
        "20",
        "--plain",
    ]
    whole, killed = tmp_path / "whole.db", tmp_path / "killed.db"
    uninterrupted = subprocess.Popen(
        _command(whole, *run), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    victim = subprocess.Popen(
        _command(killed, *run), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _wait_for(killed, 7, victim)  # inside the second round (four games a round)
    victim.send_signal(signal.SIGKILL)
    victim.wait(30)
    assert 7 <= done_games(killed) < games
    rerun = subprocess.run(
        _command(killed, *run), cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert "resuming" in rerun.stdout
    assert uninterrupted.wait(300) == 0
    first, second = _tournament(whole), _tournament(killed)
    assert len(first[0]) == games and len(first[1]) == 2 * games
    assert first == second


def test_entries_join_and_leave_a_running_tournament(tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    pacer = BOTS / "pacer.py"
    run = [
        "run",
        *(f"p{i}={pacer}" for i in range(1, 5)),
        "--schedule",
        "adaptive",
        "--games",
        "56",
        "--min-games",
        "4",
        "--seed",
        "2",
        "--concurrency",
        "2",
        "--plain",
    ]
    proc = subprocess.Popen(
        _command(db, *run), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        _wait_for(db, 2, proc)
        for change in (["add-entry", f"late={pacer}"], ["remove-entry", "p2"]):
            done = subprocess.run(
                _command(db, *change), cwd=ROOT, capture_output=True, text=True, timeout=120
            )
            assert done.returncode == 0, done.stdout + done.stderr
        assert proc.wait(300) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    with Store.open(db, create=False) as store:
        changes = store.entry_changes()
        stored = list(store.games())
    games = [g.game for g in stored]
    p2_finished = [g.finished_at for g in stored if "p2" in g.game.seats]
    assert [(c["action"], c["entry"]) for c in changes] == [("add", "late"), ("remove", "p2")]
    added_at, removed_at = changes[0]["games_done"], changes[1]["games_done"]
    assert added_at < 56 and removed_at < 56, "the run ended before the changes"
    first_of_round: dict[int, int] = {}
    for g in games:
        first_of_round.setdefault(g.deal, g.index)
    late = [g for g in games if "late" in g.seats]
    assert len(late) >= 4  # its minimum, although it came late
    assert all(first_of_round[g.deal] >= added_at for g in late)  # nothing was replayed
    p2 = [g for g in games if "p2" in g.seats]
    assert p2 and all(first_of_round[g.deal] <= removed_at for g in p2)  # its games stay
    # Its games not played yet when it left were withdrawn, a game in flight then included:
    # none of its results came in later. The others played the rest of the 56 (one short if
    # the removal cut a seat rotation in two).
    assert all(at is not None and at < changes[1]["at"] for at in p2_finished)
    assert 55 <= len(games) <= 56
    shown = subprocess.run(
        _command(db, "show"), cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0
    assert f"late joined after {added_at} games" in shown.stdout
    assert f"p2 removed (its games stay) after {removed_at} games" in shown.stdout
    as_json = subprocess.run(
        _command(db, "show", "--json"), cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    data = json.loads(as_json.stdout)
    assert [c["entry"] for c in data["entry_changes"]] == ["late", "p2"]
    assert {row["entry"] for row in data["leaderboard"]} >= {"late", "p2"}


def test_entry_changes_are_refused_where_they_cannot_apply(tmp_path: Path) -> None:
    runner = CliRunner()
    fixed = tmp_path / "rr.db"
    with Store.open(fixed) as store:
        entries = [Entry("a", "random"), Entry("b", "random")]
        store.write_schedule({"players": 2}, entries, build_schedule(["a", "b"], 2, 2, 1))
    result = runner.invoke(app, ["tournament", "add-entry", "c=random", "--db", str(fixed)])
    assert result.exit_code == 2 and "fixed from the start" in result.output
    growing = tmp_path / "swiss.db"
    with Store.open(growing) as store:
        store.write_schedule({"schedule": "swiss"}, entries, [])
    for args, message in (
        (["add-entry", "a=random"], "already an entry named 'a'"),
        (["add-entry", "c=./no/such/bot.py"], "c"),
        (["remove-entry", "zed"], "no entry named 'zed'"),
    ):
        result = runner.invoke(app, ["tournament", *args, "--db", str(growing)])
        assert result.exit_code == 2, result.output
        assert message in result.output
    assert (
        runner.invoke(app, ["tournament", "remove-entry", "b", "--db", str(growing)]).exit_code == 0
    )
    result = runner.invoke(app, ["tournament", "remove-entry", "b", "--db", str(growing)])
    assert result.exit_code == 2 and "already removed" in result.output
    result = runner.invoke(
        app, ["tournament", "add-entry", "x=random", "--db", str(tmp_path / "no.db")]
    )
    assert result.exit_code == 2 and "no tournament database" in result.output


def test_a_late_entry_keeps_its_own_limit_and_variables(tmp_path: Path) -> None:
    """`add-entry --memory --env` stores them with the entry: the run gives them to its bot
    as it gives a TOML entry's (tests/referee/test_entry_isolation.py plays one)."""
    runner = CliRunner()
    growing = tmp_path / "swiss.db"
    with Store.open(growing) as store:
        store.write_schedule(
            {"schedule": "swiss"}, [Entry("a", "random"), Entry("b", "random")], []
        )
    result = runner.invoke(
        app,
        [
            "tournament",
            "add-entry",
            "c=random",
            "--memory",
            "256M",
            "--env",
            "LEVEL=3",
            "--env",
            "HOME_ONLY",
            "--db",
            str(growing),
        ],
    )
    assert result.exit_code == 0, result.output
    with Store.open(growing, create=False) as store:
        assert store.entries()[-1] == Entry("c", "random", 256 << 20, ("LEVEL=3", "HOME_ONLY"))
        assert store.entries()[0] == Entry("a", "random")
    for bad, message in ((["--memory", "1M"], "too small"), (["--env", "1X"], "NAME=VALUE")):
        result = runner.invoke(
            app, ["tournament", "add-entry", "d=random", *bad, "--db", str(growing)]
        )
        assert result.exit_code == 2 and message in result.output, result.output
