"""The sandbox shows a bot what it needs, wherever the project is installed (docs/security.md):
the system's libraries, the Python that runs it and the project's packages; never the project's
data, the server's home or another bot's folder, be they under /opt, under /usr/local (inside a
shown system directory) or in a home folder.

A copy of the project's packages runs the hostile bots there, with a copy of its .venv inside
the copy: the bots start only if the sandbox shows that Python."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.sandbox import project_root
from tests.referee.test_hostile import HOSTILE, attempts, need

PACKAGES = ("sdk", "referee", "bots", "tournaments")


@pytest.fixture(params=["/opt", "/usr/local", "home"])
def place(request: pytest.FixtureRequest) -> Iterator[Path]:
    """A temporary folder under /opt, under /usr/local or in the home folder, removed after."""
    parent = Path.home() if request.param == "home" else Path(request.param)
    if not os.access(parent, os.W_OK):
        pytest.skip(f"{parent} is not writable here: the test installs a project copy there")
    folder = Path(tempfile.mkdtemp(prefix="azul-test-install-", dir=parent))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def install(place: Path) -> Path:
    """A copy of the project's packages (and the compiled engine) in `place/project`, and of
    the .venv running the tests: the project as `make install` leaves it."""
    root, copy = project_root(), place / "project"
    copy.mkdir()
    for package in PACKAGES:
        shutil.copytree(
            root / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    for shared in root.glob("*__mypyc*"):
        shutil.copy2(shared, copy / shared.name)
    try:  # hard links: a second or so for the whole .venv, nothing copied
        shutil.copytree(sys.prefix, copy / ".venv", symlinks=True, copy_function=os.link)
    except (OSError, shutil.Error) as exc:
        pytest.skip(f"cannot link the .venv ({sys.prefix}) into {copy}: {exc}")
    return copy


def test_a_bot_sees_no_data_of_a_project_installed_there(place: Path, tmp_path: Path) -> None:
    """Each target has one cover to hide it under /usr/local: the project's database (its
    folder), the server home's secret (AZUL_ARENA_SERVER_HOME), the peer's file (an entry's
    folder, hidden by the Arena)."""
    need("sandbox")
    project = install(place)
    data = project / "data.db"  # the project's data, not the tournament's database
    with contextlib.closing(sqlite3.connect(data)) as db:
        db.execute("create table secret (value text)")
    home = place / "server-home"
    home.mkdir()
    (home / "secret_key").write_text("TOP-SECRET")
    bots = {name: place / "entries" / name / "bot.py" for name in ("attacker", "peer")}
    for name, path in bots.items():
        path.parent.mkdir(parents=True)
        shutil.copy(HOSTILE / name / "bot.py", path)
    test_env = {
        "AZUL_TEST_DB": str(data),
        "AZUL_TEST_PEER": str(bots["peer"]),
        "AZUL_TEST_HOME_FILE": str(home / "secret_key"),
        "AZUL_TEST_TMPFILE": str(tmp_path / "pwned"),
        "AZUL_TEST_PORT": "9",
        "AZUL_TEST_SECRET_NAME": "ORGANISER_SECRET",
    }
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
        **test_env,
        "PYTHONPATH": str(project),
        "AZUL_ARENA_SERVER_HOME": str(home),
        "ORGANISER_SECRET": "hunter2",
    }
    argv = [
        str(project / ".venv" / "bin" / "python"),
        "-m",
        "tournaments.cli",
        "tournament",
        "run",
        *(f"{name}={path}" for name, path in bots.items()),
        "--isolation",
        "sandbox",
        "--db",
        str(tmp_path / "t.db"),
        "--log-dir",
        str(tmp_path / "logs"),
        "--games-per-pairing",
        "2",
        "--plain",
        "--concurrency",
        "1",
        *(arg for name in test_env for arg in ("--bot-env", name)),
    ]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=240, env=env, cwd=project)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "isolation: sandbox" in run.stdout
    logs = sorted((tmp_path / "logs").glob("attacker-*.log"))
    assert logs, "the attacker ran"
    text = logs[0].read_text(errors="replace")[:100_000]
    seen = attempts(text)
    assert len(seen) == 12, seen
    hidden = {"read_db", "read_peer", "read_home", "write_beside_db"}
    broken = {name: seen[name] for name in hidden if seen[name][0] != "blocked"}
    assert not broken, f"attempts that should have failed from {place}: {broken}"
    assert not (project / "pwned").exists()
    assert "TOP-SECRET" not in text and "PEER-SOURCE" not in text
