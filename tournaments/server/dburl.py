"""The database settings: SQLite in WAL mode in the data folder, or PostgreSQL from DATABASE_URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit


class DatabaseUrlError(ValueError):
    """A DATABASE_URL this server cannot use; the message says what to write instead."""


def sqlite(path: Path) -> dict[str, Any]:
    """One SQLite file in WAL mode: readers (the pages) never block the ladder's writes; a
    write transaction takes its lock at BEGIN (IMMEDIATE), so two writers queue on the busy
    timeout instead of failing with 'database is locked' half-way through."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }


def from_url(url: str) -> dict[str, Any]:
    """Django's DATABASES['default'] for `postgres://user:pass@host:port/name?opt=v`
    (psycopg 3) or `sqlite:////absolute/path.db`."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # sqlite:////abs/file (four slashes) or sqlite:///relative/file, as is the custom.
        path = unquote(parts.path)[1:]
        if not path:
            raise DatabaseUrlError(
                "DATABASE_URL sqlite:////ABSOLUTE/PATH needs the database file's path"
            )
        return sqlite(Path(path))
    if parts.scheme not in ("postgres", "postgresql"):
        raise DatabaseUrlError(
            f"DATABASE_URL must start with postgresql:// or sqlite:////, "
            f"not {parts.scheme or url!r}"
        )
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise DatabaseUrlError(
            "DATABASE_URL postgresql://USER:PASSWORD@HOST:PORT/NAME needs the database NAME"
        )
    options = dict(parse_qsl(parts.query))
    # A unix socket folder may be given as ?host=/run/postgresql (libpq's own convention).
    host = options.pop("host", None) or unquote(parts.hostname or "")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(parts.port or ""),
        "OPTIONS": options,
        # A connection is kept for a minute rather than made again for every call of the
        # ladder worker's database thread (connecting costs more than a query on PostgreSQL);
        # it is checked before it is used again (after a restart of PostgreSQL, made anew).
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }
