"""Integration: real referee server, real bot processes, real gRPC over unix sockets."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

import pytest

import referee
from referee import MatchConfig, MatchResult

BOTS = Path(__file__).parent / "bots"
RAW = f"{sys.executable} {BOTS / 'rawbot.py'}"


def bot_test_env() -> dict[str, str]:
    """The AZUL_TEST_* variables the test set: bots get them through --bot-env, as nothing else
    of the referee's environment reaches a bot."""
    return {k: v for k, v in os.environ.items() if k.startswith("AZUL_TEST_")}


def Arena(*args: object, **kw: object) -> referee.Arena:  # noqa: N802  (stands for the class)
    """An Arena whose bots get the test's AZUL_TEST_* variables."""
    return referee.Arena(*args, bot_env=bot_test_env(), **kw)  # type: ignore[arg-type]


def play(seats: list[str], config: MatchConfig, **arena_kw: object) -> MatchResult:
    async def go() -> MatchResult:
        async with Arena(seats, **arena_kw) as arena:  # type: ignore[arg-type]
            return await arena.play(seats, config)

    return asyncio.run(go())


def assert_finished(result: MatchResult, players: int) -> None:
    """The game reached its end under the rules, whatever the faults."""
    assert len(result.scores) == len(result.ranks) == len(result.seats) == players
    assert result.record["final_scores"] == result.scores
    assert result.record["rounds"], "the record has the game's rounds"
    assert sum(s.moves for s in result.seats) == len(result.record["referee"]["move_times_us"])


def test_full_game_between_two_sdk_bots(tmp_path: Path) -> None:
    result = play(["random", "random"], MatchConfig(seed=11), log_dir=tmp_path)
    assert_finished(result, 2)
    assert [s.termination for s in result.seats] == ["ok", "ok"]
    assert all(s.strikes == 0 and s.moves > 10 for s in result.seats)
    assert sorted(result.ranks)[0] == 1
    assert result.record["players"] == ["random", "random"]
    assert not result.record["referee"]["substituted"]
    # the log files exist and say the bot connected
    assert "connected" in Path(result.seats[0].log_path).read_text()


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_player_games(players: int) -> None:
    result = play(["random"] * players, MatchConfig(seed=5))
    assert_finished(result, players)
    assert all(s.termination == "ok" for s in result.seats)
    assert len(result.record["rounds"][0]["factories"]) == {3: 7, 4: 9}[players]


def test_same_seed_same_deals() -> None:
    a = play(["random", "random"], MatchConfig(seed=99))
    b = play(["random", "random"], MatchConfig(seed=99))
    assert a.record["rounds"][0]["factories"] == b.record["rounds"][0]["factories"]


FAULTS = [
    # entry, policy, expected termination
    (str(BOTS / "sleepy.py"), "forfeit", "timeout"),
    (f"{RAW} illegal_index", "forfeit", "illegal"),
    (f"{RAW} wrong_id", "forfeit", "malformed"),
    (str(BOTS / "exiter.py"), "random", "crash"),
    (f"{RAW} disconnect", "random", "disconnect"),
    (f"{RAW} silent", "random", "no_hello"),
    (f"{RAW} bad_token", "random", "bad_token"),
    (f"{RAW} old_version", "random", "version_mismatch"),
]


@pytest.mark.parametrize(("entry", "policy", "termination"), FAULTS, ids=[f[2] for f in FAULTS])
def test_each_fault_ends_with_its_reason(
    entry: str, policy: str, termination: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZUL_TEST_SLEEP", "0.6")
    config = MatchConfig(seed=3, time_per_move=0.2, grace=0.05, fault_policy=policy)
    t0 = time.perf_counter()
    # a short start-up timeout only where the test is about it: machines under load start slowly
    result = play(
        ["random", entry], config, startup_timeout=3.0 if termination == "no_hello" else 15.0
    )
    bad, good = result.seats[1], result.seats[0]
    assert bad.termination == termination
    assert bad.faults.get(termination) == 1
    assert good.termination == "ok" and good.strikes == 0
    assert_finished(result, 2)  # the game went on for the good seat
    assert result.ranks == [1, 2], "a forfeited seat ranks last"
    assert result.record["referee"]["faults"][0]["fault"] == termination
    assert time.perf_counter() - t0 < 20


def test_random_policy_counts_strikes_then_forfeits(monkeypatch: pytest.MonkeyPatch) -> None:
    config = MatchConfig(seed=3, time_per_move=0.2, fault_policy="random", max_strikes=3)
    result = play(["random", f"{RAW} illegal_index"], config)
    bad = result.seats[1]
    assert bad.strikes == 3 and bad.faults == {"illegal": 3}
    assert bad.termination == "illegal"
    substituted = result.record["referee"]["substituted"]
    assert len(substituted) == bad.moves  # every move of that seat was played by the referee
    assert_finished(result, 2)


def test_strikes_below_the_limit_keep_the_seat_in(monkeypatch: pytest.MonkeyPatch) -> None:
    config = MatchConfig(seed=3, time_per_move=0.2, fault_policy="random", max_strikes=1000)
    result = play(["random", f"{RAW} wrong_id"], config)
    bad = result.seats[1]
    assert bad.termination == "ok"
    assert bad.strikes == bad.moves == bad.faults["malformed"]


def test_a_late_reply_is_one_timeout_not_a_malformed_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The late answer arrives while the next request is open: it is stale, not malformed.
    monkeypatch.setenv("AZUL_TEST_SLEEP", "0.5")
    config = MatchConfig(
        seed=4, time_per_move=0.2, grace=0.05, fault_policy="random", max_strikes=3
    )
    result = play(["random", str(BOTS / "late_once.py")], config)
    late = result.seats[1]
    # Its next request may time out too (the bot was still asleep when it came), but nothing is
    # counted as malformed and the seat stays in.
    assert set(late.faults) == {"timeout"}
    assert late.strikes == late.faults["timeout"] <= 2 and late.termination == "ok"
    assert_finished(result, 2)


MISTAKES = [
    # AZUL_TEST_MISTAKE, the fault counted, what the bot's own log explains
    ("raise", "crash", "choose_move raised"),
    ("none", "malformed", "returned None"),
    ("index", "illegal", "returned index -1"),
    ("greedy", "memory", "MemoryError"),  # its allocation fails: named for it
]


@pytest.mark.parametrize(("mistake", "fault", "explained"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_buggy_choose_move_costs_strikes_not_the_process(
    mistake: str, fault: str, explained: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZUL_TEST_MISTAKE", mistake)
    config = MatchConfig(seed=6, time_per_move=0.5, fault_policy="random", max_strikes=3)
    result = play(["random", str(BOTS / "mistaken.py")], config, log_dir=tmp_path)
    bad = result.seats[1]
    assert bad.faults == {fault: 3} and bad.termination == fault
    assert explained in Path(bad.log_path).read_text()
    if mistake == "raise":  # named for what happened: its traceback's last line, and where
        assert bad.detail == "KeyError: 'a bug in the bot' (mistaken.py line 15, in choose_move)"
    assert_finished(result, 2)


def test_a_bot_that_floods_its_output_is_stopped_at_the_file_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZUL_TEST_MISTAKE", "chatty")
    config = MatchConfig(seed=6, time_per_move=0.5)
    result = play(
        ["random", str(BOTS / "mistaken.py")], config, log_dir=tmp_path, file_size=3 << 20
    )
    bad = result.seats[1]
    # Past the limit a write fails: Python raises OSError in choose_move, a crash of the bot's
    # code whose last line the result shows though the log is full (other programs die of
    # SIGXFSZ: a crash too). Either way the log stays bounded and the seat is out.
    assert bad.termination == "crash"
    assert bad.detail.startswith("OSError: [Errno 27] File too large"), bad.detail
    assert Path(bad.log_path).stat().st_size <= 3 << 20
    assert_finished(result, 2)


def test_an_unreachable_referee_is_a_clear_error_not_a_hang() -> None:
    import subprocess

    env = {
        **os.environ,
        "AZUL_ARENA_REFEREE": "unix:/nonexistent/referee.sock",
        "AZUL_ARENA_TOKEN": "x",
    }
    code = (
        "import sdk.client as c; from bots.random_bot import RandomBot\n"
        "c.play(RandomBot(), 'unix:/nonexistent/referee.sock', 'x', connect_timeout=1)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=30
    )
    assert done.returncode != 0
    assert "cannot reach the referee at unix:/nonexistent/referee.sock" in done.stderr


def test_bot_that_uses_its_clock(tmp_path: Path) -> None:
    config = MatchConfig(seed=8, time_per_move=0.3, first_move_allowance=0.5)
    result = play(["random", str(BOTS / "clocked.py")], config, log_dir=tmp_path)
    seat = result.seats[1]
    assert seat.termination == "ok" and seat.strikes == 0
    log = Path(seat.log_path).read_text()
    assert "clock move_time=0.800" in log  # the first move has the allowance
    assert "clock move_time=0.300" in log
    assert seat.move_time_total >= 0.04 * seat.moves


async def _still_connected_then_killed(
    arena: Arena, entry: str, game: asyncio.Future[MatchResult], after: float, pongs: int = 0
) -> MatchResult:
    """After `after` seconds of `game`, check that the bot `entry` is still connected (and has
    answered at least `pongs` pings), then kill it to end the long game early."""
    await asyncio.sleep(after)
    worker = next((w for w in arena.pool.items() if w.entry == entry), None)
    assert worker is not None and worker.session.alive, "no ping timeout"
    assert worker.session.pongs >= pongs, "pinged between its moves"
    assert worker.process is not None
    await worker.process.kill()
    return await game


def test_a_bot_that_owes_a_move_is_not_pinged_so_a_single_threaded_bot_may_think(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A bot that reads nothing while it thinks (0.4 s per move) would miss a 0.2 s ping timeout
    # if pings came during its moves; the referee's Welcome promises they do not.
    monkeypatch.setenv("AZUL_TEST_SLEEP", "0.4")
    entry = f"{RAW} single_threaded"

    async def go() -> MatchResult:
        async with Arena(ping_interval=0.05, ping_timeout=0.2, ponder=True) as arena:
            config = MatchConfig(seed=1, time_per_move=2.0, max_strikes=1)
            task = asyncio.ensure_future(arena.play([entry, "random"], config))
            return await _still_connected_then_killed(arena, entry, task, after=3.0, pongs=1)

    seat = asyncio.run(go()).seats[0]
    assert seat.moves >= 4 and seat.faults.get("timeout", 0) == 0
    assert seat.faults.get("disconnect", 0) == 0, "no ping timeout while it thought"


def test_a_bot_thinking_past_its_deadline_is_not_pinged_until_it_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its late moves are timeouts (strikes), not a disconnect for a missed ping.
    monkeypatch.setenv("AZUL_TEST_SLEEP", "1.2")

    async def go() -> MatchResult:
        async with Arena(ping_interval=0.1, ping_timeout=0.5, ponder=True) as arena:
            entry = str(BOTS / "thinker.py")
            config = MatchConfig(seed=1, time_per_move=0.3, max_strikes=50)
            task = asyncio.ensure_future(arena.play([entry, "random"], config))
            return await _still_connected_then_killed(arena, entry, task, after=5.0)

    seat = asyncio.run(go()).seats[0]
    assert seat.faults["timeout"] >= 3 and seat.faults.get("disconnect", 0) == 0


def test_a_bot_in_a_slow_hook_keeps_answering_pings(monkeypatch: pytest.MonkeyPatch) -> None:
    # The SDK's pings thread runs the stream while the bot's own thread is busy in a hook.
    monkeypatch.setenv("AZUL_TEST_SLEEP", "0")
    monkeypatch.setenv("AZUL_TEST_HOOK_SLEEP", "1.5")

    async def go() -> tuple[MatchResult, int, int, bool]:
        async with Arena(ping_interval=0.1, ping_timeout=0.5, ponder=True) as arena:
            entry = str(BOTS / "thinker.py")
            result = await arena.play([entry, "random"], MatchConfig(seed=2))
            worker = next(w for w in arena.pool.items() if w.entry == entry)
            before = worker.session.pongs
            await asyncio.sleep(1.2)  # the bot sleeps in on_game_over all this time
            return result, before, worker.session.pongs, worker.session.alive

    result, before, after, alive = asyncio.run(go())
    assert result.seats[0].termination == "ok"
    assert alive and after - before >= 5, "pings answered while the bot was in its hook"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purpose
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _pids_with_env(marker: str) -> dict[int, str]:
    """Host pids (and command lines) of the processes whose environment holds `marker`: a bot in
    its own PID namespace knows only its namespace's pids."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
    return {pid: cmd.decode(errors="replace") for pid, cmd in found.items()}


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_killed_bot_leaves_no_orphan(
    isolation: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.sandbox import probe

    if probe(isolation):
        pytest.skip(f"isolation {isolation} is not available here: {probe(isolation)}")
    pidfile = tmp_path / "pids"
    marker = f"AZUL_TEST_PIDFILE={pidfile}"
    monkeypatch.setenv("AZUL_TEST_PIDFILE", str(pidfile))

    async def go() -> tuple[MatchResult, dict[int, str]]:
        async with Arena(isolation=isolation) as arena:
            task = asyncio.ensure_future(
                arena.play(
                    ["random", str(BOTS / "forker.py")], MatchConfig(seed=2, time_per_move=1.0)
                )
            )
            for _ in range(100):
                await asyncio.sleep(0.1)
                if pidfile.exists() and pidfile.read_text().endswith("\n"):
                    break
            await asyncio.sleep(0.3)
            procs = _pids_with_env(marker)
            bot = [
                pid
                for pid, cmd in procs.items()
                if cmd.startswith(sys.executable) and "forker.py" in cmd
            ]
            assert len(bot) == 1, procs
            os.kill(bot[0], 9)  # killed from outside, mid-game
            return await task, procs

    result, procs = asyncio.run(go())
    assert any(cmd.startswith("sleep") for cmd in procs.values()), "the bot's child was seen"
    assert result.seats[1].termination == "crash"
    assert_finished(result, 2)
    deadline = time.time() + 3
    while (
        any("random" not in c for c in _pids_with_env(marker).values()) and time.time() < deadline
    ):
        time.sleep(0.05)
    assert not [p for p, c in _pids_with_env(marker).items() if "random" not in c], (
        "a process of the forking bot survived"
    )


def test_an_isolated_bot_cannot_see_or_kill_the_referee_or_other_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.sandbox import probe

    if probe("process"):
        pytest.skip(f"no PID namespaces here: {probe('process')}")
    report = tmp_path / "report"
    monkeypatch.setenv("AZUL_TEST_REPORT", str(report))
    result = play(
        ["random", str(BOTS / "hostile.py")],
        MatchConfig(seed=5, time_per_move=1.0),
        isolation="process",
    )  # it writes its report in the test's folder
    visible, parent = map(int, report.read_text().split())
    assert visible == 0 and parent == 0  # alone in its namespace: nothing else to name
    assert result.seats[0].termination == "ok"  # the other bot played on
    assert_finished(result, 2)  # and so did the referee (this very process)


def test_processes_are_reused_and_all_killed_at_close() -> None:
    async def go() -> tuple[list[MatchResult], set[int]]:
        async with Arena(["random"]) as arena:
            results = [
                await arena.play(["random", "random"], MatchConfig(seed=s)) for s in range(3)
            ]
            # two concurrent games need four processes
            results += await asyncio.gather(
                *(arena.play(["random", "random"], MatchConfig(seed=s)) for s in (7, 8))
            )
            pids = {w.process.pid for w in arena.pool.items()}
        return results, pids

    results, pids = asyncio.run(go())
    assert all(s.termination == "ok" for r in results for s in r.seats)
    assert len(pids) == 4, "the first three games reused two processes"
    assert len({s.log_path for r in results[:3] for s in r.seats}) == 2
    time.sleep(0.2)
    assert not any(_alive(p) for p in pids)


def test_replay_is_json_and_has_bot_names_times_and_faults() -> None:
    result = play(
        ["random", f"{RAW} illegal_index"],
        MatchConfig(seed=4, fault_policy="random", max_strikes=2),
    )
    text = json.dumps(result.record)
    back = json.loads(text)
    ref = back["referee"]
    assert ref["bots"][0]["name"] == "random" and ref["bots"][1]["name"] == "illegal_index"
    assert len(ref["move_times_us"]) == sum(len(r["moves"]) for r in back["rounds"])
    assert [f["fault"] for f in ref["faults"]] == ["illegal", "illegal"]


def test_a_bot_that_does_not_play_the_ruleset_forfeits_before_the_first_move() -> None:
    """Its Hello lists no rulesets (the classic family): seated in a Summer Pavilion game it
    forfeits at once, and its process, not at fault, plays its next classic game."""
    first = str(Path(__file__).parents[2] / "bots" / "first_bot.py")

    async def go() -> tuple[MatchResult, MatchResult, int, int]:
        async with Arena([first, "random"]) as arena:
            pavilion = await arena.play([first, "random"], MatchConfig(seed=4, ruleset="pavilion"))
            pid = next(
                w.process.pid
                for w in arena.pool.items()
                if w.entry == first and w.process is not None
            )
            classic = await arena.play([first, "random"], MatchConfig(seed=4))
            again = next(
                w.process.pid
                for w in arena.pool.items()
                if w.entry == first and w.process is not None
            )
            return pavilion, classic, pid, again

    pavilion, classic, pid, again = asyncio.run(go())
    assert_finished(pavilion, 2)
    assert [s.termination for s in pavilion.seats] == ["unsupported_ruleset", "ok"]
    # Every one of its moves was the referee's (random) choice, none the bot's.
    assert len(pavilion.record["referee"]["substituted"]) == pavilion.seats[0].moves > 0
    assert "pavilion" in pavilion.seats[0].detail and "azul" in pavilion.seats[0].detail
    assert pavilion.ranks == [2, 1] and pavilion.reason == "forfeit"
    assert [s.termination for s in classic.seats] == ["ok", "ok"]
    assert again == pid, "the same process played on"


def test_a_hello_naming_no_known_ruleset_plays_the_classic_family() -> None:
    """As `bot check` reads it: only unknown names listed is as good as none."""
    from referee.match import unsupported as _unsupported

    assert _unsupported(("azul-future",), "azul") is None
    refused = _unsupported(("azul-future",), "pavilion")
    assert refused is not None and refused.termination == "unsupported_ruleset"
    assert _unsupported(("pavilion",), "pavilion") is None
    assert _unsupported(("pavilion",), "azul") is not None
