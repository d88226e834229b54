"""The server's commands as a user runs them: real processes, a real HTTP server on a free
port, a file database; the ladder worker SIGKILLed in the middle of its games and resumed."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.conftest import POSTGRES_URL
from tests.server.helpers import RANDOM_BOT

CLI = [sys.executable, "-m", "tournaments.cli"]
ROOT = Path(__file__).resolve().parents[2]


def env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    for name in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "AZUL_ARENA_SERVER_HOME"):
        e.pop(name, None)
    e["AZUL_ARENA_CONFIG"] = str(tmp_path / "config")
    e["COLUMNS"] = "200"
    return e


def make_participant(home: Path, tmp_path: Path) -> None:
    """Account zoe ('zoe pass 12345'), the one member of participant zoe, in the server at
    `home` (made in a process of its own, as an organiser would in the admin)."""
    code = f"""
import os
os.environ['AZUL_ARENA_SERVER_HOME'] = {str(home)!r}
from tournaments.server import setup; setup()
from django.contrib.auth import get_user_model
from tournaments.server.contests.models import Participant
u = get_user_model().objects.create_user('zoe', password='zoe pass 12345')
Participant.objects.create(name='zoe').members.add(u)
"""
    made = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env(tmp_path),
        cwd=ROOT,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr


def database_env(tmp_path: Path) -> dict[str, str]:
    """The CLI's environment: SQLite in the data folder, or, where test_postgres.py runs these
    tests on its PostgreSQL server, an empty database of the test's own there."""
    return env(tmp_path) | ({"DATABASE_URL": _database_url(tmp_path)} if POSTGRES_URL else {})


def _database_url(tmp_path: Path) -> str:
    import hashlib
    import urllib.parse

    import psycopg

    assert POSTGRES_URL
    name = "cli_" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:16]
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    return urllib.parse.urlsplit(POSTGRES_URL)._replace(path=f"/{name}").geturl()


def database_query(home: Path, sql: str) -> list[tuple]:
    """`sql` on the database `database_env` gave the test whose data folder is `home`."""
    if not POSTGRES_URL:
        return query(home / "server.sqlite3", sql)
    import psycopg

    with psycopg.connect(_database_url(home.parent)) as conn:
        return [tuple(row) for row in conn.execute(sql).fetchall()]  # type: ignore[arg-type]


def cli(
    tmp_path: Path, *args: str, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env(tmp_path),
        cwd=ROOT,
        timeout=timeout,
    )


def start(
    tmp_path: Path, *args: str, extra_env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], str]:
    """Start a server command (with `extra_env` added to its environment); returns it and its
    URL (read from its banner)."""
    proc = subprocess.Popen(
        [*CLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env(tmp_path) | (extra_env or {}),
        cwd=ROOT,
    )
    assert proc.stdout is not None
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"serving on (http://\S+)", line)
        if found:
            return proc, found.group(1).rstrip("/")
    proc.kill()
    raise AssertionError("the server did not start:\n" + "".join(seen))


def query(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db, timeout=30) as conn:
        return list(conn.execute(sql))


def wait_for(predicate, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_init_run_login_submit_and_see_it_validated(tmp_path: Path) -> None:
    home = tmp_path / "contest"
    done = cli(
        tmp_path,
        "server",
        "init",
        "--home",
        str(home),
        "--organiser",
        "org",
        "--password",
        "org pass 12345",
        "--time-per-move",
        "0.3",
    )
    assert done.returncode == 0, done.stderr
    assert "organiser account: org" in done.stdout
    db = home / "server.sqlite3"
    assert query(db, "PRAGMA journal_mode") == [("wal",)]
    # A participant signs up through the real HTTP server, then uses the CLI.
    proc, url = start(tmp_path, "server", "run", "--home", str(home), "--listen", "127.0.0.1:0")
    try:
        import django.contrib.auth.hashers  # noqa: F401  (the hasher the server uses)

        make_participant(home, tmp_path)  # zoe, a member of participant zoe
        bad = cli(
            tmp_path,
            "contest",
            "login",
            "--server",
            url,
            "-u",
            "zoe",
            "--password-stdin",
            stdin="wrong\n",
        )
        assert bad.returncode == 1 and "wrong user name or password" in bad.stderr
        ok = cli(
            tmp_path,
            "contest",
            "login",
            "--server",
            url,
            "-u",
            "zoe",
            "--password-stdin",
            stdin="zoe pass 12345\n",
        )
        assert ok.returncode == 0, ok.stderr
        saved = tmp_path / "config" / "servers.json"
        assert saved.stat().st_mode & 0o077 == 0, "the token file is the user's only"
        bot = tmp_path / "zoebot"
        bot.mkdir()
        (bot / "bot.py").write_bytes(RANDOM_BOT)
        (bot / ".git").mkdir()
        (bot / ".git" / "config").write_text("secret")
        # After `login`, the server is remembered: no --server from here on.
        sent = cli(tmp_path, "contest", "submit", str(bot), "--json")
        assert sent.returncode == 0, sent.stderr
        assert '"version":1' in sent.stdout
        _a_hostile_archive_is_refused(tmp_path, url, home)

        def validated() -> bool:
            rows = query(home / "server.sqlite3", "SELECT state FROM arena_submissions_version")
            return rows == [("passed",)]

        wait_for(validated, 90, "the version's validation")
        listing = cli(tmp_path, "contest", "submissions", "--json")
        assert '"state":"passed"' in listing.stdout
        assert not any(".git" in p.name for p in home.rglob("*"))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def _a_hostile_archive_is_refused(tmp_path: Path, url: str, home: Path) -> None:
    import io
    import tarfile

    hostile = tmp_path / "evil.tar.gz"
    with tarfile.open(hostile, "w:gz") as tar:
        info = tarfile.TarInfo("../../escape.py")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    refused = cli(tmp_path, "contest", "submit", str(hostile), "--server", url)
    assert refused.returncode == 1
    assert "contains '..'" in refused.stderr
    assert not (home.parent / "escape.py").exists()


def test_a_sigkilled_ladder_resumes_with_nothing_rated_twice(tmp_path: Path) -> None:
    home = tmp_path / "ladder"
    proc, _ = start(
        tmp_path,
        "server",
        "demo",
        "--home",
        str(home),
        "--listen",
        "127.0.0.1:0",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "-c",
        "1",
    )
    db = home / "server.sqlite3"

    def some_done() -> bool:
        return query(db, "SELECT count(*) FROM arena_ladder_game WHERE status='done'")[0][0] >= 3

    try:
        wait_for(some_done, 120, "three ladder games")
        wait_for(
            lambda: (
                query(db, "SELECT count(*) FROM arena_ladder_game WHERE status='scheduled'")[0][0]
                > 0
            ),
            30,
            "a game in flight",
        )
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    time.sleep(0.5)
    in_flight = {
        r[0] for r in query(db, "SELECT id FROM arena_ladder_game WHERE status='scheduled'")
    }
    before = query(db, "SELECT count(*) FROM arena_ladder_game WHERE status='done'")[0][0]
    # Nothing half-written: every rated game has its seats, ratings counted once per seat.
    assert query(db, "SELECT sum(games) FROM arena_ladder_standing")[0][0] == 2 * before
    resumed = cli(tmp_path, "server", "ladder", "--home", str(home), "--games", "4", timeout=180)
    assert resumed.returncode == 0, resumed.stderr
    assert "4 games played" in resumed.stderr
    statuses = dict(query(db, "SELECT id, status FROM arena_ladder_game"))
    assert all(statuses[g] == "done" for g in in_flight), "the killed games were played again"
    done = query(db, "SELECT count(*) FROM arena_ladder_game WHERE status='done'")[0][0]
    assert done >= before + 4
    assert query(db, "SELECT sum(games) FROM arena_ladder_standing")[0][0] == 2 * done
    assert (
        query(
            db,
            "SELECT count(*) FROM arena_ladder_seat s JOIN arena_ladder_game g ON "
            "g.id = s.game_id WHERE g.status='done' AND s.mu_after IS NULL",
        )[0][0]
        == 0
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["server", "run", "--listen", "nonsense"], "--listen is HOST:PORT"),
        (["server", "demo", "--bot", "nobody"], "unknown reference bot"),
        (["server", "init", "--ruleset", "pavilion", "--wild-order", "PPPPPP"], "wild"),
        (["server", "init", "--ruleset", "chess"], "is not a ruleset"),
        (["contest", "submit", "/no/bot", "--server", "http://127.0.0.1:9"], "does not exist"),
        (["contest", "submissions", "--server", "http://127.0.0.1:9"], "not logged in"),
    ],
)
def test_bad_arguments_say_what_is_wrong(tmp_path: Path, args: list[str], message: str) -> None:
    extra = (
        ["--home", str(tmp_path / "h")]
        if args[:2] in (["server", "run"], ["server", "init"])
        else []
    )
    done = cli(tmp_path, *args, *extra)
    assert done.returncode in (1, 2)
    assert message in done.stderr + done.stdout
    if args[:2] == ["server", "init"]:  # refused before a key or a database is made
        assert not (tmp_path / "h").exists()


def test_a_setting_that_is_not_a_number_is_named(tmp_path: Path) -> None:
    # A typo in a deployment's settings file (docs/deployment.md) names its variable.
    done = subprocess.run(
        [*CLI, "server", "init", "--home", str(tmp_path / "h")],
        env=env(tmp_path) | {"AZUL_ARENA_EMAIL_PORT": "25x"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2  # the settings are wrong, as a bad argument is
    assert "AZUL_ARENA_EMAIL_PORT='25x' is not a whole number" in done.stderr + done.stdout
    assert "unset it for the default (25)" in done.stderr + done.stdout


@pytest.mark.parametrize(
    "old, new, args, message, code",
    [
        ("submit", "contest submit", ["/no/bot", "--server", "http://x"], "does not exist", 2),
        ("submissions", "contest submissions", ["--server", "http://127.0.0.1:9"], "login", 1),
        ("server bench-upload", "bench upload", ["--isolation", "nonsense"], "nonsense", 2),
    ],
)
def test_a_moved_verb_s_old_spelling_works_and_says_where_it_moved(
    tmp_path: Path, old: str, new: str, args: list[str], message: str, code: int
) -> None:
    done = cli(tmp_path, *old.split(), *args)
    assert done.returncode == code, done.stderr
    assert f"`azul-arena {old}` is now `azul-arena {new}`" in done.stderr
    assert message in done.stderr
    listed = cli(tmp_path, *old.split()[:-1], "--help").stdout
    assert not re.search(rf"│ {old.split()[-1]} ", listed), "the old spelling is not advertised"


@pytest.mark.slow  # a benchmark's run of a server of its own (CI runs it)
def test_the_pages_benchmark_measures_a_fresh_server_of_its_own(tmp_path: Path) -> None:
    import json

    done = cli(
        tmp_path,
        "bench",
        "pages",
        "--participants",
        "3",
        "--games",
        "12",
        "--rounds",
        "2",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["participants"], result["games"]) == (3, 12)
    for page in ("leaderboard", "leaderboard_live_refresh", "participant"):
        assert result[page]["requests"] == 2 and result[page]["p50_ms"] > 0


def test_the_final_format_is_chosen_at_create_and_set(tmp_path: Path) -> None:
    import json

    home = ["--home", str(tmp_path / "h")]
    graded = ["--final-format", "graded", "--final-graded-games"]
    refused = cli(tmp_path, "server", "contest", "create", "odd", *home, *graded, "3")
    assert refused.returncode == 2 and "a multiple of 2 (the players)" in refused.stderr
    made = cli(tmp_path, "server", "contest", "create", "g", *home, *graded, "4", "--json")
    assert made.returncode == 0, made.stderr
    about = json.loads(made.stdout)  # the note is on stderr: the JSON stays whole
    assert (about["final_format"], about["final_graded_games"]) == ("graded", 4)
    assert about["final_ranking_games"] == 10
    assert "enter at least 1 before it starts: server contest staff-bot g" in made.stderr
    changed = cli(tmp_path, "server", "contest", "set", "g", *home, "--final-ranking-games", "6")
    assert changed.returncode == 0, changed.stderr
    assert "g: its final is graded: 4 games against each staff bot, then 6 games" in (
        changed.stdout
    )
    unknown = cli(tmp_path, "server", "contest", "set", "g", *home, "--final-format", "cup")
    assert unknown.returncode == 2 and "is not one of auto, round-robin" in unknown.stderr
