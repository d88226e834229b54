"""The database settings: SQLite in WAL mode by default, DATABASE_URL for PostgreSQL."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from tournaments.server.dburl import DatabaseUrlError, from_url


def test_postgresql_urls_become_psycopg_settings() -> None:
    db = from_url("postgresql://arena:p%40ss@db.example.edu:5433/contest?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "contest",
        "arena",
        "p@ss",
        "db.example.edu",
        "5433",
    )
    assert db["OPTIONS"] == {"sslmode": "require"}
    # Kept between the ladder worker's calls, checked before reuse (connecting is the cost).
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, True)
    socket = from_url("postgres:///contest?host=/run/postgresql")
    assert (socket["HOST"], socket["NAME"]) == ("/run/postgresql", "contest")


def test_sqlite_urls_and_bad_urls() -> None:
    db = from_url("sqlite:////srv/arena/db.sqlite3")
    assert db["NAME"] == "/srv/arena/db.sqlite3"
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    for bad, message in (
        ("mysql://x/y", "must start with postgresql://"),
        ("postgresql://host", "needs the database NAME"),
        ("sqlite://", "needs the database file"),
    ):
        with pytest.raises(DatabaseUrlError, match=message):
            from_url(bad)


def test_the_default_database_is_sqlite_with_immediate_transactions() -> None:
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert settings.DATABASES["default"]["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        # The test database lives in memory (journal "memory"); a file database is WAL, as
        # test_cli checks on the file `server init` makes.
        assert cursor.fetchone()[0] in ("wal", "memory")


def test_security_settings() -> None:
    from tournaments.server import settings as real

    assert real.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE
    assert "django_htmx.middleware.HtmxMiddleware" in settings.MIDDLEWARE
    assert settings.SESSION_COOKIE_HTTPONLY and not settings.DEBUG


def test_contest_settings_no_game_could_use_are_refused() -> None:
    from django.core.exceptions import ValidationError

    from tournaments.server.contests.models import Contest

    ok = Contest(ruleset="pavilion", players=3, ruleset_options={"wild_order": "GOPYBR"})
    ok.clean()
    assert ok.options() == {"wild_order": "GOPYBR"}
    for bad, message in (
        (Contest(ruleset="chess"), "unknown ruleset"),
        (Contest(ruleset="azul", players=5), "played by 2-4"),
        (Contest(ruleset="pavilion", ruleset_options={"wild_order": "XXXXXX"}), "six letters"),
        (Contest(ruleset="pavilion", ruleset_options={"colour": "red"}), "no option colour"),
        (Contest(ruleset="azul", ruleset_options=["wild_order"]), "a JSON object"),
    ):
        with pytest.raises(ValidationError, match=message):
            bad.clean()


@pytest.mark.parametrize("proxy, cap", [("", 8), ("1", 1000)])
def test_behind_the_tls_proxy_one_address_may_keep_many_connections(proxy: str, cap: int) -> None:
    """Behind the proxy every connection comes from its address: the cap of a direct site
    would throttle everyone (slowguard.py)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = "from tournaments.server import settings as s; print(s.WEB_CONNECTIONS_PER_ADDRESS)"
    e = {k: v for k, v in os.environ.items() if not k.startswith("AZUL_ARENA_WEB_")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=e | {"AZUL_ARENA_TLS_PROXY": proxy, "PYTHONPATH": str(root)},
        cwd=root,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(cap)]
