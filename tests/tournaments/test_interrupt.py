"""SIGTERM / SIGINT during `tournament run`: the run is cancelled cleanly (Arena closed: no bot
left running, no temp folder left behind), it says how far it got, and exits 128+signal."""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

BOTS = Path(__file__).parent / "bots"
ROOT = Path(__file__).resolve().parents[2]


def done_games(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM games WHERE status='done'").fetchone()[0])
    except sqlite3.Error:
        return 0


def processes_mentioning(text: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(int(pid))
    return found


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_cancels_the_run_cleanly(tmp_path: Path, sig: signal.Signals, code: int) -> None:
    bots = tmp_path / "bots"  # a private copy: its path identifies this run's bot processes
    bots.mkdir()
    for name in ("steady.py", "_common.py"):
        shutil.copy(BOTS / name, bots / name)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    db = tmp_path / "t.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "tournament",
            "run",
            "random",
            f"steady={bots / 'steady.py'}",
            "--games-per-pairing",
            "400",
            "--seed",
            "1",
            "--concurrency",
            "2",
            "--plain",
            "--db",
            str(db),
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None and done_games(db) < 2:
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        assert processes_mentioning(str(bots)), "the bots should be running"
        os.kill(proc.pid, sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == code, out + err
    match = re.search(
        r"interrupted: (\d+) of (\d+) games done; run the same command again "
        r"to resume",
        " ".join(err.split()),
    )
    assert match, err
    assert "Traceback" not in err
    done, total = int(match[1]), int(match[2])
    assert total == 400 and 2 <= done < total
    assert done_games(db) == done  # everything reported as done is committed
    time.sleep(0.2)
    assert processes_mentioning(str(bots)) == []  # the Arena ended its bots
    assert [p.name for p in tmp.iterdir() if p.name.startswith("azul-arena-")] == []
