"""The tournament core as a coroutine (`run_tournament`): awaited inside a caller's own event
loop, it tells its watcher each step (`tournaments.domain.progress`), grows an adaptive or Swiss
tournament round by round, and, cancelled, keeps what was recorded so that a second run
finishes it. The games are the deterministic ones of `helpers.fake_outcome`."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.tournaments.helpers import fake_outcome
from tournaments.domain.entries import Entry
from tournaments.domain.progress import (
    GameFinished,
    ProgressEvent,
    ProgressLines,
    RunEnded,
    RunStarted,
    TotalChanged,
)
from tournaments.domain.runner import RunSummary
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.store import GameOutcome, Store
from tournaments.domain.tournament import TournamentConfig, prepare, run_tournament

NAMES = ("a", "b", "c", "d")


async def play(game: ScheduledGame) -> GameOutcome:
    await asyncio.sleep(0)  # a game's turn of the loop, as a real one has many
    return fake_outcome(game)


def config(**options: Any) -> TournamentConfig:
    return TournamentConfig(entries=[Entry(n, "random") for n in NAMES], seed=3, **options)


async def run(
    db: Path, wanted: TournamentConfig, stop_after: int | None = None
) -> tuple[RunSummary | None, list[ProgressEvent]]:
    """The tournament in `db`, run in this loop; cancelled once `stop_after` games are done."""
    events: list[ProgressEvent] = []
    task = asyncio.current_task()
    assert task is not None

    def on_progress(event: ProgressEvent) -> None:
        events.append(event)
        finished = sum(isinstance(e, GameFinished) for e in events)
        if isinstance(event, GameFinished) and finished == stop_after:
            task.cancel()

    with Store.open(db) as store:
        current, games = prepare(store, wanted)
        try:
            summary = await run_tournament(
                store, current, games, concurrency=2, player=play, on_progress=on_progress
            )
        except asyncio.CancelledError:
            return None, events
    return summary, events


def test_a_round_robin_is_awaited_and_watched_step_by_step(tmp_path: Path) -> None:
    async def main() -> tuple[RunSummary | None, list[ProgressEvent]]:
        return await run(tmp_path / "t.db", config())  # inside the caller's own loop

    summary, events = asyncio.run(main())
    assert summary is not None and (summary.played, summary.failed) == (12, 0)
    started, *games, ended = events
    assert isinstance(started, RunStarted) and isinstance(ended, RunEnded)
    assert (list(started.names), started.total, list(started.finished)) == (list(NAMES), 12, [])
    assert len(games) == 12 and all(isinstance(g, GameFinished) and g.outcome for g in games)
    ids = {g.game.game_id for g in games if isinstance(g, GameFinished)}
    with Store.open(tmp_path / "t.db", create=False) as store:
        assert store.counts() == (12, 12)
        assert ids == {g.game.game_id for g in store.games(done_only=True)}


def test_plain_progress_lines_say_the_end_once(tmp_path: Path) -> None:
    # Piped (make demo > log, CI): the last game's line is the run's last line, not said twice.
    _, events = asyncio.run(run(tmp_path / "p.db", config()))
    lines: list[str] = []
    watch = ProgressLines(lines.append, every=3600)
    for event in events:
        watch(event)
    assert lines[0].startswith("games 0/12 (0%)")
    assert [line.split(",")[0] for line in lines[1:]] == ["games 12/12 (100%)"], lines


def test_a_swiss_tournament_says_it_grew_after_each_round(tmp_path: Path) -> None:
    summary, events = asyncio.run(run(tmp_path / "s.db", config(schedule="swiss", rounds=3)))
    assert summary is not None and (summary.played, summary.failed) == (12, 0)
    grew = [e.total for e in events if isinstance(e, TotalChanged)]
    assert len(grew) == 3 and grew[-1] == 12  # after rounds 1, 2 and 3 (none to follow)
    assert isinstance(events[-1], RunEnded)


def test_a_cancelled_run_keeps_its_games_and_the_next_run_finishes_it(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    summary, events = asyncio.run(run(db, config(), stop_after=3))
    assert summary is None and isinstance(events[-1], RunEnded)  # told, though cancelled
    with Store.open(db, create=False) as store:
        done, total = store.counts()
    assert 3 <= done < total == 12
    summary, events = asyncio.run(run(db, config()))
    assert summary is not None and summary.played == 12 - done
    started = events[0]
    assert isinstance(started, RunStarted) and len(started.finished) == done
    with Store.open(db, create=False) as store:
        assert store.counts() == (12, 12)
