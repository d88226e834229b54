"""`bot compare NEW BASE`: real bot processes through the referee, in duplicate pairs, until
the sequential test decides; resumable; the same seed the same test; bad arguments exit 2.
The schedule and the tally alone (pure) first."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournaments.cli import app
from tournaments.domain.arena import seed_key
from tournaments.domain.compare import CompareSpec, CompareTally, pair_games
from tournaments.domain.settings import MatchSettings
from tournaments.domain.sprt import MIN_GAMES, SprtSettings
from tournaments.domain.store import SeatOutcome
from tournaments.domain.tournament import TournamentConfig

KEYS = {"verdict", "llr", "bounds", "games", "pairs", "wins", "draws", "losses", "elo", "elo_ci"}


def compare(*args: str, cwd: Path) -> tuple[int, dict, str]:
    """Run the real CLI (its own process, as a user does); exit code, JSON, stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.cli", "bot", "compare", *args, "--json"],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
        check=False,
    )
    return done.returncode, json.loads(done.stdout or "{}"), done.stderr


def test_pairs_swap_new_and_base_on_one_deal() -> None:
    spec = CompareSpec("new", "base")
    first, second = pair_games(spec, [], 2, pair=5, first=10, seed=3)
    assert (first.seats, second.seats) == (("new", "base"), ("base", "new"))
    assert first.seed == second.seed and (first.index, second.index) == (10, 11)
    # 3 players: the filler keeps its seat within a pair; NEW and BASE move from pair to pair
    seats = [[g.seats for g in pair_games(spec, ["f"], 3, k, 0, 3)] for k in range(3)]
    assert seats[0] == [("new", "base", "f"), ("base", "new", "f")]
    assert seats[1] == [("f", "new", "base"), ("f", "base", "new")]
    assert seats[2] == [("new", "f", "base"), ("base", "f", "new")]
    four = {g.seats for k in range(6) for g in pair_games(spec, ["f1", "f2"], 4, k, 0, 3)}
    assert len({s.index("new") for s in four}) == 4 == len({s.index("base") for s in four})


def _seats(new_rank: int, base_rank: int, new_points: int = 0) -> list[SeatOutcome]:
    return [SeatOutcome("new", new_points, new_rank), SeatOutcome("base", 0, base_rank)]


def test_both_games_of_a_pair_give_each_seat_the_same_bot_seed() -> None:
    games = pair_games(CompareSpec("new", "base"), [], 2, pair=3, first=6, seed=1)
    shared = MatchSettings(seed=1, seeds_by_deal=True)
    assert seed_key(games[0], shared) == seed_key(games[1], shared) == "deal-3"
    assert seed_key(games[0], MatchSettings(seed=1)) != seed_key(games[1], MatchSettings(seed=1))
    assert TournamentConfig(entries=[], schedule="compare").settings().seeds_by_deal
    assert not TournamentConfig(entries=[]).settings().seeds_by_deal


def test_the_margin_statistic_decides_on_points() -> None:
    # NEW ranks level with BASE every game (no wins: wdl sees nothing) but scores 10 more.
    games = [
        g for k in range(40) for g in pair_games(CompareSpec("new", "base"), [], 2, k, 2 * k, 1)
    ]
    tallies = {s: CompareTally(CompareSpec("new", "base", statistic=s)) for s in ("wdl", "margin")}
    for tally in tallies.values():
        for game in games:
            tally.add(game, _seats(1, 1, new_points=10))
    by_margin, by_ranks = tallies["margin"].result(), tallies["wdl"].result()
    assert by_margin.verdict == "H1" and by_margin.games == MIN_GAMES  # none before MIN_GAMES
    assert by_margin.margin == 10.0 and by_margin.statistic == "margin"
    assert by_ranks.verdict != "H1" and by_ranks.wdl_elo == pytest.approx(0.0)
    assert by_margin.to_json()["statistic"] == "margin" and by_ranks.to_json()["margin"] == 10.0


def test_a_compare_stored_before_margins_reads_as_wdl() -> None:
    stored = CompareSpec("new", "base").to_json()
    del stored["statistic"]
    assert CompareSpec.from_json(stored).statistic == "wdl"


def test_the_tally_reads_pairs_in_order_and_stops_at_the_first_decision() -> None:
    spec = CompareSpec("new", "base", SprtSettings(0, 200))
    tally = CompareTally(spec)
    games = [g for k in range(12) for g in pair_games(spec, [], 2, k, 2 * k, 1)]
    # pair 0's second game comes last: nothing is counted until it does
    for game in [games[0], *games[2:]]:
        tally.add(game, _seats(1, 2))
    assert tally.result().pairs == 0 and tally.played == 23
    tally.add(games[1], _seats(1, 2))
    result = tally.result()
    assert result.verdict == "H1" and 0 < result.pairs < 12 and result.games == 2 * result.pairs
    assert result.wins == result.games and result.pair_outcomes[4] == result.pairs
    tally.add(games[1], _seats(2, 1))  # a game seen again changes nothing counted
    assert tally.result().pairs == result.pairs


@pytest.mark.slow
@pytest.mark.parametrize("statistic", ["wdl", "margin"])
def test_a_stronger_mcts_is_found_better(tmp_path: Path, statistic: str) -> None:
    code, out, err = compare(
        "mcts:iterations=200",
        "mcts:iterations=50",
        "--statistic",
        statistic,
        "--ruleset",
        "azul",
        "--seed",
        "1",
        "--elo1",
        "100",
        "--max-games",
        "80",
        "--time-per-move",
        "5",
        "--db",
        str(tmp_path / "c.db"),
        cwd=tmp_path,
    )
    assert code == 0, err
    assert out["verdict"] == "H1" and out["llr"] >= out["bounds"][1] and out["elo"] > 100
    assert KEYS <= set(out) and out["wins"] > out["losses"] and out["statistic"] == statistic
    assert out["margin"] > 0 and out["wdl_elo_ci"][0] < out["wdl_elo"] < out["wdl_elo_ci"][1]


@pytest.mark.slow  # a sequential test to its end through the referee: `make test-slow`, run by CI
def test_a_bot_against_itself_is_not_found_better(tmp_path: Path) -> None:
    code, out, err = compare(
        "greedy",
        "greedy",
        "--seed",
        "2",
        "--max-games",
        "60",
        "--db",
        str(tmp_path / "c.db"),
        cwd=tmp_path,
    )
    assert code == 1, err
    assert KEYS <= set(out) and out["verdict"] in ("H0", "inconclusive")
    assert out["new"] == "greedy-new" and out["base"] == "greedy-base"
    assert out["games"] == 2 * out["pairs"] <= 60 and out["llr"] < out["bounds"][1]
    # Each seat keeps its bot seed over a pair: the twins play the same game twice, seats
    # exchanged, so every pair is one win each and its two margins cancel exactly.
    assert out["pair_outcomes"] == [0, 0, out["pairs"], 0, 0]
    assert out["pair_correlation"] == -1.0 and out["margin"] == 0.0
    low, high = out["elo_ci"]
    assert low <= out["elo"] <= high


@pytest.mark.slow  # two compares through the referee: `make test-slow`, run by CI
def test_resumes_with_more_games_and_the_same_seed_gives_the_same_test(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    args = ("greedy", "random", "--seed", "3", "--elo1", "5", "--db", str(db))
    code, first, err = compare(*args, "--max-games", "4", cwd=tmp_path)
    assert code == 1 and first["verdict"] == "inconclusive" and first["games_played"] == 4, err
    assert "raise --max-games" in err
    code, second, err = compare(*args, "--max-games", "8", cwd=tmp_path)
    assert second["games_played"] == 8 and "resuming, 4 games already played" in " ".join(
        err.split()
    )
    with sqlite3.connect(db) as conn:  # the first 4 games were not played again
        assert conn.execute("SELECT MAX(attempts), COUNT(*) FROM games").fetchone() == (1, 8)
    code, again, err = compare(
        "greedy",
        "random",
        "--seed",
        "3",
        "--elo1",
        "5",
        "--max-games",
        "8",
        "--db",
        str(tmp_path / "d.db"),
        cwd=tmp_path,
    )
    assert {k: again[k] for k in KEYS} == {k: second[k] for k in KEYS}, err
    code, _, err = compare(*args[:-4], "--elo1", "30", "--db", str(db), cwd=tmp_path)
    assert code == 2 and "holds another compare: --elo1 (stored 5, asked 30)" in " ".join(
        err.split()
    )


def test_three_players_with_fillers(tmp_path: Path) -> None:
    _, out, err = compare(
        "greedy",
        "random",
        "--players",
        "3",
        "--fill",
        "random",
        "--seed",
        "4",
        "--max-games",
        "4",
        "--db",
        str(tmp_path / "c.db"),
        cwd=tmp_path,
    )
    assert out["games_played"] == 4, err
    with sqlite3.connect(tmp_path / "c.db") as conn:
        seats = [json.loads(r[0]) for r in conn.execute("SELECT seats FROM games ORDER BY idx")]
    assert seats[0] == ["greedy", "random", "fill1"] and seats[1] == ["random", "greedy", "fill1"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--elo0", "10", "--elo1", "5"], "--elo1 (5) must be greater than --elo0 (10)"),
        (["--alpha", "0.7"], "--alpha is a probability between 0 and 0.5"),
        (["--players", "3", "--fill", "grredy"], "unknown bot entry 'grredy'"),
        (["--ruleset", "chess"], "--ruleset 'chess' is not a ruleset"),
        (["--statistic", "points"], "--statistic is one of wdl, margin, not 'points'"),
    ],
)
def test_bad_arguments_exit_2_saying_what_is_wrong(
    tmp_path: Path, args: list[str], says: str
) -> None:
    db = tmp_path / "c.db"
    result = CliRunner().invoke(app, ["bot", "compare", "greedy", "random", "--db", str(db), *args])
    assert result.exit_code == 2
    assert says in " ".join(result.stderr.split())
    assert not db.exists()
