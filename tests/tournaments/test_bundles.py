"""Entries packed for cluster workers: content-addressed bundles, portable specs, safe unpacking;
and the store's record of where each game was played."""

from __future__ import annotations

import io
import os
import sqlite3
import tarfile
from pathlib import Path

import pytest

from referee.folders import read_folder
from tests.tournaments.helpers import fake_outcome
from tournaments.domain.bundles import (
    digest_of,
    pack_folder,
    portable_entries,
    resolve_spec,
    unpack,
)
from tournaments.domain.entries import Entry, EntryError
from tournaments.domain.schedule import build_schedule
from tournaments.domain.store import Machine, Store


def bot_dir(base: Path) -> Path:
    folder = base / "alice"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "__pycache__" / "x.pyc").write_bytes(b"compiled")
    (folder / "build" / "CMakeFiles").mkdir(parents=True)
    (folder / "build" / "CMakeCache.txt").write_text("CMAKE_HOME_DIRECTORY=/organiser/alice\n")
    (folder / "bot.py").write_text("import helper\n")
    (folder / "helper.py").write_text("X = 1\n")
    (folder / "run.sh").write_text("#!/bin/sh\n")
    (folder / "run.sh").chmod(0o755)
    return folder


def test_a_folder_packs_to_the_same_bytes_whatever_its_times(tmp_path: Path) -> None:
    folder = bot_dir(tmp_path)
    first = pack_folder(folder)
    os.utime(folder / "bot.py", (1, 1))
    assert pack_folder(folder) == first
    with tarfile.open(fileobj=io.BytesIO(first), mode="r:gz") as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert sorted(members) == ["bot.py", "helper.py", "run.sh"]  # no caches
    assert members["run.sh"].mode == 0o755 and members["bot.py"].mode == 0o644
    (folder / "helper.py").write_text("X = 2\n")
    assert pack_folder(folder) != first


def test_entries_become_portable_specs_and_one_bundle_per_folder(tmp_path: Path) -> None:
    folder = bot_dir(tmp_path)
    entries = [
        Entry("a", str(folder / "bot.py")),
        Entry("b", f"{folder / 'bot.py'}:Other"),
        Entry("c", f"sh {folder / 'run.sh'} --level 3"),
        Entry("d", "random"),
        Entry("e", "/bin/sh -c true"),
        Entry("f", str(folder)),
    ]
    (folder / "bot.toml").write_text('run = "sh run.sh"\n')
    portable, bundles = portable_entries(entries)
    assert len(bundles) == 1  # one folder, packed once
    (digest,) = bundles
    assert digest == digest_of(bundles[digest])
    by_name = {p.name: p for p in portable}
    assert by_name["a"].spec == f"{{bundle:{digest}}}/bot.py"
    assert by_name["b"].spec == f"{{bundle:{digest}}}/bot.py:Other"
    assert by_name["c"].bundles == (digest,) and "--level 3" in by_name["c"].spec
    assert by_name["d"].spec == "random" and not by_name["d"].bundles
    assert by_name["e"].spec == "/bin/sh -c true"  # the machine's own program: not shipped
    assert by_name["f"].spec == f"{{bundle:{digest}}}"
    there = unpack(digest, bundles[digest], tmp_path / "cache")
    assert resolve_spec(by_name["a"].spec, {digest: there}) == f"{there}/bot.py"
    assert read_folder(resolve_spec(by_name["f"].spec, {digest: there})).path == there
    assert (there / "helper.py").read_text() == "X = 1\n"
    assert os.access(there / "run.sh", os.X_OK)


def test_unpacking_checks_the_digest_and_reuses_what_is_there(tmp_path: Path) -> None:
    data = pack_folder(bot_dir(tmp_path))
    digest = digest_of(data)
    with pytest.raises(ValueError, match="damaged"):
        unpack(digest, data[:-10] + b"0123456789", tmp_path / "cache")
    assert not (tmp_path / "cache" / "entries" / digest).exists()
    folder = unpack(digest, data, tmp_path / "cache")
    assert unpack(digest, b"", tmp_path / "cache") == folder  # already there: not read again
    assert [p.name for p in folder.parent.iterdir()] == [digest]  # no half-unpacked leftovers


def test_a_folder_too_large_to_ship_is_refused_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tournaments.domain.bundles as bundles

    monkeypatch.setattr(bundles, "MAX_BUNDLE_FILES", 2)
    folder = bot_dir(tmp_path)
    with pytest.raises(EntryError, match="folder of its own"):
        portable_entries([Entry("a", str(folder / "bot.py"))])


def test_the_store_keeps_where_each_game_was_played(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    entries = [Entry("a", "random"), Entry("b", "random")]
    games = build_schedule(["a", "b"], 2, 2, seed=1)
    with Store.open(db) as store:
        store.write_schedule({}, entries, games)
        outcome = fake_outcome(games[0])
        outcome.machine = Machine("m2", "process", 8)
        store.record(games[0], outcome)
    # A file from before these columns: they are added when it is opened, old games have none.
    with sqlite3.connect(db) as conn:
        for column in ("host", "isolation", "cpus"):
            conn.execute(f"ALTER TABLE games DROP COLUMN {column}")
    with Store.open(db, create=False) as store:
        assert [g.machine for g in store.games()] == [None, None]
        store.record(games[1], outcome)
        assert [g.machine for g in store.games()] == [None, Machine("m2", "process", 8)]
