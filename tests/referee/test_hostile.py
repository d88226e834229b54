"""Hostile bots at each isolation level: what each attempt gives, that the tournament still
finishes with every game stored, and that no process of a bot outlives it (docs/security.md).

Each attempt must fail under `sandbox`; under `process` and `none`, those the level promises."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee import Arena, MatchConfig, seccomp
from referee.cgroups import layout
from referee.events import MatchEvent, MovePlayed
from referee.sandbox import LEVELS, probe
from tests.referee.test_standby import python_pid

HOSTILE = Path(__file__).parent / "hostile"
REPORT = "ran while its parent was stopped"  # what a forker's child says (hostile/forker)
LOG_LIMIT = 64 << 20  # the default file size limit (referee.sandbox.Limits)


def need(level: str) -> None:
    why = probe(level)
    if why is not None:
        pytest.skip(f"isolation {level} is not available here: {why}")


def process_cap_enforced() -> bool:
    """A pids cgroup, or RLIMIT_NPROC (which the kernel does not apply to root)."""
    return layout() is not None or os.geteuid() != 0


@pytest.fixture
def listener() -> Iterator[tuple[int, list[object]]]:
    """A TCP port on 127.0.0.1 and the connections it accepted."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[object] = []

    def serve() -> None:
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1], accepted
    server.close()


def marked(marker: str) -> list[int]:
    """Pids of the processes whose environment holds `marker` (the bots of one run)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def attempts(log: str) -> dict[str, tuple[str, str]]:
    """name -> (blocked or SUCCEEDED, detail), from the attacker's log."""
    out = {}
    for line in log.splitlines():
        if line.startswith("ATTEMPT "):
            _, name, verdict, detail = (line + " ").split(" ", 3)
            out[name] = (verdict, detail.strip())
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_a_hostile_bot_at_each_level(
    level: str, tmp_path: Path, listener: tuple[int, list[object]]
) -> None:
    need(level)
    port, accepted = listener
    db_dir = tmp_path / "data"
    db_dir.mkdir()
    db = db_dir / "t.db"
    host_tmp = Path("/tmp") / f"azul-test-pwned-{uuid.uuid4().hex}"
    home_file = Path.home() / f".azul-test-private-{uuid.uuid4().hex}"
    home_file.write_text("private")
    marker = uuid.uuid4().hex
    peer = HOSTILE / "peer" / "bot.py"
    test_env = {
        "AZUL_TEST_DB": str(db),
        "AZUL_TEST_PEER": str(peer),
        "AZUL_TEST_HOME_FILE": str(home_file),
        "AZUL_TEST_TMPFILE": str(host_tmp),
        "AZUL_TEST_PORT": str(port),
        "AZUL_TEST_SECRET_NAME": "ORGANISER_SECRET",
        "AZUL_TEST_MARKER": marker,
    }
    env = {**os.environ, **test_env, "ORGANISER_SECRET": "hunter2"}
    argv = _tournament(level, db, tmp_path / "logs", peer, list(test_env))
    try:
        run = subprocess.run(
            argv, capture_output=True, text=True, timeout=240, env=env, cwd=tmp_path
        )
        survivors = marked(f"AZUL_TEST_MARKER={marker}")
        written_to_host_tmp = host_tmp.exists()
    finally:
        host_tmp.unlink(missing_ok=True)
        home_file.unlink()
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"isolation: {level}" in run.stdout
    _every_game_stored_with_its_cpu_time(db, level)
    assert not survivors, f"processes of the bots outlived the run: {survivors}"

    logs = sorted((tmp_path / "logs").glob("attacker-*.log"))
    assert logs, "the attacker ran"
    for log in logs:
        assert log.stat().st_size <= LOG_LIMIT + (1 << 20), "its log is bounded"
    seen = attempts(logs[0].read_text(errors="replace")[:100_000])
    assert len(seen) == 12, seen

    assert "in its environment" not in seen["find_secret"][1]  # its own environment is clean
    promised = _promised(level)
    if level == "sandbox":
        promised |= {"read_db", "read_peer", "read_home", "write_beside_db", "connect_tcp"}
        if seccomp.unavailable() is None:  # refused with EPERM: the bot goes on and plays
            promised |= {"new_namespace", "ptrace_child"}
        assert not written_to_host_tmp, "the host's /tmp is out of reach"
        assert not accepted, "no network"
        assert not (db_dir / "pwned").exists()
    broken = {name: seen[name] for name in promised if seen[name][0] != "blocked"}
    assert not broken, f"attempts that should have failed at {level}: {broken}"
    if level == "none":  # nothing but the environment, the limits: the rest goes through
        assert seen["read_peer"][0] == seen["write_beside_db"][0] == "SUCCEEDED"


def _tournament(level: str, db: Path, logs: Path, peer: Path, bot_env: list[str]) -> list[str]:
    """The command line of a tournament between the attacker and its peer at `level`."""
    argv = [
        sys.executable,
        "-m",
        "tournaments.cli",
        "tournament",
        "run",
        f"attacker={HOSTILE / 'attacker' / 'bot.py'}",
        f"peer={peer}",
        "--isolation",
        level,
        "--db",
        str(db),
        "--log-dir",
        str(logs),
        "--games-per-pairing",
        "2",
        "--time-per-move",
        "2",
        "--plain",
        "--concurrency",
        "1",
    ]
    for name in bot_env:
        argv += ["--bot-env", name]
    return argv


def _every_game_stored_with_its_cpu_time(db: Path, level: str) -> None:
    from tournaments.domain.report import build_report, export_csv
    from tournaments.domain.store import Store

    with Store.open(db, create=False) as store:
        done, total = store.counts()
        assert done == total == 2, "every game is stored"
        assert store.config()["isolation"] == level  # type: ignore[index]
        # Each seat's CPU time per game, stored beside its wall time, shown and exported.
        seats = [s for g in store.games() for s in g.seats]
        assert all(s.cpu_time is not None and s.cpu_time >= 0 for s in seats), seats
        assert all(row.cpu_per_game >= 0 for row in build_report(store).leaderboard)
        header, first = list(csv.reader(io.StringIO(export_csv(store))))[:2]
        assert first[header.index("cpu_time")], "the export has each seat's CPU time"


def _promised(level: str) -> set[str]:
    """The attempts that must fail at `level` (the sandbox's own are added by the test)."""
    promised = {"allocate_16g", "fill_tmp"}  # every level
    # At every level its own environment is clean; at `none` it can still read the referee's
    # (/proc/PID/environ of a process of the same user): a promise of the PID namespace.
    if level in ("process", "sandbox"):
        promised.add("find_secret")
    if level in ("process", "sandbox") and process_cap_enforced():
        promised.add("fork_300")
    return promised


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _burner_cpu_between_moves(level: str, ponder: bool) -> list[float]:
    """Play the burner against a bot that thinks 0.15 s a move; return how much CPU the burner
    used during each of the other's turns (read from /proc)."""
    burner = str(HOSTILE / "burner" / "bot.py")
    sleepy = str(Path(__file__).parent / "bots" / "sleepy.py")
    gaps: list[float] = []

    async def go() -> None:
        async with Arena(
            [burner, sleepy], isolation=level, ponder=ponder, bot_env={"AZUL_TEST_SLEEP": "0.15"}
        ) as arena:
            pid: list[int] = []
            start: list[float] = []

            def watch(event: MatchEvent) -> None:
                if not isinstance(event, MovePlayed) or len(gaps) >= 4:
                    return
                if not pid:
                    worker = next(w for w in arena.pool.items() if w.entry == burner)
                    assert worker.process is not None
                    pid.append(python_pid(worker.process.pid))
                if event.seat == 0 and event.ply > 2:  # its turn is over: the other thinks
                    start[:] = [_cpu(pid[0])]
                elif event.seat == 1 and start:  # the other answered
                    gaps.append(_cpu(pid[0]) - start[0])
                    start.clear()

            await arena.play(
                [burner, sleepy], MatchConfig(seed=3, time_per_move=1.0), on_event=watch
            )

    asyncio.run(asyncio.wait_for(go(), 120))
    return gaps


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_burning_cpu_gets_none_while_not_on_move(level: str) -> None:
    need(level)
    gaps = _burner_cpu_between_moves(level, ponder=False)
    assert len(gaps) == 4
    # Frozen, it gets nothing: its CPU time, read from /proc, does not move while the other
    # thinks (left running, its threads would take up to a core: 0.15 s a turn).
    assert max(gaps) <= 0.02, f"CPU seconds it used during the other's turns: {gaps}"


def test_with_ponder_the_same_bot_burns_on_the_others_time() -> None:
    gaps = _burner_cpu_between_moves("none", ponder=True)
    # Its threads share one GIL (and 2 busy cores): far from 0.3 s a turn, far above 0.02.
    assert sum(gaps) >= 0.08, gaps  # the measure above would see it


def _cgroup_cpu_between_moves(bot: str, level: str, log_dir: Path | None = None) -> list[float]:
    """Play `bot` against one that thinks 0.15 s a move; the CPU its cgroup (all its processes,
    children that left its process group included, dead ones too) used during each of the
    other's turns."""
    sleepy = str(Path(__file__).parent / "bots" / "sleepy.py")
    gaps: list[float] = []

    async def go() -> None:
        async with Arena(
            [bot, sleepy], log_dir=log_dir, isolation=level, bot_env={"AZUL_TEST_SLEEP": "0.15"}
        ) as arena:
            start: list[float] = []

            def cpu() -> float:
                worker = next(w for w in arena.pool.items() if w.entry == bot)
                assert worker.process is not None and worker.process.group is not None
                found = worker.process.group.cpu_seconds()
                assert found is not None
                return found

            def watch(event: MatchEvent) -> None:
                if not isinstance(event, MovePlayed) or len(gaps) >= 6:
                    return
                if event.seat == 0 and event.ply > 2:
                    start[:] = [cpu()]
                elif event.seat == 1 and start:
                    gaps.append(cpu() - start[0])
                    start.clear()

            await arena.play([bot, sleepy], MatchConfig(seed=3, time_per_move=2.0), on_event=watch)

    asyncio.run(asyncio.wait_for(go(), 120))
    return gaps


@pytest.mark.parametrize("level", ["process", "sandbox"])
def test_a_frozen_bot_s_children_are_frozen_too(level: str, tmp_path: Path) -> None:
    """The forker (hostile/forker/forking.py) keeps 12 children spinning, each in a new session,
    and forks without pause from two more threads, slowly (it holds 128 MiB): nearly every
    freeze comes in the middle of a fork. While the other thinks none of its processes may run,
    those born of a fork under way as the freeze came included (such a child writes REPORT to
    the bot's log once it computed 2 ms while its parent stayed stopped)."""
    need(level)
    if layout() is None:
        pytest.skip(
            "no cgroups here: a child that leaves its process group is not frozen "
            "(the isolation line says so)"
        )
    gaps = _cgroup_cpu_between_moves(str(HOSTILE / "forker" / "bot.py"), level, tmp_path)
    assert len(gaps) == 6
    ran = [line for log in tmp_path.rglob("*.log") for line in log.read_text().splitlines()]
    assert not [line for line in ran if REPORT in line], ran
    # Unfrozen children spin through most of the other's 0.15 s turn; frozen, a gap is a few
    # ms, plus the fork under way as the freeze came (copying 128 MiB of page tables: ~10 ms).
    assert max(gaps) <= 0.05, f"CPU seconds its processes used during the other's turns: {gaps}"


@pytest.mark.parametrize("level", ["process", "sandbox"])
def test_a_cgroup_oom_kill_ends_the_seat_as_memory(level: str, tmp_path: Path) -> None:
    """The hog's processes together go over its memory cgroup's limit (each under its own
    address-space limit): the kernel kills the bot, and the seat ends as `memory`."""
    need(level)
    if layout() is None:
        pytest.skip("no cgroups here: no memory cgroup, hence no OOM kill of one")
    from referee.sandbox import Limits

    hog = str(HOSTILE / "hog" / "bot.py")

    async def go() -> list[str]:
        async with Arena(
            {"hog": hog, "random": "random"},
            log_dir=tmp_path,
            isolation=level,
            entry_limits={"hog": Limits(memory=512 << 20)},
        ) as arena:
            result = await arena.play(["hog", "random"], MatchConfig(seed=1, time_per_move=20))
            return [s.termination for s in result.seats]

    assert asyncio.run(asyncio.wait_for(go(), 120)) == ["memory", "ok"]
