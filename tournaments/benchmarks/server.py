"""What the contest server's benchmarks (`ladder`, `pages`, `term`) share: a fresh server of
their own to measure on, in a temporary data folder, on SQLite or an empty PostgreSQL database.

Django is configured once per process (`tournaments.server.setup`), so a process measures one
server: `ladder.run_ladder_bench_both` runs each database's half in a process of its own."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path


class BenchError(RuntimeError):
    """A benchmark that could not be measured; the message says why."""


@contextmanager
def fresh_server(
    prefix: str, database_url: str | None = None, home: Path | None = None, serve: bool = False
) -> Iterator[Path]:
    """Django set up on a new temporary data folder (removed afterwards) with its tables made,
    on the empty database at `database_url` (None: a SQLite file in the folder). `home`: that
    new folder instead, kept afterwards (to look at the server it leaves). `serve`: with its
    own secret key, so that its web site can be started (`runtime.serve`). A configuration
    Django refuses (a bad URL) is a ValueError saying so."""
    from tournaments.server import setup

    with ExitStack() as stack:
        if home is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=prefix)))
        else:
            if home.exists() and any(home.iterdir()):
                raise ValueError(f"{home} is not empty: give a new folder for the server")
            home.mkdir(parents=True, exist_ok=True)
            folder = home.resolve()
        if database_url:
            os.environ["DATABASE_URL"] = database_url
        else:
            os.environ.pop("DATABASE_URL", None)
        try:
            if serve:
                from tournaments.server.secret import make_key

                make_key(folder)
            setup(folder)
        except Exception as exc:
            raise ValueError(f"cannot start the server's Django project: {exc}") from exc
        from tournaments.server.runtime import migrate

        migrate()
        yield folder


def database_vendor() -> str:
    """The database the server set up here uses: sqlite or postgresql."""
    from django.db import connection

    return connection.vendor
