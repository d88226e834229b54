"""Process economy: a 16-entry round-robin at concurrency 8 stays under its bot-process cap,
counted from /proc while the real `tournament run` runs; the dispatch's choices in isolation."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tournaments.benchmarks.tournament import live_bot_processes
from tournaments.domain.arena import process_cap
from tournaments.domain.runner import Dispatch, Pool, parallel_games
from tournaments.domain.schedule import ScheduledGame, build_schedule

ROOT = Path(__file__).resolve().parents[2]


def _run_counting(tmp_path: Path, *args: str) -> tuple[str, int, int]:
    """`tournament run ARGS` in a process of its own: (its output, the peak of its live bot
    processes read from /proc, how many times they were counted)."""
    cmd = [
        sys.executable,
        "-m",
        "tournaments.cli",
        "tournament",
        "run",
        *args,
        "--db",
        str(tmp_path / "t.db"),
        "--plain",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak, samples = 0, 0
    while proc.poll() is None:
        peak = max(peak, len(live_bot_processes(proc.pid)))
        samples += 1
        time.sleep(0.005)
    out = proc.stdout.read().decode() if proc.stdout else ""
    assert proc.returncode == 0, out
    return out, peak, samples


# At --concurrency 16 a machine with 8 or fewer parallel games (2 cores) plays as at 8.
@pytest.mark.slow  # 16 entries at 8 games at once: about 13 s of CPU (CI runs it)
@pytest.mark.parametrize("concurrency", [8, 16])
def test_sixteen_entries_stay_under_24_bot_processes(tmp_path: Path, concurrency: int) -> None:
    entries = [f"r{i}=random" for i in range(16)]
    out, peak, samples = _run_counting(
        tmp_path,
        *entries,
        "--concurrency",
        str(concurrency),
        "--seed",
        "3",
        "--games-per-pairing",
        "1",
    )
    assert "120/120 games" in out
    # 8 games in flight hold 16 bots; the rest are a few idle ones and the warm standby. At
    # --concurrency 16 the entries cannot fill more games without second processes, which
    # only a machine with cores to spare for more than 8 games (5 and more) starts.
    limit = 24 if concurrency <= 8 or parallel_games() <= 8 else process_cap(16, 2, concurrency)
    assert samples > 50 and 16 <= peak <= limit, f"peak {peak} bots over {samples} samples"
    launched = len(list((tmp_path / "logs").glob("r*.log")))
    assert launched <= limit, f"{launched} bot processes started for 16 entries"


def _games(names: str, per_group: int = 2) -> list[ScheduledGame]:
    return build_schedule(list(names), 2, per_group, seed=1)


def test_dispatch_prefers_games_whose_entries_are_free() -> None:
    dispatch = Dispatch(_games("abcdefgh"))
    first = dispatch.take()
    assert first is not None and first.seats == ("a", "b")
    taken = [first]
    for _ in range(3):
        game = dispatch.take()
        assert game is not None
        taken.append(game)
    # Four games, eight entries: nobody in two games at once.
    assert Counter(n for g in taken for n in g.seats).most_common(1)[0][1] == 1


def test_dispatch_waits_rather_than_start_a_second_process_past_the_cap() -> None:
    # Four entries, cap 4: two games in flight use all four; every other game needs a second
    # process of a busy entry, so the dispatch waits; once a game ends, its pair's next starts.
    dispatch = Dispatch(_games("abcd"), Pool(max_processes=4))
    one, two = dispatch.take(), dispatch.take()
    assert one is not None and two is not None
    assert set(one.seats).isdisjoint(two.seats)
    assert dispatch.take() is None and dispatch.in_flight == 2
    dispatch.release(one)
    three = dispatch.take()
    assert three is not None and set(three.seats) == set(one.seats)
    assert dispatch.pool.started == 4


def test_dispatch_without_room_to_wait_still_plays() -> None:
    # Two entries: every game needs both. Nothing in flight: it must start (the Arena evicts).
    dispatch = Dispatch(_games("ab", per_group=4), Pool(max_processes=2))
    game = dispatch.take()
    assert game is not None
    assert dispatch.take() is None  # a second copy of each would pass the cap
    dispatch.release(game)
    assert dispatch.take() is not None
    # With room, both games run at once on four processes.
    roomy = Dispatch(_games("ab", per_group=4), Pool(max_processes=8))
    assert roomy.take() is not None and roomy.take() is not None and roomy.pool.started == 4


def test_two_entries_at_concurrency_4_still_play_games_at_once(tmp_path: Path) -> None:
    # Two entries fill one game; the others each need a second process of both, and those buy
    # parallelism while the machine has cores for them (two games per CPU).
    out, peak, _ = _run_counting(
        tmp_path,
        "a=random",
        "b=random",
        "--games-per-pairing",
        "40",
        "--concurrency",
        "4",
        "--seed",
        "3",
    )
    assert "40/40 games" in out
    at_once = min(4, parallel_games())
    assert 2 * at_once <= peak <= 2 * 4 + 1, f"peak {peak} bot processes"


def _simulate(
    entries: int, concurrency: int, pool: Pool, per_group: int = 2
) -> tuple[int, int, Pool]:
    """Run a round-robin through a `Dispatch` as `concurrency` workers would, games ending in a
    random order: (most games in flight, most processes held, the pool)."""
    names = "".join(chr(ord("A") + i) for i in range(entries))
    dispatch = Dispatch(_games(names, per_group), pool)
    rng = random.Random(7)
    flight: list[ScheduledGame] = []
    most_games = most_held = 0
    while dispatch or flight:
        while len(flight) < concurrency and (game := dispatch.take()) is not None:
            flight.append(game)
        assert flight, "nothing in flight and nothing started: the dispatch would hang"
        most_games = max(most_games, len(flight))
        most_held = max(most_held, sum(pool.held.values()))
        dispatch.release(flight.pop(rng.randrange(len(flight))))
    return most_games, most_held, pool


def test_second_processes_start_only_while_they_buy_parallelism() -> None:
    # 16 entries at concurrency 16 on 2 cores (4 games worth running at once): 8 games at once
    # on one process each; a second process only in the tail, when fewer than 4 are left.
    games, held, pool = _simulate(16, 16, Pool(max_processes=35, parallel=4))
    assert games == 8 and held <= 23 and pool.started == held
    # The same on 64 cores: the 16 games asked for, on about two processes per entry.
    games, held, _ = _simulate(16, 16, Pool(max_processes=35, parallel=128))
    assert games == 16 and 32 <= held <= 35
    # Two entries at concurrency 4 on 2 cores: 4 games at once (8 processes); at 16, still 4.
    assert _simulate(2, 4, Pool(max_processes=11, parallel=4), per_group=40)[:2] == (4, 8)
    assert _simulate(2, 16, Pool(max_processes=35, parallel=4), per_group=40)[:2] == (4, 8)
    # Without a model (a cluster's workers cap their own Arenas): what concurrency asks.
    assert _simulate(2, 6, Pool(), per_group=40)[:2] == (6, 12)
