"""A contest's life by its dates alone, as a department runs it: two ladder workers on one
database, a deadline and a closing date already past. Nobody types `contest set` or `contest
final`: the workers freeze the contest, one of them starts the final tournament, and the
contest closes once the final is played; each step made once, and recorded with who made it."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.server.test_cli import CLI, ROOT, database_env, database_query


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A command on the test's database (SQLite, or PostgreSQL under test_postgres.py)."""
    return subprocess.run(
        [*CLI, *args],
        capture_output=True,
        text=True,
        env=database_env(tmp_path),
        cwd=ROOT,
        timeout=120,
    )


def _show(tmp_path: Path, home: list[str]) -> dict[str, object]:
    shown = cli(tmp_path, "server", "contest", "show", "dated", *home, "--json")
    assert shown.returncode == 0, shown.stderr
    return dict(json.loads(shown.stdout))


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_two_workers_freeze_play_the_final_and_close_a_contest_by_its_dates(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "arena"
    home = ["--home", str(folder)]
    made = cli(
        tmp_path,
        "server",
        "contest",
        "create",
        "dated",
        *home,
        "--time-per-move",
        "0.1",
        "--deadline",
        "2020-01-01T17:00",
        "--closes",
        "2020-01-08T17:00",
        "--json",
    )
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["state"] == "open"  # its deadline is past: frozen at once
    workers = [
        subprocess.Popen(
            [*CLI, "server", "ladder", *home, "--contest", "dated", "-c", "1"],
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / f"worker-{i}.log").open("w"),
            env=database_env(tmp_path),
            cwd=ROOT,
        )
        for i in (1, 2)
    ]
    try:
        # The bars of the final: staff bots may be entered after the deadline.
        for name, bot in (("staff-random", "random"), ("staff-greedy", "greedy")):
            entered = cli(
                tmp_path, "server", "contest", "staff-bot", "dated", name, "--reference", bot, *home
            )
            assert entered.returncode == 0, entered.stderr
        # Watched in the database (`contest show` would make a due step itself).
        state = "SELECT state FROM arena_ladder_contest WHERE slug = 'dated'"
        deadline = time.monotonic() + 300
        while database_query(folder, state) != [("closed",)] and time.monotonic() < deadline:
            assert all(w.poll() is None for w in workers), "a worker stopped"
            time.sleep(1)
        about = _show(tmp_path, home)
    finally:
        for w in workers:
            w.send_signal(signal.SIGTERM)
        codes = [w.wait(timeout=60) for w in workers]
    logs = "".join((tmp_path / f"worker-{i}.log").read_text() for i in (1, 2))
    assert about["state"] == "closed", logs
    assert codes == [0, 0], logs
    steps = [(t["from"], t["to"]) for t in about["transitions"]]  # type: ignore[attr-defined]
    assert steps == [("open", "frozen"), ("frozen", "final"), ("final", "closed")], steps
    by = [t["by"] for t in about["transitions"]]  # type: ignore[attr-defined]
    assert all(b.startswith("ladder worker ") for b in by), by
    assert by[1].endswith("the contest's dates"), by
    assert about["handed_in"] == 2
    # The final was played once, by one process: its round-robin (one pair, two games on one
    # deal with the seats swapped) recorded once, and the standings exported from it.
    final = (
        "SELECT g.status, COUNT(*) FROM arena_finals_finalgame f "
        "JOIN arena_ladder_game g ON g.id = f.game_id GROUP BY g.status"
    )
    assert database_query(folder, final) == [("done", 2)]
    exported = cli(tmp_path, "server", "export-results", "dated", *home, "-o", str(tmp_path))
    assert exported.returncode == 0, exported.stderr
    with (tmp_path / "dated-standings.csv").open() as f:
        teams = sorted(row["team"] for row in csv.DictReader(f))
    assert teams == ["staff-greedy", "staff-random"]
    assert (tmp_path / "arena" / "logs" / "final-dated.log").exists()
