"""When a bot is frozen between its moves: at once where the others think for a while, and only
twice its last wait after its answer (FREEZE_GRACE_MIN to FREEZE_GRACE) while its waits between
moves are shorter than FREEZE_GRACE (a stop and a continue of every thread of the bot would cost
more than those waits)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from referee import Arena, MatchConfig, sessions
from referee.launcher import BotProcess
from referee.protocol import bot_pb2
from referee.sessions import FREEZE_GRACE, FREEZE_GRACE_MIN, BotSession
from tests.referee.test_standby import python_pid


class Recorder:
    """A freezer that notes what the session asks of it (the real one is BotProcess)."""

    def __init__(self) -> None:
        self.frozen = False
        self.calls: list[str] = []

    def freeze(self) -> None:
        if not self.frozen:
            self.frozen = True
            self.calls.append("freeze")

    def thaw(self) -> None:
        if self.frozen:
            self.frozen = False
            self.calls.append("thaw")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def put_off(session: BotSession, freezer: Recorder) -> float:
    """`session._rest(freezer)`, and by how long it put the freeze off: the time its alarm is
    set for, less the event loop's time just before the call (the call itself takes a few
    microseconds of that: SLACK)."""
    loop = asyncio.get_running_loop()
    before = loop.time()
    session._rest(freezer)
    assert session._freeze_later.is_set, "the freeze was not put off"
    return session._freeze_later.due - before


SLACK = 2e-4  # the most a call of _rest takes on a loaded machine, in seconds


def test_the_freeze_waits_for_the_grace_only_while_the_waits_are_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(sessions, "_perf", clock)

    async def go() -> None:
        hello = bot_pb2.ConnectRequest(hello=bot_pb2.Hello(bot_name="b"))
        session = BotSession(None, hello, "t")
        freezer = Recorder()
        freezer.frozen = True

        session._wake(freezer)  # its first request: nothing known of its waits
        session._rest(freezer)
        assert freezer.calls == ["thaw", "freeze"], "frozen at once after its first answer"

        clock.now += FREEZE_GRACE / 4  # the others answered fast
        session._wake(freezer)
        # put off by twice that wait
        assert put_off(session, freezer) == pytest.approx(FREEZE_GRACE / 2, abs=SLACK)
        assert freezer.calls[2:] == ["thaw"], "a short wait: the freeze is put off"
        clock.now += FREEZE_GRACE_MIN / 10  # a very short wait: put off by FREEZE_GRACE_MIN
        session._wake(freezer)  # asked again before the grace ran out: nothing to undo
        assert put_off(session, freezer) == pytest.approx(FREEZE_GRACE_MIN, abs=SLACK)
        assert freezer.calls[2:] == ["thaw"] and not freezer.frozen

        await asyncio.sleep(FREEZE_GRACE * 5)  # nobody asks: frozen once the grace is over
        assert freezer.calls[2:] == ["thaw", "freeze"]

        clock.now += 1.0  # a long wait (the other thought): frozen at once from now on
        session._wake(freezer)
        session._rest(freezer)
        assert freezer.calls[4:] == ["thaw", "freeze"]

        clock.now += FREEZE_GRACE / 4
        session._wake(freezer)
        session._rest(freezer, at_once=True)  # overdue: still thinking, frozen at once
        assert freezer.calls[6:] == ["thaw", "freeze"]

        clock.now += FREEZE_GRACE / 4
        session._wake(freezer)
        session._rest(freezer)
        session.stream_ended()  # a closed stream cancels the freeze put off
        await asyncio.sleep(FREEZE_GRACE * 5)
        assert freezer.calls[8:] == ["thaw"] and not freezer.frozen

    asyncio.run(go())


def _held(process: BotProcess) -> str:
    """How the kernel holds a bot's processes now: "frozen" when its v2 cgroup says every one is
    in the freezer's trap, else its Python process's state letter ("T": stopped)."""
    group = process.group
    if group is not None and group.freeze_file is not None:
        if "frozen 1" in Path(group.freeze_file).with_name("cgroup.events").read_text():
            return "frozen"
    pid = python_pid(process.pid)
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_after_a_game_between_fast_bots_both_are_frozen() -> None:
    """The grace is a delay, never a pass: once no request comes, the real processes stop."""

    async def go() -> list[str]:
        async with Arena(["random", "greedy"]) as arena:
            result = await arena.play(["random", "greedy"], MatchConfig(seed=5))
            assert [s.termination for s in result.seats] == ["ok", "ok"]
            await asyncio.sleep(FREEZE_GRACE * 10)
            return [_held(w.process) for w in arena.pool.items() if w.process is not None]

    states = asyncio.run(go())
    assert states and all(s in ("frozen", "T") for s in states), f"after the game: {states}"


def test_no_ping_goes_to_a_bot_in_its_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nor to a frozen one: a ping it could not answer before its freeze would end it."""
    clock = Clock()
    monkeypatch.setattr(sessions, "_perf", clock)

    async def go() -> BotSession:
        hello = bot_pb2.ConnectRequest(hello=bot_pb2.Hello(bot_name="b"))
        session = BotSession(None, hello, "t")  # no stream: a ping would close the session
        freezer = Recorder()
        session.freezer = freezer
        session._wake(freezer)
        session._rest(freezer)  # frozen at once
        clock.now += FREEZE_GRACE / 2
        session._wake(freezer)
        session._rest(freezer)  # its freeze put off by FREEZE_GRACE
        pinger = asyncio.ensure_future(session.keepalive(interval=0.0005, timeout=0.5))
        await asyncio.sleep(FREEZE_GRACE * 3)  # the grace, then frozen
        pinger.cancel()
        assert freezer.calls == ["freeze", "thaw", "freeze"]
        return session

    session = asyncio.run(go())
    assert session.alive and session.pongs == 0
