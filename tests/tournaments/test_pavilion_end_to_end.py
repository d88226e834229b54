"""Summer Pavilion through the real path: bot processes, the referee over gRPC (the typed
pavilion state on the wire), the SQLite store, and the commands a user types."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tournaments.test_end_to_end import cli, show


def test_a_pavilion_tournament_with_a_wild_order(tmp_path: Path) -> None:
    db = tmp_path / "pav.db"
    run = cli(
        "tournament",
        "run",
        "random",
        "greedy",
        "--ruleset",
        "pavilion",
        "--wild-order",
        "gopybr",
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
    assert "pavilion, wild order GOPYBR, 2 players" in run.stdout
    data = show(db, tmp_path)
    assert data["games_total"] == data["games_done"] == 2
    assert [row["entry"] for row in data["leaderboard"]] == ["greedy", "random"]
    assert all(row["faults"] == 0 for row in data["leaderboard"])
    exported = json.loads(
        cli("tournament", "export", "--db", str(db), "--json", cwd=tmp_path).stdout
    )
    assert exported["config"]["ruleset"] == "pavilion"
    assert exported["config"]["options"] == {"wild_order": "GOPYBR"}
    records = []
    for i, game in enumerate(exported["games"]):
        record = game["record"]
        assert record["ruleset"] == "pavilion" and record["options"] == {"wild_order": "GOPYBR"}
        assert record["referee"]["config"]["options"] == {"wild_order": "GOPYBR"}
        path = tmp_path / f"game{i}.json"
        path.write_text(json.dumps(record))
        records.append(str(path))
    rows = cli("tournament", "export", "--db", str(db), "--csv", cwd=tmp_path).stdout.splitlines()
    header = rows[0].split(",")
    assert header[-1] == "ruleset" and len(rows) == 5  # 2 games of 2 seats
    assert {row.split(",")[-1] for row in rows[1:]} == {"pavilion"}
    verified = cli("replay", "verify", *records, "--json", cwd=tmp_path)
    assert verified.returncode == 0
    shown = cli("tournament", "show", "--db", str(db), cwd=tmp_path).stdout
    assert "pavilion, wild order GOPYBR" in shown
    # Resuming with another wild order is another tournament: refused, nothing played.
    other = cli(
        "tournament",
        "run",
        "random",
        "greedy",
        "--ruleset",
        "pavilion",
        "--db",
        str(db),
        cwd=tmp_path,
        check=False,
    )
    assert other.returncode == 2 and "options" in other.stderr


def test_a_pavilion_match_through_the_referee_reads_as_it_goes(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    proc = cli(
        "match",
        "greedy",
        "random",
        "--ruleset",
        "pavilion-mono",
        "--seed",
        "5",
        "-t",
        "2",
        "--replay",
        str(record),
        cwd=tmp_path,
    )
    out = proc.stdout
    saved = json.loads(record.read_text())
    moves = [m for r in saved["rounds"] for m in r["moves"]]
    assert saved["ruleset"] == "pavilion-mono" and len(saved["rounds"]) == 6
    for phase in ("round 1, phase take", "round 1, phase play", "round 6, phase play"):
        assert phase in out
    # Every move said in words after its notation, as the game went.
    said = [line for line in out.splitlines() if line[:4].strip().isdigit() and ": " in line]
    assert len(said) == len(moves)
    assert any(": places " in line for line in said) and any(": passes" in line for line in said)
    assert "greedy" in out and "random" in out and "score" in out
    assert all(s["termination"] == "ok" for s in saved["referee"]["bots"])
    assert cli("replay", "verify", str(record), cwd=tmp_path).returncode == 0


def test_the_search_bot_plays_pavilion_through_the_referee(tmp_path: Path) -> None:
    proc = cli(
        "match",
        "search",
        "random",
        "--ruleset",
        "pavilion",
        "-t",
        "0.1",
        "--seed",
        "5",
        "--json",
        cwd=tmp_path,
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["ranks"] == [1, 2], result
    assert all(seat["termination"] == "ok" for seat in result["seats"]), result


def test_bot_check_of_a_pavilion_bot(tmp_path: Path) -> None:
    proc = cli("bot", "check", "greedy", "-r", "pavilion", "-t", "1", "--json", cwd=tmp_path)
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["passed"] is True and report["rulesets"] == ["pavilion"]
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["plays pavilion"]["passed"] and "3 games" in checks["plays pavilion"]["detail"]
