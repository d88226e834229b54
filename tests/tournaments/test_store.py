"""The SQLite store: schema, schedule before games, one transaction per result, resume."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.tournaments.helpers import fake_outcome
from tournaments.domain.entries import Entry
from tournaments.domain.schedule import build_schedule
from tournaments.domain.store import SCHEMA_VERSION, Store, StoreError

ENTRIES = [Entry("a", "random"), Entry("b", "random"), Entry("c", "random")]


def make(tmp_path: Path) -> tuple[Store, list]:
    store = Store.open(tmp_path / "t.db")
    games = build_schedule([e.name for e in ENTRIES], 2, 2, seed=5)
    store.write_schedule({"seed": 5}, ENTRIES, games)
    return store, games


def test_schema_version_wal_and_schedule_first(tmp_path: Path) -> None:
    store, games = make(tmp_path)
    assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.counts() == (0, len(games))
    assert store.pending_games() == games
    assert store.entries() == ENTRIES
    assert store.config() == {"seed": 5}
    with pytest.raises(StoreError, match="already holds"):
        store.write_schedule({}, ENTRIES, games)


def test_record_once_and_resume_list(tmp_path: Path) -> None:
    store, games = make(tmp_path)
    store.record(games[0], fake_outcome(games[0]))
    store.record(games[2], fake_outcome(games[2]))
    with pytest.raises(StoreError, match="already recorded"):
        store.record(games[0], fake_outcome(games[0]))
    assert store.counts() == (2, 6)
    assert [g.index for g in store.pending_games()] == [1, 3, 4, 5]
    record = store.replay(games[0].game_id)
    assert record is not None and record["players"] == list(games[0].seats)
    done = list(store.games(done_only=True))
    assert [g.game.index for g in done] == [0, 2]
    assert [s.entry for s in done[0].seats] == list(games[0].seats)
    store.close()
    # A second connection (a fresh process) sees exactly the same.
    with Store.open(tmp_path / "t.db", create=False) as again:
        assert again.counts() == (2, 6)
        assert again.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 4


def test_failed_write_leaves_nothing_half_done(tmp_path: Path) -> None:
    store, games = make(tmp_path)
    bad = fake_outcome(games[1])
    bad.seats[1].score = None  # type: ignore[assignment]  # NOT NULL violation mid-transaction
    with pytest.raises(sqlite3.IntegrityError):
        store.record(games[1], bad)
    assert store.counts() == (0, 6)
    assert store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0
    store.record(games[1], fake_outcome(games[1]))
    assert store.counts() == (1, 6)


def test_record_error_keeps_game_pending(tmp_path: Path) -> None:
    store, games = make(tmp_path)
    store.record_error(games[0], "boom")
    row = store.conn.execute(
        "SELECT status, attempts, last_error FROM games WHERE idx=0"
    ).fetchone()
    assert tuple(row) == ("pending", 1, "boom")


def test_uncommitted_transaction_of_a_killed_writer_is_invisible(tmp_path: Path) -> None:
    store, games = make(tmp_path)
    store.record(games[0], fake_outcome(games[0]))
    # Simulate a writer dying mid-transaction: begin, write, never commit, drop the connection.
    store.conn.execute("BEGIN IMMEDIATE")
    store.conn.execute("UPDATE games SET status='done' WHERE idx=1")
    reader = Store.open(tmp_path / "t.db", create=False)
    assert reader.counts() == (1, 6)
    store.conn.close()
    assert reader.counts() == (1, 6)


def test_not_a_store_and_future_schema(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a tournament database"):
        Store.open(junk)
    with pytest.raises(StoreError, match="no tournament database"):
        Store.open(tmp_path / "missing.db", create=False)
    store, _ = make(tmp_path)
    store.conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    store.close()
    with pytest.raises(StoreError, match="schema version 99"):
        Store.open(tmp_path / "t.db")
