"""Process economy: a 16-entry round-robin at concurrency 8 stays under its bot-process cap,
counted from /proc while the real `tournament run` runs; the dispatch's choices in isolation."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from tournaments.bench import live_bot_processes
from tournaments.runner import Dispatch
from tournaments.schedule import ScheduledGame, build_schedule

ROOT = Path(__file__).resolve().parents[2]


def test_sixteen_entries_at_concurrency_8_stay_under_24_bot_processes(tmp_path: Path) -> None:
    entries = [f"r{i}=random" for i in range(16)]
    cmd = [sys.executable, "-m", "tournaments.cli", "tournament", "run", *entries,
           "--concurrency", "8", "--seed", "3", "--db", str(tmp_path / "t.db"), "--plain"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak, samples = 0, 0
    while proc.poll() is None:
        peak = max(peak, len(live_bot_processes(proc.pid)))
        samples += 1
        time.sleep(0.005)
    out = proc.stdout.read().decode() if proc.stdout else ""
    assert proc.returncode == 0, out
    assert "240/240 games" in out
    # 8 games in flight hold 16 bots; the rest are a few idle ones and the warm standby.
    assert samples > 50 and 16 <= peak <= 24, f"peak {peak} bot processes over {samples} samples"
    launched = len(list((tmp_path / "logs").glob("r*.log")))
    assert launched <= 24, f"{launched} bot processes started for 16 entries"


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
    dispatch = Dispatch(_games("abcd"), max_processes=4)
    one, two = dispatch.take(), dispatch.take()
    assert one is not None and two is not None
    assert set(one.seats).isdisjoint(two.seats)
    assert dispatch.take() is None and dispatch.in_flight == 2
    dispatch.release(one)
    three = dispatch.take()
    assert three is not None and set(three.seats) == set(one.seats)
    assert dispatch.started == 4


def test_dispatch_without_room_to_wait_still_plays() -> None:
    # Two entries: every game needs both. Nothing in flight: it must start (the Arena evicts).
    dispatch = Dispatch(_games("ab", per_group=4), max_processes=2)
    game = dispatch.take()
    assert game is not None
    assert dispatch.take() is None  # a second copy of each would pass the cap
    dispatch.release(game)
    assert dispatch.take() is not None
    # With room, both games run at once on four processes.
    roomy = Dispatch(_games("ab", per_group=4), max_processes=8)
    assert roomy.take() is not None and roomy.take() is not None and roomy.started == 4
