"""Warm start: a Python bot becomes the Arena's standby process (sdk.standby) instead of a fresh
one, and is then indistinguishable from a bot started cold: same isolation, log, command line."""

from __future__ import annotations

import asyncio
import shlex
import time
from pathlib import Path

from referee import Arena, MatchConfig
from referee.launcher import entry_program
from referee.sandbox import strongest
from tests.referee.test_matches import RAW, _alive, assert_finished


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()


def python_pid(process_pid: int) -> int:
    """The bot's Python process: the launched pid itself, or the last of its isolation chain."""
    pid = process_pid
    while True:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if not children:
            return pid
        pid = int(children[0])


def test_python_bots_start_warm_and_look_like_cold_ones(tmp_path: Path) -> None:
    bot_file = str(Path(__file__).parents[2] / "bots" / "first_bot.py")

    async def go() -> tuple[object, list[tuple[str, bool, str, str]], int]:
        async with Arena(["random", bot_file], log_dir=tmp_path) as arena:
            assert arena._standby is not None, "a standby warms up as soon as the Arena starts"
            await asyncio.sleep(1.0)  # let it warm up
            result = await arena.play(["random", bot_file], MatchConfig(seed=3))
            seen = []
            for worker in arena.pool.items():
                assert worker.process is not None
                seen.append(
                    (
                        worker.entry,
                        worker.process.warm,
                        cmdline(python_pid(worker.process.pid)),
                        worker.process.log_path.name,
                    )
                )
            standby = await arena._standby
            return result, seen, standby.pid

    result, seen, standby_pid = asyncio.run(go())
    assert_finished(result, 2)  # type: ignore[arg-type]
    assert [s.termination for s in result.seats] == ["ok", "ok"]  # type: ignore[attr-defined]
    warm = [s for s in seen if s[1]]
    assert warm, f"no bot came from the standby: {seen}"
    for entry, _, command, log_name in warm:
        # As a cold bot at this level shows it (in the sandbox its file is under /bot).
        cold = shlex.join(entry_program(entry, strongest()).argv)
        assert command.startswith(cold), command
        assert log_name.startswith("random-" if entry == "random" else "first_bot.py-")
        assert "connected" in (tmp_path / log_name).read_text()
    time.sleep(0.2)
    assert not _alive(standby_pid), "the Arena's close ends its standby"
    assert not list(tmp_path.glob("standby-*.log")), "an unused standby leaves no log behind"


def test_command_line_entries_never_start_a_standby() -> None:
    async def go() -> object:
        async with Arena([f"{RAW} ok"]) as arena:
            result = await arena.play([f"{RAW} ok", f"{RAW} ok"], MatchConfig(seed=1))
            assert arena._standby is None
            return result

    assert_finished(asyncio.run(go()), 2)  # type: ignore[arg-type]


def test_a_dead_standby_is_replaced_by_a_fresh_process() -> None:
    async def go() -> tuple[object, bool]:
        async with Arena(["random"]) as arena:
            assert arena._standby is not None
            standby = await arena._standby
            await standby.kill()
            return await arena.play(["random", "random"], MatchConfig(seed=2)), arena.warm_start

    result, warm_after = asyncio.run(go())
    assert_finished(result, 2)  # type: ignore[arg-type]
    assert [s.termination for s in result.seats] == ["ok", "ok"]  # type: ignore[attr-defined]
    assert warm_after is False, "a standby that died turns warm start off, with a warning"


def test_a_bot_that_crashes_on_import_is_a_crash_and_keeps_warm_start_on(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import sdk\nraise SystemExit('this bot is broken on purpose')\n")

    async def go() -> tuple[object, bool]:
        async with Arena(["random", str(broken)], log_dir=tmp_path / "logs") as arena:
            await asyncio.sleep(0.5)
            result = await arena.play(["random", str(broken)], MatchConfig(seed=4))
            return result, arena.warm_start

    result, warm_after = asyncio.run(go())
    assert_finished(result, 2)  # type: ignore[arg-type]
    seat = result.seats[1]  # type: ignore[attr-defined]
    assert seat.termination == "crash"
    assert "broken on purpose" in Path(seat.log_path).read_text()
    assert warm_after is True, "a bot's own crash says nothing against warm start"
