"""`replay rerun`: a stored game played again with the same entries, seats, deals and bot seeds.
A reproducible bot follows its record; a changed bot shows the first move it plays otherwise; a
bot swapped into a seat plays the same deals. Real bot processes, real SQLite stores."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tournaments.cli import app
from tournaments.domain.entries import parse_entries
from tournaments.domain.rerun import movers
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import Store
from tournaments.domain.tournament import TournamentConfig, prepare, run_tournament

PICKY = '''
import sdk


class Picky(sdk.Bot):
    """A move drawn from self.rng; from its decision CHANGE_AT on (0: never), the last legal
    move instead: "a new version" of the bot."""

    CHANGE_AT = {change_at}

    def on_game_start(self, info):
        self.decisions = 0

    def choose_move(self, state):
        self.decisions += 1
        moves = state.legal_moves()
        if self.CHANGE_AT and self.decisions >= self.CHANGE_AT:
            return moves[-1]
        return self.rng.choice(moves)
'''


def tournament(tmp_path: Path) -> tuple[Path, Path]:
    bot = tmp_path / "picky.py"
    bot.write_text(PICKY.format(change_at=0))
    db = tmp_path / "t.db"
    chosen = parse_entries([f"picky={bot}", "greedy", "mcts:iterations=20"])
    with Store.open(db) as store:
        config, pending = prepare(
            store, TournamentConfig(entries=chosen, match=MatchSettings(time_per_move=5.0), seed=12)
        )
        summary = asyncio.run(run_tournament(store, config, pending, concurrency=2))
    assert summary.failed == 0 and summary.played == 6, summary.errors
    return db, bot


def invoke(*args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(app, ["replay", "rerun", *args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else {}


def games_of(db: Path) -> dict[str, dict[str, Any]]:
    with Store.open(db, create=False) as store:
        return {g.game.game_id: store.replay(g.game.game_id) or {} for g in store.games()}


def test_rerun_follows_the_record_then_finds_a_changed_bot_and_plays_a_swapped_one(
    tmp_path: Path,
) -> None:
    db, bot = tournament(tmp_path)
    games = games_of(db)
    for game_id in games:  # every game: the reference bots and the seeded file bot
        code, found = invoke("--db", str(db), "--game", game_id)
        assert code == 0 and found["same"] and found["first_difference"] is None, found
        assert found["scores"] == found["recorded_scores"]
    # Stepped through: no isolation and no time limit change nothing either.
    some = next(iter(games))
    code, found = invoke("--db", str(db), "--game", some, "--isolation", "none", "--no-time-limit")
    assert code == 0 and found["same"]

    # A new version of picky plays its 4th decision otherwise: the rerun names that move.
    bot.write_text(PICKY.format(change_at=4))
    game_id, record = next((g, r) for g, r in games.items() if "picky" in r["players"])
    seat = record["players"].index("picky")
    expected = [i for i, s in enumerate(movers(record)) if s == seat][3]
    moves = [m for rnd in record["rounds"] for m in rnd["moves"]]
    code, found = invoke("--db", str(db), "--game", game_id)
    assert code == 1 and not found["same"]
    diff = found["first_difference"]
    assert (diff["ply"], diff["seat"], diff["name"]) == (expected, seat, "picky")
    assert diff["recorded"] == moves[expected] and diff["played"] != moves[expected]

    # Would another bot have done better in that seat? The same deals, another player.
    bot.write_text(PICKY.format(change_at=0))
    code, found = invoke(
        "--db", str(db), "--game", game_id, "--seat", str(seat), "--entry", "greedy"
    )
    assert code == 0 and found["swapped_seat"] == seat and found["entries"][seat] == "greedy"
    assert found["terminations"] == ["ok", "ok"]


def test_rerun_explains_what_it_cannot_do(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["replay", "rerun", "--seat", "1"])
    assert result.exit_code == 2 and "--seat and --entry go together" in result.stderr
    bare = tmp_path / "bare.json"
    bare.write_text(
        json.dumps(
            json.loads(
                (Path(__file__).parents[1] / "engine" / "records" / "good-azul.json").read_text()
            )
        )
    )
    result = CliRunner().invoke(app, ["replay", "rerun", str(bare)])
    assert result.exit_code == 2 and "no referee part" in " ".join(result.stderr.split())
