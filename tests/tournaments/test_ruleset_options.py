"""Ruleset options (Summer Pavilion's wild_order) on the command line and in a tournament's
database; the match command draws the table as the game goes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.tournaments.test_end_to_end import cli
from tournaments.commands.tournament import describe_rules
from tournaments.domain.entries import Entry
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import Store
from tournaments.domain.tournament import TournamentConfig, prepare


def test_wild_order_is_refused_for_a_ruleset_without_wild_colours(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    for command in (
        ["tournament", "run", "random", "greedy", "--db", str(db)],
        ["match", "random", "greedy"],
    ):
        proc = cli(
            *command, "--ruleset", "azul", "--wild-order", "GOPYBR", cwd=tmp_path, check=False
        )
        assert proc.returncode == 2, proc.stdout + proc.stderr
        said = " ".join(proc.stderr.split())
        assert "azul has no option wild_order (these rulesets do: pavilion" in said
        assert "azul has no options" in said
    assert not db.exists()


def test_option_key_value_is_checked_against_the_family_schema(tmp_path: Path) -> None:
    for args, said in (
        (["--option", "colour=red"], "pavilion has no option colour"),
        (["--option", "wild-order"], "write KEY=VALUE"),
        (["--option", "wild_order=PPPPPP"], "six letters, each of P G O Y B R once"),
    ):
        proc = cli(
            "match", "random", "greedy", "--ruleset", "pavilion", *args, cwd=tmp_path, check=False
        )
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert said in " ".join(proc.stderr.split()), proc.stderr
    # An unknown key lists the options the ruleset has, with their defaults.
    proc = cli(
        "match",
        "random",
        "greedy",
        "--ruleset",
        "pavilion",
        "--option",
        "x=1",
        cwd=tmp_path,
        check=False,
    )
    assert "the options wild_order (default PGOYBR)" in " ".join(proc.stderr.split())


def test_option_and_its_alias_give_the_same_options(tmp_path: Path) -> None:
    from tournaments.commands.common import check_ruleset

    by_option = check_ruleset("pavilion", 2, ["wild-order=gopybr"])
    assert by_option == check_ruleset("pavilion", 2, [], "GOPYBR") == {"wild_order": "GOPYBR"}
    assert check_ruleset("azul", 2, []) == {}


def test_a_database_written_before_options_resumes_without_a_mismatch(tmp_path: Path) -> None:
    entries = [Entry("a", "random"), Entry("b", "random")]
    with Store.open(tmp_path / "old.db") as store:
        config = TournamentConfig(entries=entries, seed=4)
        old = config.to_json()
        assert "options" not in old  # no options: stored as before rulesets had any
        prepare(store, config)
        store.conn.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps(old),))
        store.conn.commit()
        again, pending = prepare(store, TournamentConfig(entries=entries))
        assert again.seed == 4 and len(pending) == 2


def test_the_options_are_stored_with_the_schedule(tmp_path: Path) -> None:
    entries = [Entry("a", "random"), Entry("b", "random")]
    db = tmp_path / "p.db"
    with Store.open(db) as store:
        prepare(
            store,
            TournamentConfig(
                entries=entries,
                match=MatchSettings(ruleset="pavilion", options={"wild_order": "GOPYBR"}),
                seed=1,
            ),
        )
    with sqlite3.connect(db) as conn:
        stored = json.loads(
            conn.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0]
        )
    assert stored["ruleset"] == "pavilion" and stored["options"] == {"wild_order": "GOPYBR"}
    assert describe_rules(stored) == (
        "pavilion, wild order GOPYBR, 2 players, 1 s a move (wall clock)"
    )
    with Store.open(db) as store:  # the same tournament with another order is another one
        try:
            prepare(
                store,
                TournamentConfig(
                    entries=entries,
                    match=MatchSettings(ruleset="pavilion", options={"wild_order": "PGOYBR"}),
                ),
            )
        except ValueError as exc:
            assert "options" in str(exc) and "GOPYBR" in str(exc)
        else:
            raise AssertionError("a different wild order must not resume this tournament")


def test_a_match_says_each_move_and_shows_the_table_at_each_round(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    out = cli(
        "match", "greedy", "random", "--seed", "3", "-t", "1", "--replay", str(record), cwd=tmp_path
    ).stdout
    moves = [m for r in json.loads(record.read_text())["rounds"] for m in r["moves"]]
    assert "round 1, phase take" in out and "round 2, phase take" in out
    assert out.index("round 1, phase take") < out.index(f"   1  greedy {moves[0]}: takes")
    assert out.count(" takes ") == len(moves)  # every move in words
    rounds = len(json.loads(record.read_text())["rounds"])
    assert out.count("floor ") == 2 * rounds + 2  # both boards at each round, and at the end
    assert "seed 3" in out
