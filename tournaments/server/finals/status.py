"""Where a contest's final is: scheduled, playing (games done of those planned) or done.

The final's games are rows of the server's database (`finals.store`); this module only counts
them, and imports nothing of the tournament's runner, so a page, `server contest show` and the
admin can say where the final is cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.server.contests.models import Contest
from tournaments.server.finals.store import FinalStore

SCHEDULED, PLAYING, DONE, NONE = "scheduled", "playing", "done", "not played"


@dataclass(frozen=True)
class FinalStatus:
    """The final's state, its games done and planned (None before it starts), who plays it."""

    state: str
    done: int = 0
    planned: int | None = None
    runner: str = ""
    machines: tuple[tuple[str, int], ...] = ()  # (host, games played there), by host

    @property
    def finished(self) -> bool:
        return self.state == DONE

    def describe(self) -> str:
        """In a sentence, for the pages and the commands."""
        if self.state == SCHEDULED:
            return "scheduled: it starts once the deadline has passed and every hand-in is decided"
        where = self._where()
        if self.state == PLAYING:
            return f"playing: {self.done} of {self.planned or '?'} games played{where}"
        if self.state == DONE:
            return f"done: {self.done} games played{where}"
        return "not played (the contest was closed without a final)"

    def _where(self) -> str:
        if len(self.machines) < 2:  # one machine: the runner's own, said already
            return ""
        return f" on {len(self.machines)} machines"

    def as_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "games_done": self.done,
            "games_planned": self.planned,
            "runner": self.runner or None,
            "machines": dict(self.machines),
        }


@dataclass(frozen=True)
class _Counts:
    done: int
    planned: int | None
    finished: bool
    machines: tuple[tuple[str, int], ...]


def _counts(contest: Contest, where: bool = True) -> _Counts | None:
    """The games done and planned, whether all are played and (`where`) on which machines;
    None before its schedule is written."""
    store = FinalStore(contest)
    config = store.config()
    if config is None:
        return None
    done, total = store.counts()
    machines = tuple(store.hosts().items()) if where else ()
    if config.get("schedule", "round-robin") == "round-robin":
        return _Counts(done, total, total > 0 and done == total, machines)
    planned = int(config.get("games") or 0)
    return _Counts(done, planned, planned > 0 and done >= planned, machines)


def final_status(contest: Contest) -> FinalStatus:
    """Where the final of `contest` is."""
    counts = _counts(contest)
    runner = contest.final_runner
    if counts is not None and counts.finished:
        return FinalStatus(DONE, counts.done, counts.planned, runner, counts.machines)
    if contest.state == Contest.FINAL:
        if counts is None:
            return FinalStatus(PLAYING, 0, None, runner)
        return FinalStatus(PLAYING, counts.done, counts.planned, runner, counts.machines)
    if contest.state == Contest.CLOSED:
        if counts is None:
            return FinalStatus(NONE)
        return FinalStatus(NONE, counts.done, counts.planned, machines=counts.machines)
    return FinalStatus(SCHEDULED)


def final_done(contest: Contest) -> bool:
    """The final has been played to its end (every scheduled game recorded)."""
    counts = _counts(contest, where=False)  # asked every second by each worker
    return counts is not None and counts.finished
