"""The organisers' operations on a contest's life, as the commands (`server contest show / set /
extend / final`, `server export-results`) and any other caller make them: a contest named by
its slug, typed arguments, what was done returned, and `ContestError` with a message that says
what was wrong and what to do. Django must be set up (`tournaments.server.setup`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db import transaction

from tournaments.server.contests.models import Contest, Extension
from tournaments.server.contests.services import (
    ContestError,
    about,
    find_contest,
    set_build_timeout,
)
from tournaments.server.ladder.lifecycle import LifecycleError, advance, extend, set_state

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments.runner import RunSummary


@dataclass(frozen=True)
class FinalPlayed:
    """A final played (or resumed) to its end: its summary and its tournament database."""

    summary: RunSummary
    database: Path


@dataclass(frozen=True)
class Exported:
    """A contest's results written: the standings' CSV, the games' archive and its size."""

    standings: Path
    archive: Path
    games: int


def show_contest(slug: str, by: str) -> dict[str, Any]:
    """The contest `slug` as `contests.services.about` tells it, once the steps its dates call
    for are made (recorded as made `by`)."""
    return about(advance(find_contest(slug), by=by))


def change_contest(
    slug: str, state: str | None = None, build_timeout: int | None = None, by: str = ""
) -> Contest:
    """Move the contest `slug` on to `state` by hand (forward only; freezing records the
    hand-ins) and/or change its build timeout: both or neither (a refusal changes nothing)."""
    contest = find_contest(slug)
    if state is None and build_timeout is None:
        raise ContestError(
            "say what to set: a state (open, frozen, final, closed) or --build-timeout SECONDS"
        )
    try:
        with transaction.atomic():
            if build_timeout is not None:
                set_build_timeout(contest, build_timeout)
            if state is not None:
                set_state(contest, state, by)
    except LifecycleError as exc:
        contest.refresh_from_db()
        raise ContestError(str(exc)) from None
    return contest


def extend_deadline(
    slug: str, team: str, until: datetime, reason: str = "", granted_by: str = ""
) -> Extension:
    """A later deadline for `team` in the contest `slug` (a special consideration)."""
    contest = find_contest(slug)
    who = contest.participants.filter(name=team).first()
    if who is None:
        raise ContestError(f"no team {team!r} in {slug}")
    try:
        return extend(contest, who, until, reason, granted_by)
    except LifecycleError as exc:
        raise ContestError(str(exc)) from None


def play_final(
    slug: str,
    concurrency: int,
    by: str,
    take_over: bool = False,
    console: Console | None = None,
) -> FinalPlayed:
    """Play (or resume) the final tournament of the frozen contest `slug` on this machine;
    `console` shows its progress (None: nothing is shown)."""
    from tournaments.server.ladder.final import final_path, run_final

    contest = find_contest(slug)
    try:
        summary = run_final(contest, concurrency, console, by=by, take_over=take_over)
    except LifecycleError as exc:
        raise ContestError(str(exc)) from None
    return FinalPlayed(summary, final_path(contest))


def export_results(slug: str, folder: Path) -> Exported:
    """The final standings of `slug` as SLUG-standings.csv and the whole contest (the final's
    database, every game's record) as SLUG-games.tar.gz in `folder` (made if need be)."""
    from tournaments.server.ladder.export import standings_csv, write_archive

    contest = find_contest(slug)
    standings, archive = folder / f"{slug}-standings.csv", folder / f"{slug}-games.tar.gz"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        standings.write_text(standings_csv(contest))
        games = write_archive(contest, archive)
    except LifecycleError as exc:
        raise ContestError(str(exc)) from None
    return Exported(standings, archive, games)
