"""Bad input to `tournament run|show|export` is refused with a clear message (exit 2) and
nothing is written; a second runner on one db is refused; a broken store write does not crash
the runner. In-process through typer's CliRunner with real SQLite files (fast)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournaments.helpers import fake_outcome
from tournaments.cli import app
from tournaments.domain.entries import Entry
from tournaments.domain.runner import run_games
from tournaments.domain.schedule import ScheduledGame, build_schedule
from tournaments.domain.store import GameOutcome, RunLock, Store


def invoke(*args: str) -> tuple[int, str]:
    """Exit code and stderr with rich's line wrapping undone."""
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, " ".join(result.stderr.split())


def tables(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}


def make_store(db: Path, n_done: int = 0, record_size: int = 0) -> list[ScheduledGame]:
    entries = [Entry(n, "random") for n in "abcd"]
    games = build_schedule([e.name for e in entries], 2, 2, seed=1)
    with Store.open(db) as store:
        store.write_schedule({"seed": 1}, entries, games)
        for game in games[:n_done]:
            outcome = fake_outcome(game)
            outcome.record["padding"] = "x" * record_size
            store.record(game, outcome)
    return games


def test_unknown_entry_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    db = tmp_path / "typo.db"
    code, err = invoke("tournament", "run", "random", "grredy", "--db", str(db))
    assert code == 2
    assert "entry 'grredy': unknown bot entry 'grredy'" in err and "random" in err
    assert not db.exists()
    code, err = invoke("tournament", "run", "random", f"me={tmp_path / 'gone.py'}", "--db", str(db))
    assert code == 2 and "entry 'me': bot file not found" in err
    code, err = invoke("tournament", "run", "random", "no-such-program-xyz --fast", "--db", str(db))
    assert code == 2 and "program 'no-such-program-xyz'" in err and "PATH" in err
    toml = tmp_path / "e.toml"
    toml.write_text(
        '[[entry]]\nname = "a"\nbuiltin = "random"\n[[entry]]\nname = "b"\nbuiltin = "grredy"\n'
    )
    code, err = invoke("tournament", "run", "--entries", str(toml), "--db", str(db))
    assert code == 2 and "entry 2: unknown built-in bot 'grredy'" in err
    assert not db.exists() and not Path(f"{db}.lock").exists()


def test_bad_ruleset_and_player_count_are_refused_before_the_db(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    code, err = invoke(
        "tournament", "run", "random", "greedy", "--ruleset", "nope", "--db", str(db)
    )
    assert code == 2 and "'nope' is not a ruleset" in err
    assert "azul, azul-mini, azul-gray, azul-greenbox" in err
    assert not db.exists()


def test_a_built_in_bot_that_does_not_play_the_ruleset_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every reference bot plays every ruleset: a built-in that names no rulesets (the classic
    # family) stands in for one that does not.
    from referee import builtin_bots

    monkeypatch.setitem(builtin_bots(), "first", "bots.first_bot:FirstBot")
    db = tmp_path / "p.db"
    code, err = invoke(
        "tournament", "run", "first", "random", "--ruleset", "pavilion", "--db", str(db)
    )
    assert code == 2 and "the built-in bot first does not play pavilion" in err
    assert not db.exists()
    code, err = invoke("play", "first", "--ruleset", "pavilion")
    assert code == 2 and "the built-in bot first does not play pavilion" in err


def test_error_messages_keep_their_brackets(tmp_path: Path) -> None:
    toml = tmp_path / "e.toml"
    toml.write_text("x = 1\n")
    code, err = invoke("tournament", "run", "--entries", str(toml), "--db", str(tmp_path / "x.db"))
    assert code == 2 and "expected a list of [[entry]] tables" in err


def test_binary_entries_file(tmp_path: Path) -> None:
    toml = tmp_path / "e.toml"
    toml.write_bytes(b"\xff\xfe\x00\x81 binary")
    code, err = invoke("tournament", "run", "--entries", str(toml), "--db", str(tmp_path / "x.db"))
    assert code == 2 and f"{toml} is not a text (UTF-8) TOML file" in err


def test_db_paths_that_cannot_be_a_db(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    for verb in (["run", "random", "greedy"], ["show"], ["export", "--csv"]):
        code, err = invoke("tournament", *verb, "--db", str(folder))
        assert code == 2 and f"{folder} is a directory" in err, (verb, err)
    plain = tmp_path / "somefile"
    plain.write_text("hello")
    code, err = invoke("tournament", "run", "random", "greedy", "--db", str(plain / "x.db"))
    assert code == 2 and f"{plain} is a file, not a folder" in err
    assert plain.read_text() == "hello"


def test_another_applications_sqlite_file_is_left_alone(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE people (name TEXT)")
    meta = tmp_path / "meta.db"  # a table called meta, but not ours
    with sqlite3.connect(meta) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO meta VALUES ('owner', 'someone else')")
    for db, before in ((other, {"people"}), (meta, {"meta", "sqlite_autoindex_meta_1"})):
        data = db.read_bytes()
        for verb in (["run", "random", "greedy"], ["show"]):
            code, err = invoke("tournament", *verb, "--db", str(db))
            assert code == 2 and "not an azul-arena database" in err, (db, verb, err)
        assert tables(db) == before
        assert db.read_bytes() == data  # not even switched to WAL


def test_export_to_a_missing_folder(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    make_store(db, n_done=2)
    code, err = invoke(
        "tournament",
        "export",
        "--json",
        "--db",
        str(db),
        "-o",
        str(tmp_path / "missing" / "x.json"),
    )
    assert code == 2 and "-o" in err and "does not exist" in err
    code, _ = invoke(
        "tournament", "export", "--json", "--db", str(db), "-o", str(tmp_path / "x.json")
    )
    assert code == 0 and (tmp_path / "x.json").stat().st_size > 0


def test_database_damaged_in_the_middle(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    make_store(db, n_done=12, record_size=20_000)  # replays spread over many pages
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
    size = db.stat().st_size
    with open(db, "r+b") as f:  # header and schema intact, data pages garbage
        f.seek(size // 3)
        f.write(b"\xa5" * (size // 3))
    code, err = invoke("tournament", "export", "--json", "--db", str(db))  # reads replays
    assert code == 2 and f"cannot read the tournament database {db}" in err
    assert "damaged" in err
    for verb in (["export", "--csv"], ["show", "--json"]):  # a clear error or a result
        code, err = invoke("tournament", *verb, "--db", str(db))  # never a traceback
        assert code == 0 or "cannot read the tournament database" in err, (verb, err)


def test_second_runner_on_one_db_is_refused_at_once(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with RunLock(db):
        code, err = invoke("tournament", "run", "random", "greedy", "--db", str(db))
    assert code == 2
    assert f"another azul-arena run is using {db}; wait for it or use another --db" in err
    assert not db.exists()
    with RunLock(db):  # released by the first holder: taken again at once
        pass


def test_a_failing_store_write_does_not_crash_the_runner(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    games = make_store(db, n_done=1)  # game 0 is already recorded: recording it again fails

    async def play(game: ScheduledGame) -> GameOutcome:
        return fake_outcome(game)

    reported: list[tuple[str, str | None]] = []
    with Store.open(db) as store:
        summary = asyncio.run(
            run_games(
                store,
                games,
                play,
                concurrency=2,
                on_done=lambda g, o, e: reported.append((g.game_id, e)),
            )
        )
        assert store.counts() == (len(games), len(games))
    assert summary.played == len(games) - 1 and summary.failed == 1
    game_id, error = summary.errors[0]
    assert game_id == games[0].game_id and "could not record the result" in error
    assert "already recorded" in error
    assert (games[0].game_id, error) in reported


def test_show_still_reads_a_good_db(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    make_store(db, n_done=3)
    code, err = invoke("tournament", "show", "--db", str(db))
    assert code == 0, err
