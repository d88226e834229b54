"""The runner with an in-process play function: concurrency, commit-before-report, errors."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.tournaments.helpers import fake_outcome
from tournaments.domain.entries import Entry
from tournaments.domain.runner import StopRun, run_games
from tournaments.domain.schedule import ScheduledGame, build_schedule
from tournaments.domain.store import GameOutcome, Store


def _setup(tmp_path: Path) -> tuple[Store, list[ScheduledGame]]:
    entries = [Entry(n, "random") for n in "abcd"]
    store = Store.open(tmp_path / "run.db")
    games = build_schedule([e.name for e in entries], 2, 2, seed=1)
    store.write_schedule({}, entries, games)
    return store, games


def test_concurrent_run_commits_each_game_before_reporting(tmp_path: Path) -> None:
    store, games = _setup(tmp_path)
    in_flight = 0
    peak = 0

    async def play(game: ScheduledGame) -> GameOutcome:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.01 * (game.index % 3))
        in_flight -= 1
        return fake_outcome(game)

    seen: list[int] = []

    def on_done(game: ScheduledGame, outcome: GameOutcome | None, error: str | None) -> None:
        # Reported only once committed: a fresh connection already sees it.
        with Store.open(tmp_path / "run.db", create=False) as other:
            done_ids = {g.game.index for g in other.games(done_only=True)}
        assert game.index in done_ids
        seen.append(game.index)

    summary = asyncio.run(run_games(store, games, play, concurrency=3, on_done=on_done))
    assert summary.played == len(games) == 12 and summary.failed == 0
    assert peak == 3
    assert sorted(seen) == list(range(12))
    assert store.counts() == (12, 12)


def test_failing_games_stay_pending_and_others_go_on(tmp_path: Path) -> None:
    store, games = _setup(tmp_path)

    async def play(game: ScheduledGame) -> GameOutcome:
        if game.index in (2, 7):
            raise RuntimeError("referee hiccup")
        return fake_outcome(game)

    summary = asyncio.run(run_games(store, games, play, concurrency=2))
    assert summary.played == 10 and summary.failed == 2
    assert [g.index for g in store.pending_games()] == [2, 7]
    # A resume plays only those two.
    summary = asyncio.run(
        run_games(store, store.pending_games(), lambda g: _async(fake_outcome(g)), concurrency=2)
    )
    assert summary.played == 2 and store.counts() == (12, 12)


async def _async(value: GameOutcome) -> GameOutcome:
    return value


def test_all_failing_run_stops_early(tmp_path: Path) -> None:
    store, games = _setup(tmp_path)
    calls = 0

    async def play(game: ScheduledGame) -> GameOutcome:
        nonlocal calls
        calls += 1
        raise FileNotFoundError("no such bot")

    summary = asyncio.run(run_games(store, games, play, concurrency=1, max_consecutive_errors=4))
    assert summary.aborted and "no such bot" in summary.aborted
    assert calls == 4 and store.counts() == (0, 12)


def test_games_withdrawn_meanwhile_are_neither_played_nor_recorded(tmp_path: Path) -> None:
    # remove_entry (another process, in real use) withdraws d's games while the run goes on:
    # the one in flight is not recorded, the others are not started; no game counts as failed.
    store, games = _setup(tmp_path)
    started: list[ScheduledGame] = []

    async def play(game: ScheduledGame) -> GameOutcome:
        started.append(game)
        if "d" in game.seats and not store.removed_entries():
            with Store.open(tmp_path / "run.db", create=False) as other:
                other.remove_entry("d")
        await asyncio.sleep(0)
        return fake_outcome(game)

    summary = asyncio.run(run_games(store, games, play, concurrency=1))
    with_d = [g for g in games if "d" in g.seats]
    assert [g for g in started if "d" in g.seats] == with_d[:1]
    assert summary.failed == 0 and summary.withdrawn == len(with_d)
    assert summary.played == len(games) - len(with_d) and store.counts() == (6, 6)


def test_a_play_that_stops_the_run_keeps_the_games_in_flight_and_notes_no_error(
    tmp_path: Path,
) -> None:
    store, games = _setup(tmp_path)
    gone = asyncio.Event()  # the cluster went away
    calls = 0

    async def play(game: ScheduledGame) -> GameOutcome:
        nonlocal calls
        calls += 1
        if gone.is_set():
            raise StopRun("lost the Dask scheduler")
        if game.index == 3:
            gone.set()
            await asyncio.sleep(0.05)  # in flight when the others hear of it: still recorded
        return fake_outcome(game)

    summary = asyncio.run(run_games(store, games, play, concurrency=2))
    assert summary.aborted == "lost the Dask scheduler" and summary.failed == 0
    done = {g.game.index for g in store.games(done_only=True)}
    assert 3 in done and summary.played == len(done) < 12 and calls < 12
    assert all(
        g.attempts == 0 and g.last_error is None for g in store.games() if g.status == "pending"
    )
