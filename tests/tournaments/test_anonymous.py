"""`tournament run --anonymous`: the bots are told their seats, not whom they play, as a
contest server's are; the tournament stores it, and a resume must ask for it again. Real bot
processes through the command line."""

from __future__ import annotations

import re
from pathlib import Path

from tests.tournaments.test_end_to_end import cli
from tournaments.domain.store import Store

TELLER = str(Path(__file__).parents[1] / "referee" / "bots" / "teller.py")


def test_an_anonymous_tournament_tells_no_bot_whom_it_plays(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    run = ["tournament", "run", f"ann={TELLER}", f"ben={TELLER}", "--db", str(db)]
    quick = ["--seed", "1", "--games-per-pairing", "2", "--time-per-move", "0.5", "--plain"]
    proc = cli(*run, *quick, "--anonymous", cwd=tmp_path)
    assert "bots are told their seats, not whom they play" in " ".join(proc.stdout.split())
    told = set()
    for log in (tmp_path / "logs").rglob("*.log"):
        told |= set(re.findall(r"i am (.+?) process", log.read_text()))
    assert told == {"seat 1", "seat 2"}, told
    with Store.open(db, create=False) as store:
        assert (store.config() or {}).get("anonymous") is True
        replays = [store.replay(g.game.game_id) or {} for g in store.games(done_only=True)]
    assert len(replays) == 2
    assert all(r["referee"]["config"]["anonymous"] is True for r in replays)
    assert all(set(r["players"]) == {"ann", "ben"} for r in replays), "records keep the names"
    # A resume without the flag would tell the bots the names: refused, nothing played.
    again = cli(*run, *quick, cwd=tmp_path, check=False)
    assert again.returncode == 2, again.stdout + again.stderr
    assert "anonymous (stored True" in " ".join(again.stderr.split())
