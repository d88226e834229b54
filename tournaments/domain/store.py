"""The tournament store: one SQLite file holding the config, the schedule, results and replays.

Durability rules, because organisers need results that survive a crash:

- WAL journal: readers (`tournament show`) never block the runner, and a killed writer leaves a
  file that opens cleanly (SQLite rolls back the unfinished transaction).
- The whole schedule is written, in one transaction, before the first game is played.
- Each finished game (per-seat results + the replay JSON + status `done`) is one transaction,
  committed before the game is reported; a game is never recorded twice (`record` refuses).
- `synchronous=NORMAL`: a commit survives the process being killed (the WAL is in the OS page
  cache); only a power cut could lose the last few games, which a resume then replays.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tournaments.domain.entries import Entry
from tournaments.domain.schedule import ScheduledGame

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    position INTEGER PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    spec     TEXT NOT NULL,
    options  TEXT
);
CREATE TABLE IF NOT EXISTS games (
    idx         INTEGER PRIMARY KEY,
    game_id     TEXT NOT NULL UNIQUE,
    seats       TEXT NOT NULL,           -- JSON list of entry names, seat order
    seed        INTEGER NOT NULL,
    grp         INTEGER NOT NULL,
    deal        INTEGER NOT NULL,
    rotation    INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    duration    REAL,
    finished_at REAL,
    host        TEXT,                    -- where it was played (see `Machine`)
    isolation   TEXT,
    cpus        INTEGER
);
CREATE INDEX IF NOT EXISTS games_status ON games (status, idx);
CREATE TABLE IF NOT EXISTS results (
    game_idx    INTEGER NOT NULL REFERENCES games (idx),
    seat        INTEGER NOT NULL,
    entry       TEXT NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL,
    termination TEXT NOT NULL,
    strikes     INTEGER NOT NULL DEFAULT 0,
    faults      TEXT NOT NULL DEFAULT '{}',   -- JSON {kind: count}
    move_time   REAL NOT NULL DEFAULT 0,
    moves       INTEGER NOT NULL DEFAULT 0,
    cpu_time    REAL,                    -- seconds of CPU the seat's processes used
    PRIMARY KEY (game_idx, seat)
);
CREATE TABLE IF NOT EXISTS replays (
    game_idx INTEGER PRIMARY KEY REFERENCES games (idx),
    record   TEXT NOT NULL                   -- the game record JSON (docs/engine.md "Records")
);
"""


def removed(changes: list[dict[str, Any]]) -> set[str]:
    """The entries retired by a run's entry changes (their games stay; they are paired no
    more)."""
    return {c["entry"] for c in changes if c["action"] == "remove"}


class StoreError(RuntimeError):
    """The database cannot be used as asked (another tournament, newer schema, not a store)."""


class GameWithdrawn(StoreError):
    """The game left the schedule before its result came: one of its entries was removed."""


@dataclass
class SeatOutcome:
    """How one seat did in one game."""

    entry: str
    score: int
    rank: int
    termination: str = "ok"
    strikes: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    move_time: float = 0.0
    moves: int = 0
    cpu_time: float | None = None  # None: not measured (a remote bot, an older store)
    log: str = ""  # its bot process's log file, where the referee knows it (not stored here)


@dataclass(frozen=True)
class Machine:
    """Where a game was played: the host, the bots' isolation level and the host's CPU count."""

    host: str
    isolation: str
    cpus: int


@dataclass
class GameOutcome:
    """A finished game as the store keeps it."""

    seats: list[SeatOutcome]
    record: dict[str, Any]
    duration: float = 0.0
    machine: Machine | None = None


@dataclass
class StoredGame:
    """A game read back from the store, with its outcome when it is done."""

    game: ScheduledGame
    status: str
    seats: list[SeatOutcome]
    duration: float | None
    finished_at: float | None
    attempts: int
    last_error: str | None
    machine: Machine | None = None


class GameStore(Protocol):
    """What a tournament's run, its rounds and its report use of where its games are kept:
    `Store` (a SQLite file of its own) is one, a contest server's final (rows of the server's
    database, tournaments/server/finals/store.py) another. Every finished game is committed
    once (`record` refuses a second time), so a run that stopped resumes with what is pending."""

    path: Path  # named in messages; no bot may read it or its companions

    def config(self) -> dict[str, Any] | None: ...

    def write_schedule(
        self, config: dict[str, Any], entries: Sequence[Entry], games: Sequence[ScheduledGame]
    ) -> None: ...

    def add_games(self, games: Sequence[ScheduledGame]) -> None: ...

    def schedule_end(self) -> tuple[int, int, int]: ...

    def removed_entries(self) -> set[str]: ...

    def entries(self) -> list[Entry]: ...

    def pending_games(self) -> list[ScheduledGame]: ...

    def scheduled(self, game: ScheduledGame) -> bool: ...

    def counts(self) -> tuple[int, int]: ...

    def record(self, game: ScheduledGame, outcome: GameOutcome) -> None: ...

    def record_error(self, game: ScheduledGame, error: str) -> None: ...

    def games(self, done_only: bool = False, since: int = 0) -> Iterator[StoredGame]: ...

    def replay(self, game_id: str) -> dict[str, Any] | None: ...


def _machine(row: sqlite3.Row) -> Machine | None:
    if "host" not in row.keys() or row["host"] is None:
        return None
    return Machine(row["host"], row["isolation"] or "", row["cpus"] or 0)


def _prepare_path(path: Path) -> None:
    """Refuse a directory as the db; create the db's folder (errors as `StoreError`)."""
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a tournament database file")
    for folder in path.parents:
        if folder.exists():
            if not folder.is_dir():
                raise StoreError(f"cannot use {path}: {folder} is a file, not a folder")
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create the folder {path.parent} for the database {path}: {exc.strerror or exc}"
        ) from None


def _insert_games(c: sqlite3.Connection, games: Sequence[ScheduledGame]) -> None:
    c.executemany(
        "INSERT INTO games (idx, game_id, seats, seed, grp, deal, rotation) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (g.index, g.game_id, json.dumps(list(g.seats)), g.seed, g.group, g.deal, g.rotation)
            for g in games
        ],
    )


class RunLock:
    """An exclusive, non-blocking lock on `<db>.lock` held while a run writes to the db.

    `with RunLock(db):` raises `StoreError` at once when another run holds it. The lock goes
    with the process (flock), so a killed runner never leaves a stale lock behind.
    """

    def __init__(self, db: Path) -> None:
        self.db = Path(db)
        self.path = Path(f"{db}.lock")
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        _prepare_path(self.db)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StoreError(
                f"cannot create the lock file {self.path}: {exc.strerror or exc}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"another azul-arena run is using {self.db}; wait for it or use another --db"
            ) from None
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None


class Store:
    """A tournament database. Open with `Store.open(path)`; use as a context manager."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, create: bool = True) -> Store:
        """Open (and with `create`, initialise) the store at `path`."""
        path = Path(path)
        if not create and not path.exists():
            raise StoreError(f"no tournament database at {path}")
        _prepare_path(path)
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves (each transaction explicit).
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=30.0)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from None
        conn.row_factory = sqlite3.Row
        try:
            store = cls(conn, path)
            store._init_schema(create)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{path} is not a tournament database: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        return store

    def _pragmas(self) -> None:
        # Set only once the file is known to be ours (WAL mode changes the file's header).
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")

    def _init_schema(self, create: bool) -> None:
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master")}
        if "meta" in tables:
            try:
                row = self.conn.execute(
                    "SELECT value FROM meta WHERE key = 'schema_version'"
                ).fetchone()
                version = int(row[0]) if row else 0
            except (sqlite3.OperationalError, ValueError, TypeError):
                row, version = None, 0
            if row is None or version < 1:
                # Someone else's `meta` table: adding our tables would spoil their file.
                raise StoreError(
                    f"{self.path} is not an azul-arena database (it has tables "
                    "but no azul-arena schema version); give another --db"
                )
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has schema version {version}; this azul-arena reads up to "
                    f"{SCHEMA_VERSION}: upgrade azul-arena"
                )
            if version == SCHEMA_VERSION:
                self._pragmas()
                self._add_columns()
                return
        elif tables:
            raise StoreError(
                f"{self.path} is not an azul-arena database (it holds other "
                "tables); give another --db"
            )
        if not create:
            raise StoreError(f"{self.path} holds no tournament yet")
        self._pragmas()
        with self.transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )

    # Columns added since schema version 1, which older azul-arena versions read past.
    _ADDED_COLUMNS = (
        ("games", "host", "TEXT"),
        ("games", "isolation", "TEXT"),
        ("games", "cpus", "INTEGER"),
        ("results", "cpu_time", "REAL"),
        ("entries", "options", "TEXT"),
    )  # a late entry's memory and env

    def _add_columns(self) -> None:
        for table, column, kind in self._ADDED_COLUMNS:
            have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                try:
                    self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                except sqlite3.OperationalError:
                    pass  # a read-only file: it is read without them (games() copes)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions --------------------------------------------------------------------

    class _Tx:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def __enter__(self) -> sqlite3.Connection:
            # IMMEDIATE takes the write lock now, so two runners on one file fail fast and clear.
            self.conn.execute("BEGIN IMMEDIATE")
            return self.conn

        def __exit__(self, exc_type: object, *rest: object) -> None:
            self.conn.execute("ROLLBACK" if exc_type else "COMMIT")

    def transaction(self) -> Store._Tx:
        """`with store.transaction():` one atomic unit of writes."""
        return Store._Tx(self.conn)

    # -- config and schedule ---------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as c:
            c.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def config(self) -> dict[str, Any] | None:
        """The tournament's config as stored with its schedule, or None for a fresh store."""
        raw = self.get_meta("config")
        return None if raw is None else dict(json.loads(raw))

    def has_schedule(self) -> bool:
        return self.config() is not None

    def write_schedule(
        self, config: dict[str, Any], entries: Sequence[Entry], games: Sequence[ScheduledGame]
    ) -> None:
        """Store config, entries and the whole schedule in one transaction (before any game)."""
        with self.transaction() as c:
            if c.execute("SELECT 1 FROM meta WHERE key = 'config'").fetchone():
                raise StoreError(f"{self.path} already holds a tournament")
            c.execute(
                "INSERT INTO meta (key, value) VALUES ('config', ?), ('created_at', ?)",
                (json.dumps(config, sort_keys=True), str(time.time())),
            )
            c.executemany(
                "INSERT INTO entries (position, name, spec) VALUES (?, ?, ?)",
                [(i, e.name, e.spec) for i, e in enumerate(entries)],
            )
            _insert_games(c, games)

    def add_games(self, games: Sequence[ScheduledGame]) -> None:
        """Append games to the schedule in one transaction (the next round of a tournament
        whose pairings follow its results)."""
        with self.transaction() as c:
            _insert_games(c, games)

    def schedule_end(self) -> tuple[int, int, int]:
        """(next game index, next group number, next deal number) after the stored schedule."""
        row = self.conn.execute(
            "SELECT COALESCE(MAX(idx), -1), COALESCE(MAX(grp), -1), COALESCE(MAX(deal), -1) "
            "FROM games"
        ).fetchone()
        return int(row[0]) + 1, int(row[1]) + 1, int(row[2]) + 1

    # -- entries that join late or retire (adaptive and Swiss) -----------------------------

    def entry_changes(self) -> list[dict[str, Any]]:
        """Entries added or removed after the start, oldest first: {action, entry, spec,
        at (unix time), games_done (when it happened)}."""
        raw = self.get_meta("entry_changes")
        return [] if raw is None else list(json.loads(raw))

    def removed_entries(self) -> set[str]:
        """Entries retired with `remove_entry` (their games stay; they are paired no more)."""
        return removed(self.entry_changes())

    def _note_change(self, c: sqlite3.Connection, change: dict[str, Any]) -> None:
        row = c.execute("SELECT value FROM meta WHERE key = 'entry_changes'").fetchone()
        changes = [] if row is None else list(json.loads(row[0]))
        done = c.execute("SELECT COUNT(*) FROM games WHERE status = 'done'").fetchone()[0]
        changes.append(dict(change, at=time.time(), games_done=int(done)))
        c.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('entry_changes', ?)",
            (json.dumps(changes),),
        )

    def add_entry(self, entry: Entry) -> None:
        """Add a late entry (one transaction; a running tournament pairs it from its next
        round). Raises `StoreError` if the name is taken."""
        with self.transaction() as c:
            if c.execute("SELECT 1 FROM entries WHERE name = ?", (entry.name,)).fetchone():
                raise StoreError(f"there is already an entry named {entry.name!r} in {self.path}")
            position = c.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM entries").fetchone()[
                0
            ]
            c.execute(
                "INSERT INTO entries (position, name, spec, options) VALUES (?, ?, ?, ?)",
                (
                    position,
                    entry.name,
                    entry.spec,
                    json.dumps(entry.options()) if entry.options() else None,
                ),
            )
            self._note_change(c, {"action": "add", "entry": entry.name, "spec": entry.spec})

    def remove_entry(self, name: str) -> int:
        """Retire an entry: its games played stay, its games not played yet (of the current
        round, in flight included) are withdrawn from the schedule, and it is paired no more.
        Returns how many games were withdrawn. Raises `StoreError` for an unknown or already
        removed entry."""
        with self.transaction() as c:
            if not c.execute("SELECT 1 FROM entries WHERE name = ?", (name,)).fetchone():
                raise StoreError(f"there is no entry named {name!r} in {self.path}")
            if name in self.removed_entries():
                raise StoreError(f"entry {name!r} is already removed")
            rows = c.execute("SELECT idx, seats FROM games WHERE status = 'pending'").fetchall()
            withdrawn = [(r["idx"],) for r in rows if name in json.loads(r["seats"])]
            c.executemany("DELETE FROM games WHERE idx = ?", withdrawn)
            self._note_change(c, {"action": "remove", "entry": name, "withdrawn": len(withdrawn)})
        return len(withdrawn)

    def entries(self) -> list[Entry]:
        """Every entry, a late one with the options it was added with (memory, env); those of
        the first entries are in the stored config."""
        rows = self.conn.execute("SELECT * FROM entries ORDER BY position").fetchall()
        found = []
        for r in rows:
            options = json.loads(r["options"] or "{}") if "options" in r.keys() else {}
            found.append(Entry.with_options(r["name"], r["spec"], options))
        return found

    @staticmethod
    def _scheduled(row: sqlite3.Row) -> ScheduledGame:
        return ScheduledGame(
            index=row["idx"],
            game_id=row["game_id"],
            seats=tuple(json.loads(row["seats"])),
            seed=row["seed"],
            group=row["grp"],
            deal=row["deal"],
            rotation=row["rotation"],
        )

    def pending_games(self) -> list[ScheduledGame]:
        """The games not finished yet, in schedule order: what a (resumed) run has to play."""
        rows = self.conn.execute("SELECT * FROM games WHERE status = 'pending' ORDER BY idx")
        return [self._scheduled(r) for r in rows]

    def scheduled(self, game: ScheduledGame) -> bool:
        """Whether `game` is in the schedule (not withdrawn by `remove_entry`)."""
        return (
            self.conn.execute(
                "SELECT 1 FROM games WHERE idx = ? AND game_id = ?", (game.index, game.game_id)
            ).fetchone()
            is not None
        )

    def hosts(self) -> dict[str, int]:
        """The machines that played the games done so far: host name -> games."""
        rows = self.conn.execute(
            "SELECT host, COUNT(*) AS n FROM games WHERE status = 'done' AND host IS NOT NULL "
            "GROUP BY host ORDER BY host"
        ).fetchall()
        return {str(row["host"]): int(row["n"]) for row in rows}

    def counts(self) -> tuple[int, int]:
        """(games done, games in the schedule)."""
        row = self.conn.execute(
            "SELECT COUNT(*) AS total, COALESCE(SUM(status = 'done'), 0) AS done FROM games"
        ).fetchone()
        return int(row["done"]), int(row["total"])

    # -- results --------------------------------------------------------------------------

    def record(self, game: ScheduledGame, outcome: GameOutcome) -> None:
        """Commit one finished game: per-seat results, replay and status, all or nothing.

        Raises `StoreError` if the game is already done, so no game is ever counted twice.
        """
        machine = outcome.machine
        with self.transaction() as c:
            updated = c.execute(
                "UPDATE games SET status = 'done', duration = ?, finished_at = ?, "
                "attempts = attempts + 1, last_error = NULL, host = ?, isolation = ?, cpus = ? "
                "WHERE idx = ? AND status = 'pending'",
                (
                    outcome.duration,
                    time.time(),
                    machine and machine.host,
                    machine and machine.isolation,
                    machine and machine.cpus,
                    game.index,
                ),
            ).rowcount
            if updated != 1:
                if not c.execute("SELECT 1 FROM games WHERE idx = ?", (game.index,)).fetchone():
                    raise GameWithdrawn(
                        f"game {game.game_id} is not in the schedule (withdrawn "
                        "when one of its entries was removed)"
                    )
                raise StoreError(f"game {game.game_id} is already recorded")
            c.executemany(
                "INSERT INTO results (game_idx, seat, entry, score, rank, termination, strikes, "
                "faults, move_time, moves, cpu_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game.index,
                        seat,
                        s.entry,
                        s.score,
                        s.rank,
                        s.termination,
                        s.strikes,
                        json.dumps(s.faults, sort_keys=True),
                        s.move_time,
                        s.moves,
                        s.cpu_time,
                    )
                    for seat, s in enumerate(outcome.seats)
                ],
            )
            c.execute(
                "INSERT INTO replays (game_idx, record) VALUES (?, ?)",
                (game.index, json.dumps(outcome.record, separators=(",", ":"))),
            )

    def record_error(self, game: ScheduledGame, error: str) -> None:
        """Note a game that could not be played; it stays pending and a resume retries it."""
        with self.transaction() as c:
            c.execute(
                "UPDATE games SET attempts = attempts + 1, last_error = ? WHERE idx = ?",
                (error[:2000], game.index),
            )

    def games(self, done_only: bool = False, since: int = 0) -> Iterator[StoredGame]:
        """Every game (from index `since` on) in schedule order, with its per-seat results
        when done."""
        where = "WHERE g.idx >= ?" + (" AND g.status = 'done'" if done_only else "")
        rows = self.conn.execute(
            # r.*: an older read-only file may lack the columns added since (cpu_time)
            f"SELECT g.*, r.* FROM games g LEFT JOIN results r ON r.game_idx = g.idx "
            f"{where} ORDER BY g.idx, r.seat",
            (since,),
        )
        current: StoredGame | None = None
        for row in rows:
            if current is None or current.game.index != row["idx"]:
                if current is not None:
                    yield current
                current = StoredGame(
                    game=self._scheduled(row),
                    status=row["status"],
                    seats=[],
                    duration=row["duration"],
                    finished_at=row["finished_at"],
                    attempts=row["attempts"],
                    last_error=row["last_error"],
                    machine=_machine(row),
                )
            if row["seat"] is not None:
                current.seats.append(
                    SeatOutcome(
                        entry=row["entry"],
                        score=row["score"],
                        rank=row["rank"],
                        termination=row["termination"],
                        strikes=row["strikes"],
                        faults=json.loads(row["faults"]),
                        move_time=row["move_time"],
                        moves=row["moves"],
                        cpu_time=row["cpu_time"] if "cpu_time" in row.keys() else None,
                    )
                )
        if current is not None:
            yield current

    def save_analysis(self, game_id: str, analysis: dict[str, Any]) -> bool:
        """Put `analysis` (tournaments/domain/analysis) into the stored record of a game as its
        `analysis` block, replacing any earlier one; False when no record of it is stored."""
        record = self.replay(game_id)
        if record is None:
            return False
        record["analysis"] = analysis
        with self.transaction() as c:
            c.execute(
                "UPDATE replays SET record = ? WHERE game_idx = "
                "(SELECT idx FROM games WHERE game_id = ?)",
                (json.dumps(record, separators=(",", ":")), game_id),
            )
        return True

    def replay(self, game_id: str) -> dict[str, Any] | None:
        """The stored record of one game, or None."""
        row = self.conn.execute(
            "SELECT r.record FROM replays r JOIN games g ON g.idx = r.game_idx WHERE g.game_id = ?",
            (game_id,),
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))
