"""What the contest server's benchmarks (`ladder`, `pages`) share: a fresh server of their own
to measure on, in a temporary data folder, on SQLite or an empty PostgreSQL database.

Django is configured once per process (`tournaments.server.setup`), so a process measures one
server: `ladder.run_ladder_bench_both` runs each database's half in a process of its own."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class BenchError(RuntimeError):
    """A benchmark that could not be measured; the message says why."""


@contextmanager
def fresh_server(prefix: str, database_url: str | None = None) -> Iterator[Path]:
    """Django set up on a new temporary data folder (removed afterwards) with its tables made,
    on the empty database at `database_url` (None: a SQLite file in the folder). A
    configuration Django refuses (a bad URL) is a ValueError saying so."""
    from tournaments.server import setup

    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        if database_url:
            os.environ["DATABASE_URL"] = database_url
        else:
            os.environ.pop("DATABASE_URL", None)
        try:
            setup(Path(tmp))
        except Exception as exc:
            raise ValueError(f"cannot start the server's Django project: {exc}") from exc
        from tournaments.server.runtime import migrate

        migrate()
        yield Path(tmp)


def database_vendor() -> str:
    """The database the server set up here uses: sqlite or postgresql."""
    from django.db import connection

    return connection.vendor
