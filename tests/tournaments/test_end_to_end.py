"""Real tournaments through the CLI: real bot processes, the real referee, a real SQLite file.

The bots under tests/tournaments/bots are deterministic (a move depends only on the position),
so two runs with the same seed give identical games: that is what makes "a resumed run ends with
the same ratings as an uninterrupted one" checkable.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

BOTS = Path(__file__).parent / "bots"
STRONG, STEADY, WEAK, CRASH = (
    f"{n}={BOTS / f}"
    for n, f in (
        ("strong", "strong.py"),
        ("steady", "steady.py"),
        ("weak", "weak.py"),
        ("crash", "crasher.py"),
    )
)
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "tournaments.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def show(db: Path, cwd: Path) -> dict[str, Any]:
    return dict(json.loads(cli("tournament", "show", "--db", str(db), "--json", cwd=cwd).stdout))


def results(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT g.game_id, r.seat, r.entry, r.score, r.rank, r.termination "
            "FROM results r JOIN games g ON g.idx = r.game_idx "
            "ORDER BY g.idx, r.seat"
        ).fetchall()


def test_two_player_round_robin_crasher_last_stronger_first(tmp_path: Path) -> None:
    db = tmp_path / "rr.db"
    run = cli(
        "tournament",
        "run",
        STRONG,
        STEADY,
        WEAK,
        CRASH,
        "--games-per-pairing",
        "2",
        "--seed",
        "3",
        "--time-per-move",
        "2",
        "--db",
        str(db),
        "--concurrency",
        "2",
        cwd=tmp_path,
    )
    assert "Leaderboard" in run.stdout and "Crosstable" in run.stdout
    data = show(db, tmp_path)
    assert data["games_total"] == data["games_done"] == 6 * 2
    order = [row["entry"] for row in data["leaderboard"]]
    assert order[0] == "strong" and order[-1] == "crash", order
    assert order.index("steady") < order.index("weak")
    crash = data["leaderboard"][-1]
    assert crash["games"] == 6 and crash["wins"] == 0 and crash["faults"] >= 6
    assert all(row["games"] == 6 for row in data["leaderboard"])
    assert data["leaderboard"][0]["faults"] == 0
    # every game has its replay, and the export lists every seat of every game
    rows = list(
        csv.DictReader(
            io.StringIO(cli("tournament", "export", "--db", str(db), "--csv", cwd=tmp_path).stdout)
        )
    )
    assert len(rows) == 24 and {r["status"] for r in rows} == {"done"}
    exported = json.loads(
        cli("tournament", "export", "--db", str(db), "--json", cwd=tmp_path).stdout
    )
    assert all(g["record"]["final_scores"] for g in exported["games"])


def test_four_player_round_robin(tmp_path: Path) -> None:
    db = tmp_path / "four.db"
    cli(
        "tournament",
        "run",
        STRONG,
        STEADY,
        WEAK,
        "rnd=random",
        "--players",
        "4",
        "--seed",
        "5",
        "--time-per-move",
        "2",
        "--db",
        str(db),
        cwd=tmp_path,
    )
    data = show(db, tmp_path)
    assert data["games_total"] == data["games_done"] == 4  # one group, 4 seat rotations
    assert all(row["games"] == 4 for row in data["leaderboard"])
    assert data["leaderboard"][0]["entry"] == "strong"
    with sqlite3.connect(db) as conn:
        seats = conn.execute("SELECT seats FROM games ORDER BY idx").fetchall()
        seeds = {s for (s,) in conn.execute("SELECT seed FROM games")}
    assert {json.loads(s)[0] for (s,) in seats} == {"strong", "steady", "weak", "rnd"}
    assert len(seeds) == 1  # the same deal, rotated over every seat


def test_sigkill_mid_run_then_resume_matches_uninterrupted(tmp_path: Path) -> None:
    args = [
        "tournament",
        "run",
        STRONG,
        STEADY,
        WEAK,
        "--games-per-pairing",
        "8",
        "--seed",
        "11",
        "--time-per-move",
        "3",
        "--concurrency",
        "2",
        "--plain",
    ]
    total = 3 * 8
    reference = tmp_path / "reference.db"
    cli(*args, "--db", str(reference), cwd=tmp_path)

    killed = tmp_path / "killed.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", *args, "--db", str(killed)],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )
    done = 0
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if killed.exists():
                try:
                    with sqlite3.connect(f"file:{killed}?mode=ro", uri=True) as conn:
                        done = conn.execute(
                            "SELECT COUNT(*) FROM games WHERE status='done'"
                        ).fetchone()[0]
                except sqlite3.OperationalError:
                    done = 0  # schema not written yet
            if done >= 4:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)

    # The file of the killed run opens and shows what was done.
    partial = show(killed, tmp_path)
    assert partial["games_total"] == total
    assert 4 <= partial["games_done"] < total
    assert sum(r["games"] for r in partial["leaderboard"]) == 2 * partial["games_done"]
    kept = results(killed)

    out = cli(*args, "--db", str(killed), cwd=tmp_path).stdout
    assert "resuming" in out
    after = results(killed)
    assert after[: len(kept)] == kept or set(kept) <= set(after)  # nothing committed changed
    assert len(after) == 2 * total  # none lost, none twice
    assert len({(g, seat) for g, seat, *_ in after}) == 2 * total
    assert after == results(reference)  # the very same games as the uninterrupted run

    final, ref = show(killed, tmp_path), show(reference, tmp_path)
    assert final["games_done"] == total
    for a, b in zip(final["leaderboard"], ref["leaderboard"], strict=True):
        assert a["entry"] == b["entry"]
        assert a["mu"] == pytest.approx(b["mu"], abs=1e-9)
        assert a["sigma"] == pytest.approx(b["sigma"], abs=1e-9)


def test_rerun_of_finished_tournament_plays_nothing_and_other_options_are_refused(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.db"
    base = [
        "tournament",
        "run",
        STRONG,
        STEADY,
        WEAK,
        "--gauntlet",
        "strong",
        "--seed",
        "2",
        "--time-per-move",
        "2",
        "--db",
        str(db),
    ]
    cli(*base, cwd=tmp_path)
    first = results(db)
    assert {row[2] for row in first} == {"strong", "steady", "weak"}
    assert all("strong" in {r[2] for r in first if r[0] == g} for g, *_ in first)
    again = cli(*base, cwd=tmp_path)
    assert "resuming, 4 already played" in again.stdout
    assert results(db) == first
    other = cli(*base, "--players", "3", cwd=tmp_path, check=False)
    assert other.returncode == 2 and "different tournament" in other.stderr
    dup = cli(
        "tournament",
        "run",
        "random",
        "random",
        "--db",
        str(tmp_path / "d.db"),
        cwd=tmp_path,
        check=False,
    )
    assert dup.returncode == 2 and "unique" in dup.stderr


def test_bench_tournament_reports_its_figures(tmp_path: Path) -> None:
    out = cli("bench", "tournament", "--games", "12", "--json", cwd=tmp_path).stdout
    data = json.loads(out.strip().splitlines()[-1])
    assert data["games"] == 12 and data["failed"] == 0
    assert data["games_per_s"] > 0 and data["per_move_us"] > 0
    assert data["breakdown_us"]["bot round trip"] > 0


@pytest.mark.slow  # a benchmark's run at two concurrencies (CI runs it)
def test_bench_tournament_compares_concurrencies_in_one_run(tmp_path: Path) -> None:
    out = cli(
        "bench",
        "tournament",
        "--games",
        "6",
        "--entries",
        "4",
        "--concurrency",
        "1,4",
        "--repeat",
        "1",
        "--json",
        cwd=tmp_path,
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    assert data["concurrency"] == [1, 4] and data["rounds"] == 1
    one, four = data["levels"]
    assert one["concurrency"] == 1 and four["concurrency"] == 4
    assert one["games"] == four["games"] == 6 and one["failed"] == four["failed"] == 0
    assert one["ratio_to_first"] == 1.0 and four["games_per_s"] > 0
    # One game at a time: one process per entry at most, and the warm standby.
    assert 2 <= one["bot_processes_peak"] <= 4 + 1
    assert four["bot_processes_peak"] >= 4  # two games at once at least
    bad = cli("bench", "tournament", "--concurrency", "2,0", cwd=tmp_path, check=False)
    assert bad.returncode == 2 and "--concurrency '2,0'" in bad.stderr


@pytest.mark.slow
def test_demo_runs_a_real_round_robin(tmp_path: Path) -> None:
    out = cli(
        "demo", "--games-per-pairing", "2", "--db", str(tmp_path / "demo.db"), cwd=tmp_path
    ).stdout
    assert "Final leaderboard" in out
    assert re.search(r"^isolation: (sandbox|process|none)", out, re.M), out
    report = tmp_path / "demo-report.html"
    assert f"The report: {report}" in out.replace("\n", "") and report.exists()


def test_demo_says_its_isolation_before_its_first_game(tmp_path: Path) -> None:
    """`make demo` prints the isolation line as every run does (the README says so); the demo
    is stopped once it has said it (its games are `test_demo_runs_a_real_round_robin`'s)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "demo", "--db", str(tmp_path / "d.db")],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    seen = []
    try:
        for line in proc.stdout:
            seen.append(line)
            if line.startswith("isolation: ") or len(seen) > 3:
                break
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    assert re.match(r"isolation: (sandbox|process|none)\b", seen[-1]), "".join(seen)
    assert "round-robin" in "".join(seen[:-1])
