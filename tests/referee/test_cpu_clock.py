"""The cpu clock: a move's limit counts the CPU the bot's processes used (from its cgroup), under a
wall-clock ceiling. Real bot processes, real CPU hogs; the margins are wide (2-5x) because the
machine is shared."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import Arena, ClockError, MatchConfig, MatchResult, cgroups
from referee.cgroups import layout
from tournaments.cli import app
from tournaments.domain.store import Store

BOT = str(Path(__file__).parent / "bots" / "cpu_user.py")

needs_cgroups = pytest.mark.skipif(
    layout() is None,
    reason="no writable cgroup tree here: the cpu clock cannot count a bot's "
    "CPU (run as root, or with delegated cgroup v2 controllers)",
)


def play(spend: str, tmp_path: Path, moves: int = 1, **config: object) -> MatchResult:
    settings = {"seed": 3, "time_per_move": 0.3, "grace": 0.05, "fault_policy": "forfeit", **config}

    async def go() -> MatchResult:
        async with Arena(
            [BOT, "random"],
            log_dir=tmp_path,
            bot_env={"AZUL_TEST_SPEND": spend, "AZUL_TEST_MOVES": str(moves)},
        ) as arena:
            return await arena.play([BOT, "random"], MatchConfig(**settings))  # type: ignore[arg-type]

    return asyncio.run(go())


def fault(result: MatchResult) -> str:
    faults = result.record["referee"]["faults"]
    return faults[0]["detail"] if faults else ""


@needs_cgroups
def test_a_bot_that_sleeps_past_the_ceiling_times_out(tmp_path: Path) -> None:
    # Limit 0.3 s, ceiling 4 x 0.3 + 0.05 = 1.25 s of wall time.
    result = play("sleep:2.5", tmp_path, clock="cpu")
    assert result.seats[0].termination == "timeout"
    assert "wall-clock ceiling of 1.250s" in fault(result)


@needs_cgroups
def test_a_bot_that_sleeps_past_its_limit_but_under_the_ceiling_is_on_time(tmp_path: Path) -> None:
    result = play("sleep:0.6", tmp_path, moves=2, clock="cpu")  # twice the limit, no CPU
    assert result.seats[0].termination == "ok" and not result.seats[0].faults
    assert result.record["referee"]["bots"][0]["clock"] == "cpu"
    assert result.record["referee"]["config"]["clock"] == "cpu"


@needs_cgroups
def test_a_bot_that_uses_one_and_a_half_times_its_limit_in_cpu_times_out(tmp_path: Path) -> None:
    # A ceiling wide enough that only the CPU count can end the move, even on a loaded machine.
    result = play("burn:0.45", tmp_path, clock="cpu", ceiling=20.0)
    assert result.seats[0].termination == "timeout"
    # "used 0.352s of CPU": caught once over limit + grace (0.35 s), often before it answers.
    used = float(fault(result).split()[1].rstrip("s"))
    assert fault(result).endswith("s of CPU") and used >= 0.35


@pytest.fixture
def cpu_hogs() -> Iterator[None]:
    """Three processes spinning on CPU 0: a bot there gets at most about a quarter of it."""
    if 0 not in os.sched_getaffinity(0):
        pytest.skip("CPU 0 is not available to this process")
    code = "import os\nos.sched_setaffinity(0, {0})\nwhile True: pass\n"
    hogs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(3)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@needs_cgroups
@pytest.mark.usefixtures("cpu_hogs")
def test_a_bot_under_its_cpu_limit_beside_a_cpu_hog_is_on_time_only_on_the_cpu_clock(
    tmp_path: Path,
) -> None:
    # 0.22 s of CPU a move against a 0.3 s limit (+ 0.05 s grace): on CPU 0 beside three hogs
    # it gets a quarter of the core, or half where the scheduler weighs the bot's cgroup
    # against the hogs' as one group: 0.44 s of wall time at the least, a timeout.
    wall = play("pinned:0.22", tmp_path / "wall", moves=2, clock="wall")
    cpu = play("pinned:0.22", tmp_path / "cpu", moves=2, clock="cpu", ceiling=20.0)
    assert wall.seats[0].termination == "timeout", wall.record["referee"]["faults"]
    assert fault(wall).startswith("answered after") or fault(wall) == ""
    assert cpu.seats[0].termination == "ok", cpu.record["referee"]["faults"]
    assert not cpu.seats[0].faults


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


def test_the_cpu_clock_is_refused_where_bots_get_no_cgroup(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # What a machine without a writable cgroup tree says (this one may have one).
    monkeypatch.setattr(cgroups, "layout", lambda: None)
    for command in (
        ["match", "random", "random"],
        ["tournament", "run", "random", "greedy", "--db", str(tmp_path / "t.db")],
        ["bench", "latency"],
    ):
        code, _, said = invoke(*command, "--clock", "cpu")
        assert code == 2 and "cannot make cgroups here" in said and "--clock wall" in said
    assert not (tmp_path / "t.db").exists()
    with pytest.raises(ClockError, match="cannot make cgroups here"):
        play("sleep:0", tmp_path, clock="cpu")
    code, _, said = invoke("match", "random", "random", "--clock", "sundial")
    assert code == 2 and "--clock is wall or cpu, not 'sundial'" in said


@needs_cgroups
def test_a_tournament_stores_its_clock_and_shows_it(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    code, out, said = invoke(
        "tournament",
        "run",
        "random",
        "greedy",
        "--clock",
        "cpu",
        "--seed",
        "3",
        "--db",
        db,
        "--plain",
        "--time-per-move",
        "0.5",
    )
    assert code == 0, said
    assert "clock: cpu" in out
    code, out, _ = invoke("tournament", "show", "--db", db)
    assert "0.5 s a move (cpu clock)" in " ".join(out.split())
    code, out, _ = invoke("tournament", "show", "--db", db, "--json")
    assert json.loads(out)["clock"] == "cpu"
    with Store.open(Path(db), create=False) as store:
        records = [store.replay(g.game.game_id) or {} for g in store.games()]
    assert {r["referee"]["config"]["clock"] for r in records} == {"cpu"}
    code, _, said = invoke("tournament", "run", "random", "greedy", "--clock", "wall", "--db", db)
    assert code == 2 and "clock (stored 'cpu', asked 'wall')" in said


@pytest.mark.slow  # a benchmark's run on both clocks (CI runs it)
@needs_cgroups
def test_bench_latency_sets_the_cpu_clock_beside_the_wall_clock() -> None:
    code, out, said = invoke(
        "bench", "latency", "--games", "2", "--spawns", "1", "--clock", "cpu", "--json"
    )
    assert code == 0, said
    figures = json.loads(out)
    assert figures["clock"] == "cpu"
    assert figures["per_move_us_cpu_clock"] > 0 and figures["per_move_us_wall_clock"] > 0
    assert figures["cpu_clock_ratio"] == pytest.approx(
        figures["per_move_us_cpu_clock"] / figures["per_move_us_wall_clock"], abs=0.001
    )


@needs_cgroups
def test_a_match_the_referee_service_runs_keeps_the_clock_it_is_asked_for(tmp_path: Path) -> None:
    import grpc

    from referee.protocol import referee_pb2, referee_pb2_grpc

    async def go() -> referee_pb2.RunMatchResponse:
        async with (
            Arena(api=[f"unix:{tmp_path / 'api.sock'}"]) as arena,
            grpc.aio.insecure_channel(arena.api_address) as channel,
        ):
            stub = referee_pb2_grpc.RefereeServiceStub(channel)
            return await stub.RunMatch(
                referee_pb2.RunMatchRequest(
                    seats=[
                        referee_pb2.SeatSpec(entry="random"),
                        referee_pb2.SeatSpec(entry="greedy"),
                    ],
                    settings=referee_pb2.MatchSettings(seed=4, clock=referee_pb2.CLOCK_KIND_CPU),
                ),
                timeout=60,
            )

    record = json.loads(asyncio.run(go()).record_json)["referee"]
    assert record["config"]["clock"] == "cpu"
    assert [b["clock"] for b in record["bots"]] == ["cpu", "cpu"]


def test_the_help_states_the_ceiling_the_referee_keeps() -> None:
    from referee.clocks import CPU_CEILING, SeatClock
    from tournaments.commands.common import CLOCK_HELP

    assert f"ceiling of {CPU_CEILING:g}x the limit" in CLOCK_HELP
    clock = SeatClock(0.5, bank=0.25, grace=0.05, kind="cpu")
    assert clock.wall_deadline() == pytest.approx(CPU_CEILING * 0.75 + 0.05)
    assert SeatClock(0.5, grace=0.05).wall_deadline() == pytest.approx(0.55)


def test_without_a_time_limit_no_move_is_late_and_the_bot_is_told_its_limit(tmp_path: Path) -> None:
    # Two moves of 0.8 s against a 0.3 s limit (a bot stopped in a debugger, say).
    result = play("sleep:0.8", tmp_path, moves=2, time_limit=False)
    assert result.seats[0].termination == "ok" and not result.seats[0].faults
    assert result.seats[0].move_time_total > 1.6
    late = Path(result.seats[0].log_path).read_text()
    assert "after the deadline (move limit 0.300 s)" in late  # the SDK still knew its limit
