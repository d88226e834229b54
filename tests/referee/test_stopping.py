"""A bot frozen in the middle of a fork: the child the fork completes must not run until the
bot is thawed, by either freezer: its v2 cgroup's (referee.cgroups) or signals
(referee.stopping, where no v2 hierarchy can be written: forced here by taking the freeze file
away). The referee's own launch and freeze, on a program that forks from two threads while it
holds enough memory that a fork takes tens of milliseconds (hostile/forker/forking.py): nearly
every freeze comes while a fork is under way."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from referee.cgroups import layout
from referee.launcher import BotProcess, Isolation, launch
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


def _by(bot: BotProcess, freezer: str) -> None:
    """Make `bot` freeze with `freezer`: "cgroup" (skipped where it has no v2 cgroup) or
    "signals" (as where it has none)."""
    assert bot.group is not None
    if freezer == "signals":
        bot.group.freeze_file = None
    elif bot.group.freeze_file is None:
        pytest.skip("no cgroup v2 hierarchy here: bots are stopped with signals")


@pytest.mark.parametrize("freezer", ["cgroup", "signals"])
@pytest.mark.parametrize("level", ["process", "sandbox"])
def test_a_child_born_of_a_fork_under_way_as_the_bot_is_frozen_stays_stopped(
    level: str, freezer: str, tmp_path: Path
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
            _by(bot, freezer)
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


async def _started(tmp_path: Path, name: str, source: str, freezer: str) -> BotProcess:
    """`source` run as a bot of the process level, frozen by `freezer` (`_by`), once it says
    it is ready."""
    program = tmp_path / f"{name}.py"
    program.write_text(source)
    log = tmp_path / f"{name}.log"
    bot = await launch(
        f"{sys.executable} {program}", "unix:/nowhere", "token", log, Isolation("process", tmp_path)
    )
    try:
        _by(bot, freezer)
        await _ready(log)
    except BaseException:
        await bot.kill()
        raise
    return bot


async def _settled(bot: BotProcess, pids: list[int]) -> None:
    """Until the freeze of `bot` has settled (5 s at most)."""
    end = time.monotonic() + 5
    while not bot.settled:
        assert time.monotonic() < end, f"the freeze never settled: {_states(pids)}"
        await asyncio.sleep(0.01)


def test_a_process_found_running_after_the_stop_is_stopped_again(tmp_path: Path) -> None:
    """Signals: a process the stop did not reach (here continued behind the referee's back, as
    one that changed its process group as the stop came would run on) is stopped when the
    freeze looks again: the freeze settles with every thread of the bot stopped, and a thaw
    continues all."""
    need("process")
    if layout() is None:
        pytest.skip("no cgroups here: the bot's process group alone is stopped, never looked at")

    async def go() -> tuple[str, str]:
        bot = await _started(tmp_path, "threads", THREADS, "signals")
        try:
            assert bot.group is not None
            pids = bot.group.pids()
            bot.freeze()
            os.killpg(os.getpgid(bot.pid), signal.SIGCONT)  # the stop missed them
            await _settled(bot, pids)
            frozen = _states(pids)
            bot.thaw()
            await asyncio.sleep(0.05)
            return frozen, _states(pids)
        finally:
            await bot.kill()

    frozen, thawed = asyncio.run(asyncio.wait_for(go(), 60))
    assert set(frozen) == {"T"} and len(frozen) >= 8, frozen
    assert "T" not in thawed, thawed


SPINNER = """
import threading, time
def spin():
    while True:
        pass
for _ in range(2):
    threading.Thread(target=spin, daemon=True).start()
print("forking", flush=True)  # what _ready waits for
time.sleep(600)
"""


def _cpu(pids: list[int]) -> float:
    """CPU seconds these processes used, from /proc (not from the cgroup the freezer uses)."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = [Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split() for pid in pids]
    return sum(int(f[11]) + int(f[12]) for f in fields) / ticks


def test_the_cgroup_freezer_holds_a_spinning_bot_that_is_continued_and_lets_sigkill_through(
    tmp_path: Path,
) -> None:
    """The v2 freezer: a bot whose threads spin gets no CPU once frozen, even continued behind
    the referee's back (SIGCONT undoes a stop, not a freeze); every thread is in the freezer's
    trap; a thaw gives it the CPU back; and its processes, frozen, still die of SIGKILL (a
    referee killed with kill -9 leaves no bot that cannot be killed)."""
    need("process")
    if layout() is None:
        pytest.skip("no cgroups here")

    async def go() -> tuple[float, float, str, int | None]:
        bot = await _started(tmp_path, "spinner", SPINNER, "cgroup")
        try:
            assert bot.group is not None
            pids = bot.group.pids()
            bot.freeze()
            await _settled(bot, pids)
            os.killpg(os.getpgid(bot.pid), signal.SIGCONT)
            before = _cpu(pids)
            await asyncio.sleep(0.3)
            frozen = _cpu(pids) - before
            traps = "".join(
                "F" if (task / "wchan").read_text() == "get_signal" else "?"
                for pid in pids
                for task in Path(f"/proc/{pid}/task").iterdir()
            )
            bot.thaw()
            before, end = _cpu(pids), time.monotonic() + 10
            while (thawed := _cpu(pids) - before) < 0.1 and time.monotonic() < end:
                await asyncio.sleep(0.05)  # a loaded machine gives its threads less than a core
            bot.freeze()
            for pid in bot.group.pids():
                os.kill(pid, signal.SIGKILL)
            return frozen, thawed, traps, await bot.wait_exit(5.0)
        finally:
            await bot.kill()

    frozen, thawed, traps, code = asyncio.run(asyncio.wait_for(go(), 60))
    assert frozen <= 0.02, f"CPU seconds it used frozen and continued: {frozen}"
    assert thawed >= 0.1, f"CPU seconds it used in 10 s thawed: {thawed}"
    assert set(traps) == {"F"} and len(traps) >= 3, traps
    assert code is not None, "a frozen bot did not die of SIGKILL"
