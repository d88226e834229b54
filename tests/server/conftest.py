"""The contest server's tests run Django against a test database of their own.

Django is configured once for this folder: a temporary data folder (archives, versions, logs)
and a SQLite test database in a real file there (in WAL mode with the busy timeout, as the
server runs: an in-memory one shares a cache whose table locks fail at once where the ladder's
threads would wait), migrated from the committed migrations, so every test also proves the
migrations build the schema. With $AZUL_ARENA_TEST_DATABASE_URL (set by test_postgres.py), the
test database is made on that PostgreSQL server instead. Test classes are Django's own
`TestCase` (each test in a transaction rolled back after it) and run under pytest like any
unittest class.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import chromium_browser

HOME = tempfile.mkdtemp(prefix="arena-server-test-")
atexit.register(shutil.rmtree, HOME, ignore_errors=True)
os.environ["AZUL_ARENA_SERVER_HOME"] = HOME
# The tests' own secret key, as a deployment gives one (importing the settings makes none);
# the CLI processes the tests start inherit it.
os.environ["AZUL_ARENA_SECRET_KEY"] = secrets.token_urlsafe(50)
# A term's tests start its final the moment its deadline passes: the minute a final waits for
# uploads still being stored is tested on its own (test_lifecycle), with its default.
os.environ["AZUL_ARENA_UPLOAD_GRACE_SECONDS"] = "0"
# Workers run in the test process's own thread: lowered to the ladder's niceness, that thread
# (and every later test's bots) would stay so; test_worker_priority.py lowers one of its own.
os.environ["AZUL_ARENA_LADDER_NICE"] = "0"
# The front page's standings table made at every request: a table kept from a test before
# would show its teams (the database is rolled back, its ids used again); test_board.py keeps.
os.environ["AZUL_ARENA_BOARD_SECONDS"] = "0"
# SQLite unless the PostgreSQL test (test_postgres.py) runs these tests against its server.
POSTGRES_URL = os.environ.get("AZUL_ARENA_TEST_DATABASE_URL")
if POSTGRES_URL:
    os.environ["DATABASE_URL"] = POSTGRES_URL
else:
    os.environ.pop("DATABASE_URL", None)
os.environ["DJANGO_SETTINGS_MODULE"] = "tournaments.server.settings"

import django  # noqa: E402
from django.conf import settings  # noqa: E402

if not POSTGRES_URL:
    settings.DATABASES["default"]["TEST"] = {"NAME": os.path.join(HOME, "test.sqlite3")}
django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

setup_test_environment()
connection.creation.create_test_db(verbosity=0, autoclobber=True)

# Argon2 at the test's own cost (Django's default takes 100 MiB and a few tenths of a second
# per hash): the same algorithm and code path, a fast suite.
settings.PASSWORD_HASHERS = ["tests.server.helpers.TestArgon2PasswordHasher"]


@pytest.fixture(scope="class")
def browser_for_class(request: Any) -> Iterator[None]:
    """A headless chromium for a class's tests (`self.browser`), skipped where there is none."""
    for driver in chromium_browser():
        request.cls.browser = driver
        yield
