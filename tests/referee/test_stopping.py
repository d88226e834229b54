"""A bot stopped in the middle of a fork: the child the fork completes must not run until the
bot is continued (referee.stopping). The referee's own launch and freeze, on a program that
forks from two threads while it holds enough memory that a fork takes tens of milliseconds
(hostile/forker/forking.py): nearly every freeze comes while a fork is under way."""

from __future__ import annotations

import asyncio
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
