"""`replay view` and `replay show` from the command line: files, databases, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.web.conftest import run_cli
from tournaments.domain.schedule import build_schedule
from tournaments.domain.store import GameOutcome, SeatOutcome, Store


def test_view_writes_next_to_the_record_and_refuses_bad_input(
    fault_record: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "game.json"
    copy.write_text(fault_record.read_text())
    done = run_cli("replay", "view", str(copy))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "game.html").read_text().startswith("<!doctype html>")
    bad = tmp_path / "bad.json"
    bad.write_text('{"ruleset": "azul", "players": 2, "rounds": []}')
    done = run_cli("replay", "view", str(bad))
    assert done.returncode == 1 and "rounds" in done.stderr and "Traceback" not in done.stderr
    done = run_cli("replay", "view", str(tmp_path / "missing.json"))
    assert done.returncode == 2 and "cannot read" in done.stderr
    done = run_cli("replay", "view")
    assert done.returncode == 2 and "--db FILE --game ID" in done.stderr


def test_view_and_show_a_game_of_a_tournament_database(fault_record: Path, tmp_path: Path) -> None:
    record = json.loads(fault_record.read_text())
    db = tmp_path / "t.db"
    games = build_schedule(["a", "b"], 2, 2, seed=1)
    with Store.open(db) as store:
        store.write_schedule({"seed": 1}, [], games)
        seats = [
            SeatOutcome("a", record["final_scores"][0], 2),
            SeatOutcome("b", record["final_scores"][1], 1),
        ]
        store.record(games[0], GameOutcome(seats, record))
    done = run_cli("replay", "view", "--db", str(db), "--game", games[0].game_id)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / f"t-{games[0].game_id}.html").exists()
    done = run_cli("replay", "view", "--db", str(db), "--game", "nope")
    assert done.returncode == 2 and "no finished game 'nope'" in done.stderr
    moves = [m for r in record["rounds"] for m in r["moves"]]
    done = run_cli("replay", "show", "--db", str(db), "--game", games[0].game_id, "--move", "3")
    assert done.returncode == 0, done.stderr
    assert f"move 3 of {len(moves)}" in done.stdout and moves[2] in done.stdout
    assert "takes" in done.stdout and "score" in done.stdout
    done = run_cli("replay", "show", str(fault_record), "--move", str(len(moves) + 1))
    assert done.returncode == 2 and f"moves 0 to {len(moves)}" in done.stderr


def test_summer_pavilion_moves_in_words_and_in_the_terminal(pavilion_record: Path) -> None:
    from tournaments.families import view_for

    view = view_for("pavilion")
    record = json.loads(pavilion_record.read_text())
    states, moves = view.replay_states(record)
    words = {m: view.describe(states[i], m) for i, m in enumerate(moves)}
    takes = [w for m, w in words.items() if len(m) == 2]
    assert takes and all(w.startswith("takes ") for w in takes)
    places = [w for m, w in words.items() if "-" in m]
    assert places and all(
        re.match(
            r"places \w+ on space [1-6] of (the \w+ star|star \d)"
            r" \(pays ",
            w,
        )
        for w in places
    )
    assert any(w.startswith("passes") for w in words.values())
    state = {
        "ruleset": "pavilion",
        "wild": "P",
        "centre": "PGGO",
        "factories": ["GGPB"],
        "marker_in_centre": True,
    }
    assert view.describe(state, "1G") == "takes 2 green and 1 wild purple from factory 1"
    assert view.describe(state, "CO") == (
        "takes 1 orange and 1 wild purple from the centre with the start token"
    )
    assert view.describe(state, "4-6B+5") == (
        "places blue on space 6 of the blue star (pays 1 blue and 5 wild purple)"
    )
    assert view.describe(state, "pass:GGO") == "passes, keeping 2 green and 1 orange"
    assert view.describe(state, "pass:OYBB") == "passes, keeping 1 orange, 1 yellow and 2 blue"
    assert view.describe(state, "bonus:R") == "takes a red bonus tile from the supply"
    done = run_cli("replay", "show", str(pavilion_record), "--move", "30")
    assert done.returncode == 0, done.stderr
    assert f"move 30 of {len(moves)}" in done.stdout and "supply" in done.stdout
    assert "centre star" in done.stdout


def test_bench_viewer_prints_its_figures() -> None:
    done = run_cli("bench", "viewer", "--no-browser", "--json", "--players", "2")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["rounds"] == 50 and figures["moves"] > 300
    assert figures["page_bytes"] > 100_000 and figures["build_s"] > 0
    assert figures["step_ms_mean"] is None and figures["browser"].startswith("not measured")
