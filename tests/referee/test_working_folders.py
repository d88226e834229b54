"""An Arena's working folder in the temporary directory (its socket, its bots' folders): removed
when the Arena closes, and, when its process was killed before it could, by the next Arena to
start on the machine."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from referee.arena import ARENA_LOCK, ARENA_PREFIX, Arena

ROOT = Path(__file__).resolve().parents[2]

# An Arena in a process of its own, started and then left waiting (to be killed).
STARTED = """
import asyncio
from referee.arena import Arena

async def main() -> None:
    arena = Arena()  # held: an Arena collected would close its lock file, and so let go of it
    await arena.start()
    print("started", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def start_arena(tmp: Path, started: list[subprocess.Popen[str]]) -> subprocess.Popen[str]:
    """An Arena started in a process of its own (added to `started`, for the test to end)."""
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", STARTED], env=env, stdout=subprocess.PIPE, text=True
    )
    started.append(proc)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "started"
    return proc


def test_the_next_arena_removes_a_killed_arena_s_folder_and_keeps_a_live_one_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[subprocess.Popen[str]] = []
    try:
        killed = start_arena(tmp_path, started)
        (killed_folder,) = tmp_path.glob(ARENA_PREFIX + "*")
        start_arena(tmp_path, started)
        (live_folder,) = set(tmp_path.glob(ARENA_PREFIX + "*")) - {killed_folder}
        not_an_arena = tmp_path / (ARENA_PREFIX + "other")  # no lock file: not ours to judge
        not_an_arena.mkdir()
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=30)
        assert killed_folder.is_dir()  # SIGKILL: the Arena could not clean up
        # A free lock younger than a minute may be an Arena still starting: left alone.
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        asyncio.run(_start_and_close())
        assert killed_folder.is_dir()
        hour_ago = time.time() - 3600
        for folder in (killed_folder, live_folder):
            os.utime(folder / ARENA_LOCK, (hour_ago, hour_ago))
        asyncio.run(_start_and_close())
        assert not killed_folder.exists()
        assert live_folder.is_dir()  # its Arena holds the lock
        assert not_an_arena.is_dir()
        left = {p.name for p in tmp_path.iterdir() if p.name.startswith(ARENA_PREFIX)}
        assert left == {live_folder.name, not_an_arena.name}  # the new Arena removed its own
    finally:
        for proc in started:  # the live one, and the first if the second did not start
            proc.kill()
            proc.wait(timeout=30)


async def _start_and_close() -> None:
    arena = Arena()
    await arena.start()
    await arena.close()


def test_the_sweep_waits_on_nothing_a_hostile_folder_holds(tmp_path: Path) -> None:
    """A pipe or a link where the lock should be is left alone at once (an open() of a pipe
    would wait for a writer for ever, and every Arena starting after with it)."""
    from referee.arena import sweep_dead_arenas

    hour_ago = time.time() - 3600
    pipe = tmp_path / (ARENA_PREFIX + "pipe")
    pipe.mkdir()
    os.mkfifo(pipe / ARENA_LOCK)
    linked = tmp_path / (ARENA_PREFIX + "link")
    linked.mkdir()
    target = tmp_path / "elsewhere.lock"
    target.write_text("")
    os.utime(target, (hour_ago, hour_ago))
    (linked / ARENA_LOCK).symlink_to(target)
    os.utime(pipe / ARENA_LOCK, (hour_ago, hour_ago))
    assert sweep_dead_arenas(tmp_path) == []
    assert pipe.is_dir() and linked.is_dir() and target.exists()
