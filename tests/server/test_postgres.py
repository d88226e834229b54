"""The server on PostgreSQL: the whole-term, ladder, lifecycle, migration, several-workers and
dates tests run again on a real PostgreSQL server this test starts
(tournaments/server/postgres.py), in a pytest of their own (Django is configured once per
process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.server import postgres

ROOT = Path(__file__).resolve().parents[2]
WHY = postgres.missing()

pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")


@pytest.mark.slow  # the server's tests again on PostgreSQL: `make test-slow`, run by CI
def test_the_server_runs_a_term_on_postgresql() -> None:
    with postgres.server() as url:
        env = dict(os.environ, AZUL_ARENA_TEST_DATABASE_URL=url)
        env.pop("DATABASE_URL", None)
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "tests/server/test_term.py",
                "tests/server/test_ladder.py",
                "tests/server/test_lifecycle.py",
                "tests/server/test_migration.py",
                "tests/server/test_workers.py",
                "tests/server/test_dates.py",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-2000:]


def test_the_ladder_bench_measures_sqlite_and_postgresql_in_one_run() -> None:
    import json

    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "server",
            "bench",
            "--both",
            "--games",
            "4",
            "--entries",
            "2",
            "-c",
            "1",
            "--json",
        ],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout)
    assert result["sqlite"]["database"] == "sqlite"
    assert result["postgresql"]["database"] == "postgresql"
    for half in ("sqlite", "postgresql"):
        assert result[half]["games"] == 4 and result[half]["ladder_games_per_s"] > 0
    assert result["postgresql_over_sqlite"] == (
        result["postgresql"]["ladder_games_per_s"] / result["sqlite"]["ladder_games_per_s"]
    )
