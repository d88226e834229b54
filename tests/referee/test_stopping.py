"""A bot stopped in the middle of a fork: the child the fork completes must not run until the
bot is continued (referee.stopping). The referee's own launch and freeze, on a program that
forks from two threads while it holds enough memory that a fork takes tens of milliseconds
(hostile/forker/forking.py): nearly every freeze comes while a fork is under way."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from referee.cgroups import layout
from referee.launcher import Isolation, launch
from tests.referee.test_hostile import HOSTILE, REPORT, need

FORKER = HOSTILE / "forker" / "forking.py"
# A turn of the bot and one of the other's, as in a game between a fast bot and one that
# thinks. A freeze nearly always comes in a fork (one of 300 MiB copies its page tables: 20-40
# ms here). Stopping the forking process alone (the referee before referee.stopping) let the
# child of such a fork run in 15-65% of the freezes on a loaded machine: 25 freezes catch it
# but about 1 time in 60 at worst.
CYCLES = 25
THAWED = 0.02
FROZEN = 0.1
BALLAST_MB = "300"


async def _ready(log: Path, timeout: float = 30.0) -> None:
    """Until the forker says its ballast is in place (it forks from then on)."""
    end = time.monotonic() + timeout
    while "forking" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < end, f"the forker did not start: {log.read_text()!r}"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("level", ["process", "sandbox"])
def test_a_child_born_of_a_fork_under_way_as_the_bot_is_frozen_stays_stopped(
    level: str, tmp_path: Path
) -> None:
    need(level)
    if layout() is None:
        pytest.skip("no cgroups here: the bot's process group alone is stopped")
    log = tmp_path / "forker.log"

    async def go() -> None:
        bot = await launch(
            f"{sys.executable} {FORKER}",
            "unix:/nowhere",  # it never dials the referee
            "token",
            log,
            Isolation(level, tmp_path),
            env={"AZUL_TEST_BALLAST_MB": BALLAST_MB},
        )
        try:
            await _ready(log)
            for _ in range(CYCLES):
                bot.freeze()
                await asyncio.sleep(FROZEN)
                bot.thaw()
                await asyncio.sleep(THAWED)
        finally:
            await bot.kill()

    asyncio.run(asyncio.wait_for(go(), 60))
    ran = [line for line in log.read_text().splitlines() if REPORT in line]
    assert not ran, f"children ran while the bot was frozen ({CYCLES} freezes): {ran}"


THREADS = """
import threading, time
for _ in range(7):
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
print("forking", flush=True)  # what _ready waits for
time.sleep(600)
"""


def _states(pids: list[int]) -> str:
    """The state letter of every thread of these processes."""
    found = ""
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
    return found


def test_a_process_found_running_after_the_stop_is_stopped_again(tmp_path: Path) -> None:
    """A process the stop did not reach (here continued behind the referee's back, as one that
    changed its process group as the stop came would run on) is stopped when the freeze looks
    again: the freeze settles with every thread of the bot stopped, and a thaw continues all."""
    need("process")
    if layout() is None:
        pytest.skip("no cgroups here: the bot's process group alone is stopped, never looked at")
    program = tmp_path / "threads.py"
    program.write_text(THREADS)
    log = tmp_path / "threads.log"

    async def go() -> tuple[str, str]:
        bot = await launch(
            f"{sys.executable} {program}",
            "unix:/nowhere",
            "token",
            log,
            Isolation("process", tmp_path),
        )
        try:
            await _ready(log)
            assert bot.group is not None
            pids = bot.group.pids()
            bot.freeze()
            os.killpg(os.getpgid(bot.pid), signal.SIGCONT)  # the stop missed them
            end = time.monotonic() + 5
            while not bot.settled:
                assert time.monotonic() < end, f"the freeze never settled: {_states(pids)}"
                await asyncio.sleep(0.01)
            frozen = _states(pids)
            bot.thaw()
            await asyncio.sleep(0.05)
            return frozen, _states(pids)
        finally:
            await bot.kill()

    frozen, thawed = asyncio.run(asyncio.wait_for(go(), 60))
    assert set(frozen) == {"T"} and len(frozen) >= 8, frozen
    assert "T" not in thawed, thawed
