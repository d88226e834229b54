"""`bench term`, a simulated term on a real server (tournaments/benchmarks/term.py), run small
through the command line: a class of 20 imported, 20 uploads over HTTP, two `server ladder`
processes for a minute while pages are asked for through gunicorn, the deadline, a graded
final. Its figures are measured, not asserted; what is asserted is that they were measured
and that nothing was lost."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.server.test_cli import CLI, ROOT, env

TEAMS = 20


@pytest.mark.slow  # a whole term on a real server, about 2 minutes: `make test-slow`, run by CI
def test_a_small_simulated_term_loses_nothing_and_says_what_it_measured(tmp_path: Path) -> None:
    home = tmp_path / "server"
    size = ["--participants", str(TEAMS), "--minutes", "1", "--page-rate", "3"]
    done = subprocess.run(
        [*CLI, "bench", "term", *size, "--home", str(home), "--json"],
        capture_output=True,
        text=True,
        # The final starts the moment the deadline has passed (its minute of grace for
        # uploads in flight is tested on its own: test_lifecycle).
        env=env(tmp_path) | {"AZUL_ARENA_UPLOAD_GRACE_SECONDS": "0"},
        cwd=ROOT,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["setup"]["uploads"]["requests"] == TEAMS
    assert result["setup"]["all_validated_s"] is not None
    lost = result["lost"]
    assert lost.pop("versions_uploaded") == TEAMS
    assert lost == {
        "uploads_refused": [],
        "versions_not_passed": 0,
        "games_said_recorded_twice": 0,
        "games_said_recorded_not_stored": 0,
        "games_stored_not_said": 0,
        "games_without_result": 0,
        "games_failed": 0,
        "games_left_scheduled": 0,
        "seat_logs_missing": 0,
        "final_games_not_played": 0,
    }
    games = result["ladder"]["games"]
    assert games > 0 and result["ladder"]["games_per_minute"] > 0
    for phase in ("validation", "ladder", "final", "quiet"):
        for kind in ("front", "participant", "game"):
            timing = result["pages"][phase][kind]
            # No game has ended in the first seconds of the validations: no game page then.
            if (phase, kind) != ("validation", "game"):
                assert timing["requests"] > 0, (phase, kind)
            if timing["requests"]:
                assert timing["p95_ms"] >= timing["p50_ms"] > 0
    assert result["pages"]["errors"] == {}
    final = result["final"]
    # Graded: each team 4 games against each of the 2 staff bots, then about 4 among the teams.
    assert final["entries"] == TEAMS + 2
    assert final["games"] == final["games_scheduled"] == final["games_planned"]
    assert final["games"] >= TEAMS * 2 * 4
    disk = result["disk"]
    stored = games + final["games"]  # the final's games are stored and log as the ladder's
    assert disk["seat_logs"]["files"] == 2 * stored  # two seats a game, each its own file
    assert disk["seat_logs"]["bytes"] > 0  # the teams' bots write a line a move
    assert disk["records_bytes"] > 0 and disk["database_bytes"] > disk["records_bytes"]
    assert disk["database_growth"]["games"] > 0 and disk["database_growth"]["bytes"] > 0
    assert all(value is not None for value in result["per_10000_games"].values())
    # The server it leaves is kept with --home, and is a server: its own logs say so.
    assert (home / "server.sqlite3").exists()
    assert sum(1 for _ in (home / "logs" / "games").iterdir()) == stored
