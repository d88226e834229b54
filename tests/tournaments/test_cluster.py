"""Tournaments on a Dask cluster: real LocalClusters and real `dask scheduler` / `dask worker`
processes, real bot processes, real SQLite stores.

The bots are the deterministic test bots (same position, same move, in any process), so a game
has one possible result whatever machine plays it: the cluster's results can be compared with
the embedded runner's game for game.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.test_interrupt import done_games
from tournaments.domain.arena import isolation_level
from tournaments.domain.cluster import ClusterOptions, cluster_player
from tournaments.domain.entries import Entry
from tournaments.domain.report import export_csv
from tournaments.domain.runner import run_games
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import GameOutcome, Store
from tournaments.domain.tournament import TournamentConfig, prepare
from tournaments.domain.tournament import run_tournament as play_tournament

pytest.importorskip("distributed", reason="Dask not installed: make install")

BOTS = Path(__file__).parent / "bots"
VENV_BIN = Path(sys.executable).parent
SLOW_BOT = """
import time

from steady import SteadyBot


class SlowBot(SteadyBot):
    def choose_move(self, state):
        time.sleep(0.01)  # games long enough to be caught in flight
        return super().choose_move(state)
"""


def bot_folder(base: Path) -> Path:
    """A private copy of the test bots (they import their sibling `_common`), plus a slow one."""
    folder = base / "bots"
    folder.mkdir(parents=True)
    for name in ("_common.py", "steady.py", "strong.py", "weak.py"):
        shutil.copy(BOTS / name, folder / name)
    (folder / "slow.py").write_text(SLOW_BOT)
    return folder


def entries(folder: Path, *names: str) -> list[Entry]:
    return [Entry(name, str(folder / f"{name}.py")) for name in names]


def stored(db: Path) -> dict[str, Any]:
    """Every game of a store: status, per-seat results and the moves played, by game id."""
    with Store.open(db, create=False) as store:
        games = {}
        for g in store.games():
            record = store.replay(g.game.game_id) or {}
            moves = [m for rnd in record.get("rounds", []) for m in rnd.get("moves", [])]
            games[g.game.game_id] = {
                "status": g.status,
                "seats": list(g.game.seats),
                "seed": g.game.seed,
                "results": [(s.entry, s.score, s.rank, s.termination, s.moves) for s in g.seats],
                "moves": moves,
                "machine": g.machine,
            }
        return games


def assert_exactly_once(db: Path, games: int) -> None:
    """Every game done, with one result row per seat and one replay: nothing lost or doubled."""
    with sqlite3.connect(db) as conn:
        assert (
            conn.execute("SELECT COUNT(*) FROM games WHERE status = 'done'").fetchone()[0] == games
        )
        per_game = conn.execute(
            "SELECT g.game_id, COUNT(r.seat), length(g.seats) - length(replace(g.seats, ',', ''))"
            " + 1 FROM games g LEFT JOIN results r ON r.game_idx = g.idx GROUP BY g.idx"
        ).fetchall()
        assert all(rows == seats for _, rows, seats in per_game), per_game
        assert conn.execute("SELECT COUNT(*) FROM replays").fetchone()[0] == games


def run_tournament(
    db: Path, chosen: list[Entry], cluster: ClusterOptions | None, **options: Any
) -> None:
    config = TournamentConfig(
        entries=chosen,
        match=MatchSettings(time_per_move=2.0),
        seed=5,
        games_per_pairing=2,
        **options,
    )
    with Store.open(db) as store:
        config, pending = prepare(store, config)
        summary = asyncio.run(
            play_tournament(store, config, pending, concurrency=2, cluster=cluster)
        )
    assert summary.failed == 0 and summary.played >= len(pending), summary.errors


def test_local_cluster_plays_the_embedded_runners_tournament(tmp_path: Path) -> None:
    chosen = entries(bot_folder(tmp_path), "strong", "steady", "weak")
    run_tournament(tmp_path / "embedded.db", chosen, None)
    run_tournament(tmp_path / "cluster.db", chosen, ClusterOptions(workers=2, threads=1))
    local, remote = stored(tmp_path / "embedded.db"), stored(tmp_path / "cluster.db")
    assert len(local) == len(remote) == 6
    assert_same_games(local, remote)
    assert_exactly_once(tmp_path / "cluster.db", 6)
    with Store.open(tmp_path / "cluster.db", create=False) as store:
        rows = list(csv.DictReader(io.StringIO(export_csv(store))))
    assert len(rows) == 12
    assert {(r["host"], r["isolation"], r["cpus"]) for r in rows} == {
        (socket.gethostname(), isolation_level(), str(os.cpu_count()))
    }


def assert_same_games(local: dict[str, Any], remote: dict[str, Any]) -> None:
    assert local.keys() == remote.keys()
    for game_id, game in local.items():
        other = remote[game_id]
        assert game["status"] == other["status"] == "done"
        assert (game["seats"], game["seed"], game["results"], game["moves"]) == (
            other["seats"],
            other["seed"],
            other["results"],
            other["moves"],
        ), game_id
        assert other["machine"] is not None and other["machine"].cpus >= 1


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_adaptive_pairing_on_the_cluster_pairs_as_the_embedded_runner_does(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    chosen = [
        *entries(folder, "strong", "steady", "weak"),
        Entry("steady2", str(folder / "steady.py")),
    ]
    options = {"schedule": "adaptive", "games": 12}
    run_tournament(tmp_path / "embedded.db", chosen, None, **options)
    run_tournament(tmp_path / "cluster.db", chosen, ClusterOptions(workers=2, threads=1), **options)
    local, remote = stored(tmp_path / "embedded.db"), stored(tmp_path / "cluster.db")
    assert len(local) == 12  # rounds chosen from the results so far: the same ones
    assert_same_games(local, remote)
    assert_exactly_once(tmp_path / "cluster.db", 12)


def worker_pids(parent: int) -> list[int]:
    """The Dask worker processes (multiprocessing children) of process `parent`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and cmdline.startswith(b"dask worker"):
            found.append(int(pid))
    return found


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_a_worker_killed_mid_run_loses_nothing_and_doubles_nothing(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    chosen = [Entry("slow", str(folder / "slow.py")), *entries(folder, "steady", "weak")]
    db = tmp_path / "t.db"
    config = TournamentConfig(
        entries=chosen, match=MatchSettings(time_per_move=2.0), seed=9, games_per_pairing=2
    )
    store = Store.open(db)
    config, pending = prepare(store, config)
    killed: list[int] = []
    parent = os.getpid()

    def kill_one() -> None:
        pids = worker_pids(parent)
        if len(pids) == 2:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    def on_done(game: Any, outcome: GameOutcome | None, error: str | None) -> None:
        if not timer.ident:
            timer.start()  # a moment later both workers are in the middle of a game

    timer = threading.Timer(0.2, kill_one)

    async def main() -> Any:
        async with cluster_player(
            chosen, config.settings(), ClusterOptions(workers=2, threads=1)
        ) as remote:
            # Two games at once and no queue: each worker is playing when the kill comes.
            return await run_games(store, pending, remote.play, 2, on_done)

    summary = asyncio.run(main())
    store.close()
    timer.join()
    assert killed
    assert summary.failed == 0 and summary.played == len(pending) == 6, summary.errors
    assert_exactly_once(db, 6)


def cli(*args: str, cwd: Path, **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(VENV_BIN / "azul-arena"), *args],
        cwd=cwd,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        **kwargs,
    )


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_the_client_killed_mid_run_and_rerun_records_every_game_once(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    db = tmp_path / "t.db"
    args = [
        "tournament",
        "run",
        f"slow={folder / 'slow.py'}",
        f"steady={folder / 'steady.py'}",
        f"weak={folder / 'weak.py'}",
        "--seed",
        "4",
        "--games-per-pairing",
        "2",
        "--time-per-move",
        "2",
        "--workers",
        "2",
        "--concurrency",
        "2",
        "--db",
        str(db),
        "--plain",
    ]
    first = cli(*args, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while done_games(db) < 1 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, first.communicate()[0]
        os.kill(first.pid, signal.SIGKILL)  # no goodbye: games in flight are simply lost
        # wait(), not communicate(): the LocalCluster's orphaned workers still hold the output
        # pipe open until they are ended below.
        first.wait(timeout=10)
    finally:
        try:
            os.killpg(first.pid, signal.SIGKILL)  # its LocalCluster's worker processes
        except ProcessLookupError:
            pass
        first.communicate(timeout=30)
    assert done_games(db) < 6
    second = cli(*args, cwd=tmp_path)
    out = second.communicate(timeout=120)[0]
    assert second.returncode == 0, out
    assert "resuming" in out
    assert_exactly_once(db, 6)


def scheduler_address(path: Path, wait: float = 60) -> str:
    """The address in a `dask scheduler --scheduler-file`, once written: the file appears
    before its contents do, so an empty or half-written file is read again."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return str(json.loads(path.read_text())["address"])
        except (OSError, ValueError, KeyError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


# -- a worker that sees nothing of the client's folders ------------------------------------------


@pytest.fixture(scope="module")
def far_cluster(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A `dask scheduler` and a `dask worker` started in another folder with another HOME and
    PATH, inside a mount namespace where the client's folder (`client/`) is an empty tmpfs."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        pytest.skip("bubblewrap not installed: apt-get install bubblewrap")
    base = tmp_path_factory.mktemp("far")
    client_dir, home, elsewhere = base / "client", base / "home", base / "elsewhere"
    for folder in (client_dir, home, elsewhere):
        folder.mkdir()
    probe = subprocess.run(
        [bwrap, "--dev-bind", "/", "/", "--tmpfs", str(client_dir), "true"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip(f"bubblewrap cannot make a mount namespace here: {probe.stderr!r}")
    scheduler_file = base / "scheduler.json"
    env = {
        "HOME": str(home),
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": os.environ.get("LANG", "C.UTF-8"),
    }
    processes = [
        subprocess.Popen(
            [
                str(VENV_BIN / "dask"),
                "scheduler",
                "--scheduler-file",
                str(scheduler_file),
                "--port",
                "0",
                "--no-dashboard",
            ],
            cwd=elsewhere,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    try:
        address = scheduler_address(scheduler_file)
        processes.append(
            subprocess.Popen(
                [
                    bwrap,
                    "--dev-bind",
                    "/",
                    "/",
                    "--tmpfs",
                    str(client_dir),
                    "--chdir",
                    str(elsewhere),
                    "--",
                    str(VENV_BIN / "dask"),
                    "worker",
                    address,
                    "--nthreads",
                    "2",
                    "--no-dashboard",
                    "--name",
                    "far",
                ],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        yield {"address": address, "client": client_dir, "home": home}
    finally:
        for process in reversed(processes):
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGKILL)


def test_entries_are_shipped_to_a_worker_that_cannot_see_them(far_cluster: Any) -> None:
    folder = bot_folder(far_cluster["client"] / "t1")  # under client/: hidden from the worker
    assert str(folder).startswith(str(far_cluster["client"]))
    db = far_cluster["client"] / "t1" / "t.db"
    proc = cli(
        "tournament",
        "run",
        f"strong={folder / 'strong.py'}",
        f"steady={folder / 'steady.py'}",
        "--seed",
        "3",
        "--time-per-move",
        "2",
        "--cluster",
        far_cluster["address"],
        "--db",
        str(db),
        "--plain",
        cwd=folder.parent,
    )
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 0, out
    assert_exactly_once(db, 2)
    with Store.open(db, create=False) as store:
        record = store.replay("p0-g0") or {}
    cache = far_cluster["home"] / ".cache" / "azul-arena" / "entries"
    # The worker ran its own unpacked copy (from its HOME's cache), not the client's file.
    ran = record["referee"]["entries"]
    assert all(spec.startswith(str(cache)) for spec in ran), ran
    assert not any(str(folder) in spec for spec in ran)
    bundles = list(cache.iterdir())
    assert len(bundles) == 1 and (bundles[0] / "_common.py").is_file()  # one folder, once


def test_a_worker_that_cannot_start_an_entry_reports_it_and_the_game_stays_pending(
    far_cluster: Any, tmp_path: Path
) -> None:
    folder = bot_folder(far_cluster["client"] / "t2")
    programs = tmp_path / "bin"  # on the client's PATH only
    programs.mkdir()
    launcher = programs / "steady-bot"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} -m sdk.run {folder / 'steady.py'}\n")
    launcher.chmod(0o755)
    db = far_cluster["client"] / "t2" / "t.db"
    proc = cli(
        "tournament",
        "run",
        f"strong={folder / 'strong.py'}",
        "cmd=steady-bot --fast",
        "--seed",
        "3",
        "--time-per-move",
        "2",
        "--cluster",
        far_cluster["address"],
        "--db",
        str(db),
        "--plain",
        cwd=folder.parent,
        env=dict(os.environ, PATH=f"{programs}:{os.environ['PATH']}"),
    )
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 1, out
    assert "cannot start entry 'cmd'" in out and "steady-bot" in out, out
    with Store.open(db, create=False) as store:
        games = list(store.games())
    assert all(g.status == "pending" and g.attempts == 1 for g in games)
    assert all("failed 3 times" in (g.last_error or "") for g in games)


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_bench_tournament_compares_local_clusters_with_the_embedded_runner(tmp_path: Path) -> None:
    proc = cli(
        "bench",
        "tournament",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--workers",
        "1",
        "--json",
        cwd=tmp_path,
    )
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 0, out
    data = json.loads(out.strip().splitlines()[-1])
    assert data["games"] == 4 and data["games_per_s"] > 0
    assert [
        (r["workers"], r["threads_per_worker"], r["games"], r["failed"]) for r in data["cluster"]
    ] == [(1, 2, 4, 0)]
    assert all(r["ratio_to_embedded"] > 0 for r in data["cluster"])


def test_an_entry_that_joins_during_the_run_is_shipped_when_its_first_game_comes(
    tmp_path: Path,
) -> None:
    folder = bot_folder(tmp_path)
    late = tmp_path / "late"  # a folder of its own: its own bundle, packed only when needed
    shutil.copytree(folder, late)
    known = entries(folder, "strong", "steady")
    joined = {"weak": Entry("weak", str(late / "weak.py"))}
    game = ScheduledGame(0, "late-g0", ("weak", "strong"), seed=7, group=0, deal=0, rotation=0)

    async def main() -> GameOutcome:
        async with cluster_player(
            known, MatchSettings(time_per_move=2.0), ClusterOptions(workers=1), entry_of=joined.get
        ) as remote:
            return await remote.play(game)

    outcome = asyncio.run(main())
    assert [s.entry for s in outcome.seats] == ["weak", "strong"]
    assert all(s.termination == "ok" for s in outcome.seats)
    assert str(late) not in " ".join(outcome.record["referee"]["entries"])  # its worker's copy


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_a_worker_that_replaces_a_lost_one_gets_the_entries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"  # the LocalCluster's workers inherit it
    monkeypatch.setenv("AZUL_ARENA_CACHE", str(cache))
    chosen = entries(bot_folder(tmp_path / "client"), "strong", "steady")
    first = ScheduledGame(0, "p0-g0", ("strong", "steady"), seed=7, group=0, deal=0, rotation=0)
    second = ScheduledGame(1, "p0-g1", ("steady", "strong"), seed=8, group=0, deal=0, rotation=1)
    parent = os.getpid()

    async def main() -> tuple[GameOutcome, GameOutcome]:
        async with cluster_player(
            chosen, MatchSettings(time_per_move=2.0), ClusterOptions(workers=1)
        ) as remote:
            before = await remote.play(first)
            (pid,) = worker_pids(parent)
            os.kill(pid, signal.SIGKILL)  # its nanny starts another worker process
            shutil.rmtree(cache / "entries")  # so the new one can only play what it is sent
            after = await remote.play(second)
            assert worker_pids(parent) not in ([], [pid])
            return before, after

    before, after = asyncio.run(main())
    for outcome in (before, after):
        assert all(s.termination == "ok" for s in outcome.seats)
        assert all(
            spec.startswith(str(cache / "entries")) for spec in outcome.record["referee"]["entries"]
        )
    assert len(list((cache / "entries").iterdir())) == 1  # unpacked again, from what was sent


def dask_cluster(base: Path) -> tuple[str, list[subprocess.Popen[bytes]]]:
    """A `dask scheduler` and one `dask worker` (one game at once) started in `base`."""
    scheduler_file = base / f"scheduler-{time.monotonic_ns()}.json"
    processes = [
        subprocess.Popen(
            [
                str(VENV_BIN / "dask"),
                "scheduler",
                "--scheduler-file",
                str(scheduler_file),
                "--port",
                "0",
                "--no-dashboard",
            ],
            cwd=base,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    address = scheduler_address(scheduler_file)
    processes.append(
        subprocess.Popen(
            [str(VENV_BIN / "dask"), "worker", address, "--nthreads", "1", "--no-dashboard"],
            cwd=base,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    )
    return address, processes


def end(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in reversed(processes):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(10)


@pytest.mark.slow  # waits out the lost scheduler's time-outs: `make test-slow`, run by CI
def test_a_lost_scheduler_stops_the_run_clearly_and_a_rerun_resumes(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    db = tmp_path / "t.db"
    args = [
        "tournament",
        "run",
        f"slow={folder / 'slow.py'}",
        f"steady={folder / 'steady.py'}",
        f"weak={folder / 'weak.py'}",
        "--seed",
        "4",
        "--games-per-pairing",
        "2",
        "--time-per-move",
        "2",
        "--db",
        str(db),
        "--plain",
    ]
    address, processes = dask_cluster(tmp_path)
    try:
        first = cli(*args, "--cluster", address, cwd=tmp_path)
        deadline = time.monotonic() + 60
        while done_games(db) < 1 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, first.communicate()[0]
        os.killpg(processes[0].pid, signal.SIGKILL)  # the scheduler, with no goodbye
        out = first.communicate(timeout=90)[0]
    finally:
        end(processes)
    assert first.returncode == 1, out
    assert "lost the Dask scheduler" in out and "rerun" in out, out
    assert 1 <= done_games(db) < 6
    with Store.open(db, create=False) as store:
        pending = [g for g in store.games() if g.status == "pending"]
    assert pending and all(g.last_error is None for g in pending)  # nothing wrong with them

    address, processes = dask_cluster(tmp_path)
    try:
        second = cli(*args, "--cluster", address, cwd=tmp_path)
        out = second.communicate(timeout=120)[0]
    finally:
        end(processes)
    assert second.returncode == 0, out
    assert "resuming" in out
    assert_exactly_once(db, 6)
