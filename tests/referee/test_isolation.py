"""Isolation levels: chosen explicitly or the strongest available, never a silent fallback; the
environment a bot starts with is built from nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from referee import sandbox
from referee.sandbox import IsolationError


def cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournaments.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=cwd,
    )


def test_sandbox_without_bubblewrap_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap (nor anything else) on it
    sandbox.probe.cache_clear()
    try:
        with pytest.raises(IsolationError, match="apt-get install bubblewrap"):
            sandbox.require("sandbox")
        assert sandbox.strongest() == "none"  # the default says what it is, as printed
    finally:
        monkeypatch.undo()
        sandbox.probe.cache_clear()
    out = cli(
        "tournament",
        "run",
        "random",
        "greedy",
        "--isolation",
        "sandbox",
        "--db",
        str(tmp_path / "t.db"),
        env={**os.environ, "PATH": str(tmp_path)},
    )
    assert out.returncode == 2
    assert "isolation 'sandbox' cannot work" in out.stderr and "bubblewrap" in out.stderr
    assert not (tmp_path / "t.db").exists(), "nothing ran at a weaker level"


def test_an_unknown_level_or_a_missing_variable_is_refused(tmp_path: Path) -> None:
    out = cli("match", "random", "random", "--isolation", "chroot")
    assert out.returncode == 2 and "choose none, process, sandbox" in out.stderr
    env = {k: v for k, v in os.environ.items() if k != "AZUL_NOT_SET"}
    out = cli(
        "tournament",
        "run",
        "random",
        "greedy",
        "--bot-env",
        "AZUL_NOT_SET",
        "--db",
        str(tmp_path / "t.db"),
        env=env,
    )
    assert out.returncode == 2 and "AZUL_NOT_SET is not set" in out.stderr


def test_the_default_is_the_strongest_level_and_is_printed(tmp_path: Path) -> None:
    out = cli(
        "tournament",
        "run",
        "random",
        "greedy",
        "--games-per-pairing",
        "1",
        "--db",
        str(tmp_path / "t.db"),
        "--plain",
        "--time-per-move",
        "0.5",
    )
    assert out.returncode == 0, out.stderr
    assert f"isolation: {sandbox.strongest()}" in out.stdout


def test_a_bot_environment_is_built_from_nothing(tmp_path: Path) -> None:
    env = sandbox.environment("process", tmp_path, {"AZUL_ARENA_TOKEN": "t", "MINE": "1"})
    assert env["HOME"] == env["TMPDIR"] == str(tmp_path)
    assert env["PATH"].endswith(sandbox.PATH) and env["MINE"] == "1"
    leaked = (
        set(env)
        - {
            "PATH",
            "HOME",
            "TMPDIR",
            "PYTHONUNBUFFERED",
            "PYTHONPATH",
            "AZUL_ARENA_TOKEN",
            "MINE",
            "LANG",
        }
        - {k for k in env if k.startswith("LC_")}
    )
    assert not leaked
    inside = sandbox.environment("sandbox", tmp_path, {})
    assert inside["HOME"] == "/tmp"


def test_the_entries_file_says_how_bots_run(tmp_path: Path) -> None:
    from tournaments.domain.entries import EntryError, load_entries_toml, load_run_options

    good = tmp_path / "good.toml"
    good.write_text(
        'isolation = "process"\nbot_env = ["A=1"]\nponder = true\n'
        '[[entry]]\nname = "a"\nbuiltin = "random"\nmemory = "512M"\n'
        'env = ["B=2"]\n[[entry]]\nname = "b"\nbuiltin = "greedy"\n'
    )
    entries = load_entries_toml(good)
    assert entries[0].memory == 512 << 20 and entries[0].env == ("B=2",)
    options = load_run_options(good)
    assert (options.isolation, options.bot_env, options.ponder) == ("process", ["A=1"], True)
    misplaced = tmp_path / "bad.toml"
    misplaced.write_text('[[entry]]\nname = "a"\nbuiltin = "random"\nisolation = "none"\n')
    with pytest.raises(EntryError, match="before the first"):
        load_entries_toml(misplaced)
    tiny = tmp_path / "tiny.toml"
    tiny.write_text('[[entry]]\nname = "a"\nbuiltin = "random"\nmemory = "1M"\n')
    with pytest.raises(EntryError, match="too small"):
        load_entries_toml(tiny)


def test_in_the_sandbox_only_its_bounded_tmp_is_writable(tmp_path: Path) -> None:
    if sandbox.probe("sandbox"):
        pytest.skip(f"isolation sandbox is not available here: {sandbox.probe('sandbox')}")
    place = sandbox.Place(tmp_path, tmp_path)
    script = (
        "for f in /x /dev/x /bot/x /usr/x; do touch $f 2>/dev/null && echo wrote $f; done; "
        "head -c 3000000 /dev/zero > /tmp/big 2>/dev/null || echo tmp full"
    )
    limits = sandbox.Limits(tmp_size=1 << 20)
    argv = sandbox.command(
        ["/bin/sh", "-c", script],
        "sandbox",
        limits,
        place,
        sandbox.environment("sandbox", tmp_path, {}),
    )
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert out.stdout.split("\n")[:-1] == ["tmp full"], out.stdout + out.stderr
    assert not list(tmp_path.iterdir()), "its own folder is read-only"


def _clone_under_tmp() -> Path:
    """A copy of the project in a fresh folder of /tmp, its .venv the running one seen from
    there (a symbolic link: the interpreter's prefix is then under /tmp, as in a real clone)."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("the tests do not run in a virtual environment to show under /tmp")
    root = sandbox.project_root()
    clone = Path(tempfile.mkdtemp(prefix="azul-clone-", dir="/tmp"))
    ignore = shutil.ignore_patterns("__pycache__")
    for package in ("sdk", "referee", "bots", "tournaments", "proto"):
        shutil.copytree(root / package, clone / package, ignore=ignore)
    for shared in root.glob("*__mypyc*"):
        shutil.copy2(shared, clone / shared.name)
    (clone / ".venv").symlink_to(sys.prefix)
    return clone


def test_a_project_installed_under_tmp_gets_the_sandbox(tmp_path: Path) -> None:
    """The sandbox's private /tmp used to be mounted over a project (and its .venv) living
    under /tmp: the default fell to `process` and named the kernel as the cause."""
    if sandbox.probe("sandbox"):
        pytest.skip(f"isolation sandbox is not available here: {sandbox.probe('sandbox')}")
    clone = _clone_under_tmp()
    try:
        python = clone / ".venv" / "bin" / "python"
        where = subprocess.run(
            [str(python), "-c", "import sys, referee; print(sys.prefix); print(referee.__file__)"],
            capture_output=True,
            text=True,
            cwd=clone,
            timeout=60,
        )
        prefix, package = where.stdout.split()
        assert prefix.startswith("/tmp/") and package.startswith(str(clone)), where.stdout
        bot = clone / "mine" / "bot.py"  # a user's own bot, under /tmp too
        bot.parent.mkdir()
        shutil.copy(Path(__file__).parent / "bots" / "sleepy.py", bot)
        out = subprocess.run(
            [
                str(python),
                "-m",
                "tournaments.cli",
                "match",
                "random",
                str(bot),
                "--seed",
                "3",
                "--time-per-move",
                "2",
                "--json",
                "--bot-env",
                "AZUL_TEST_SLEEP=0",
            ],
            capture_output=True,
            text=True,
            cwd=clone,
            timeout=180,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        result = json.loads(out.stdout.splitlines()[-1])
        assert result["isolation"] == "sandbox"
        assert all(s["termination"] == "ok" for s in result["seats"]), result
    finally:
        shutil.rmtree(clone, ignore_errors=True)


def test_a_sandbox_that_cannot_be_set_up_says_which_part(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """When bubblewrap works but a path it must show does not exist, the message says so,
    not that user namespaces are disabled."""
    if sandbox.probe("sandbox"):
        pytest.skip(f"isolation sandbox is not available here: {sandbox.probe('sandbox')}")
    monkeypatch.setattr(sandbox, "project_root", lambda: tmp_path / "gone")
    sandbox.probe.cache_clear()
    try:
        why = sandbox.probe("sandbox")
    finally:
        monkeypatch.undo()
        sandbox.probe.cache_clear()
    assert why is not None and "can create namespaces here" in why
    assert "cannot be bound" in why and str(tmp_path / "gone") in why
    assert "unprivileged" not in why


def test_a_default_below_sandbox_says_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without bwrap the default is `process`, and the isolation line (as `tournament run`
    prints it, and `tournament show` repeats it) says the sandbox is missing and why."""
    if sandbox.probe("process"):
        pytest.skip(f"no PID namespaces here: {sandbox.probe('process')}")
    from tournaments.commands.common import isolation_line

    which = shutil.which
    monkeypatch.setattr(
        shutil, "which", lambda name, *a, **k: None if name == "bwrap" else which(name, *a, **k)
    )
    sandbox.probe.cache_clear()
    try:
        assert sandbox.strongest() == "process"
        line = isolation_line("process")
    finally:
        monkeypatch.undo()
        sandbox.probe.cache_clear()
    assert line.startswith("isolation: process (below sandbox")
    assert "bubblewrap (bwrap) is not installed" in line


def test_a_run_below_sandbox_says_why_and_show_repeats_it(tmp_path: Path) -> None:
    """A machine with util-linux but no bubblewrap: the default is `process`, and both the run
    and `tournament show` say that it is below sandbox, and why."""
    if sandbox.probe("process"):
        pytest.skip(f"no PID namespaces here: {sandbox.probe('process')}")
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("unshare", "setpriv", "prlimit", "true"):
        found = shutil.which(name)
        assert found is not None
        (tools / name).symlink_to(found)
    db = tmp_path / "t.db"
    out = cli(
        "tournament",
        "run",
        "random",
        "greedy",
        "--games-per-pairing",
        "1",
        "--plain",
        "--time-per-move",
        "0.5",
        "--db",
        str(db),
        env={**os.environ, "PATH": str(tools)},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    why = "below sandbox, which is not available here: bubblewrap (bwrap) is not installed"
    assert f"isolation: process ({why}" in " ".join(out.stdout.split())
    shown = cli("tournament", "show", "--db", str(db))
    assert f"isolation: process ({why}" in " ".join(shown.stdout.split())
    as_json = json.loads(cli("tournament", "show", "--db", str(db), "--json").stdout)
    assert as_json["isolation"].startswith(f"process ({why}")


def test_without_cgroups_the_isolation_line_says_what_is_not_enforced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No cgroups (a container without them, no delegation): the process cap falls back to
    RLIMIT_NPROC, which the kernel does not apply to root; the isolation line says so."""
    from referee import cgroups
    from tournaments.commands.common import isolation_line

    monkeypatch.setattr(cgroups, "layout", lambda: None)
    line = isolation_line("process")
    assert "no cgroups here" in line and "not frozen" in line
    if os.geteuid() == 0:
        assert "the process cap is NOT enforced" in line
    else:
        assert "processes capped by RLIMIT_NPROC" in line
    assert "no cgroups" not in isolation_line("none")  # nothing promised there
