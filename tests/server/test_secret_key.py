"""The server's secret key: importing the settings makes none (no file left in a checkout),
`server init` makes one readable by its owner only, no file of the repository holds one, and
`server run` refuses to serve without a key, with the key once committed to this repository, or
with a key file that git tracks."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.test_cli import CLI, ROOT, env

KEYISH = re.compile(r"(^|/)(secret_key|\.env|id_rsa|id_ed25519)$|(\.key|\.pem|_key)$")
TOKEN = re.compile(rb"[A-Za-z0-9_\-+/=]{32,}|PRIVATE KEY")


def _no_key_env(tmp_path: Path) -> dict[str, str]:
    e = env(tmp_path)
    e.pop("AZUL_ARENA_SECRET_KEY", None)
    return e


def _run(
    tmp_path: Path, *args: str, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A server command without the tests' key (unless `extra` gives one); a server that
    starts instead of refusing times out and fails the test."""
    return subprocess.run(
        [*CLI, *args],
        capture_output=True,
        text=True,
        env=_no_key_env(tmp_path) | (extra or {}),
        cwd=ROOT,
        timeout=60,
    )


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=30
    ).stdout


def _home_in_a_checkout(tmp_path: Path) -> tuple[Path, Path]:
    """A git checkout with a server home `server init` made in it (its key not yet tracked)."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _git(checkout, "init", "-q")
    home = checkout / "arena-server"
    made = _run(tmp_path, "server", "init", "--home", str(home), "--password", "a pass 12345")
    assert made.returncode == 0, made.stderr
    return checkout, home


def test_importing_the_settings_writes_no_file(tmp_path: Path) -> None:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tournaments.server.settings';"
        " django.setup(); from django.conf import settings; assert settings.INSTALLED_APPS"
    )
    e = _no_key_env(tmp_path) | {"PYTHONPATH": str(ROOT)}
    for command in ([sys.executable, "-c", code], [*CLI, "server", "--help"]):
        done = subprocess.run(
            command, capture_output=True, text=True, env=e, cwd=tmp_path, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert list(tmp_path.iterdir()) == [], "importing the settings left a file behind"


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_no_tracked_file_holds_a_key() -> None:
    held = [
        name
        for name in _git(ROOT, "ls-files").splitlines()
        if KEYISH.search(name) and TOKEN.search((ROOT / name).read_bytes())
    ]
    assert held == [], f"keys in the repository (anyone with it has them): {held}"


def test_init_makes_a_private_key_and_run_needs_one(tmp_path: Path) -> None:
    home = tmp_path / "arena"
    refused = _run(tmp_path, "server", "run", "--home", str(home), "--listen", "127.0.0.1:0")
    assert refused.returncode == 2
    assert "no secret key" in refused.stderr and "server init" in refused.stderr
    assert "AZUL_ARENA_SECRET_KEY" in refused.stderr
    made = _run(tmp_path, "server", "init", "--home", str(home), "--password", "a pass 12345")
    assert made.returncode == 0, made.stderr
    key = home / "secret_key"
    assert key.stat().st_mode & 0o777 == 0o600
    first = key.read_text().strip()
    assert len(first) >= 50
    again = _run(tmp_path, "server", "init", "--home", str(home))
    assert again.returncode == 0, again.stderr
    assert key.read_text().strip() == first, "init again keeps the key (sessions stay valid)"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_run_refuses_a_key_file_tracked_by_git(tmp_path: Path) -> None:
    checkout, home = _home_in_a_checkout(tmp_path)
    _git(checkout, "add", "arena-server/secret_key")
    refused = _run(tmp_path, "server", "run", "--home", str(home), "--listen", "127.0.0.1:0")
    assert refused.returncode == 2
    assert "tracked by git" in refused.stderr and "git rm --cached" in refused.stderr


def _leaked_key() -> str:
    """The key once committed as arena-server/secret_key, from the repository's history."""
    try:
        added = _git(
            ROOT, "log", "--all", "--format=%H", "--diff-filter=A", "--", "arena-server/secret_key"
        )
        return _git(ROOT, "show", f"{added.split()[-1]}:arena-server/secret_key").strip()
    except (OSError, subprocess.CalledProcessError, IndexError):
        pytest.skip("the repository's history (with the leaked key) is not here")


@pytest.mark.parametrize("which", ["leaked", "weak"])
def test_run_refuses_a_published_or_weak_key(tmp_path: Path, which: str) -> None:
    key = _leaked_key() if which == "leaked" else "changeme"
    home = tmp_path / "arena"
    refused = _run(
        tmp_path,
        "server",
        "run",
        "--home",
        str(home),
        "--listen",
        "127.0.0.1:0",
        extra={"AZUL_ARENA_SECRET_KEY": key},
    )
    assert refused.returncode == 2
    said = "published" if which == "leaked" else "too weak"
    assert said in refused.stderr and "AZUL_ARENA_SECRET_KEY" in refused.stderr
    assert not os.path.exists(home / "server.sqlite3"), "refused before anything is done"


def _load_wsgi(tmp_path: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """Load the WSGI application as a department's own WSGI server would (no `server run`)."""
    e = _no_key_env(tmp_path) | {"PYTHONPATH": str(ROOT), "AZUL_ARENA_SERVER_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-c", "import tournaments.server.wsgi"],
        capture_output=True,
        text=True,
        env=e,
        cwd=tmp_path,
        timeout=60,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_wsgi_application_refuses_a_key_file_tracked_by_git(tmp_path: Path) -> None:
    checkout, home = _home_in_a_checkout(tmp_path)
    assert _load_wsgi(tmp_path, home).returncode == 0, "an untracked key serves"
    _git(checkout, "add", "arena-server/secret_key")
    refused = _load_wsgi(tmp_path, home)
    assert refused.returncode != 0
    assert "tracked by git" in refused.stderr


def test_an_unreadable_key_file_is_named_with_what_to_do(tmp_path: Path) -> None:
    home = tmp_path / "arena"
    (home / "secret_key").mkdir(parents=True)  # a folder where the key file should be
    refused = _load_wsgi(tmp_path, home)
    assert refused.returncode != 0
    assert "cannot read the secret key file" in refused.stderr
    assert "server init" in refused.stderr
