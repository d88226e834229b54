"""The organisers' operations on a contest's life, as the commands (`server contest show / set /
extend / final`, `server export-results`) and any other caller make them: a contest named by
its slug, typed arguments, what was done returned, and `ContestError` with a message that says
what was wrong and what to do. Django must be set up (`tournaments.server.setup`).

They are the worker app's because `show` says what waits for the workers, of every kind
(`worker.backlog`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from tournaments.domain.progress import OnProgress, ignore
from tournaments.server.contests.models import Contest, Extension
from tournaments.server.contests.services import (
    ContestError,
    FinalChange,
    GameChange,
    about,
    find_contest,
    set_build_timeout,
    set_final_format,
    set_final_games,
    set_game_settings,
    set_log_retention,
    set_shares,
    set_signup,
)
from tournaments.server.finals.lifecycle import LifecycleError, extend, set_state

if TYPE_CHECKING:
    from tournaments.domain.cluster import ClusterOptions
    from tournaments.domain.runner import RunSummary
    from tournaments.server.finals.play import Guard


@dataclass(frozen=True)
class FinalPlayed:
    """A final played (or resumed) to its end: its summary (None: it was played already,
    `games` of them)."""

    summary: RunSummary | None
    games: int = 0


@dataclass(frozen=True)
class Exported:
    """A contest's results written: the standings' CSV, the games' archive and its size."""

    standings: Path
    archive: Path
    games: int
    partial: bool = False


def show_contest(slug: str) -> dict[str, Any]:
    """The contest `slug` as `contests.services.about` tells it, with each team's hand-in,
    where its final is and its workers' work (`work`: the shares and what waits, since when).
    It changes nothing (the ladder worker makes the steps its dates call for); a step that is
    due is said (`due`)."""
    from tournaments.server.finals.status import final_status
    from tournaments.server.handins.decisions import handins_json
    from tournaments.server.worker.backlog import backlog

    contest = find_contest(slug)
    shown = about(contest)
    shown["handed_in"] = contest.handins.filter(version__isnull=False).count()
    shown["handins"] = handins_json(contest)
    shown["final"] = final_status(contest).as_json() | {
        "describe": final_status(contest).describe()
    }
    shown["due"] = _due_step(contest)
    shown["work"] = backlog(contest)
    return shown


def _due_step(contest: Contest) -> str | None:
    """A step the contest's dates call for that no ladder worker has made yet, in a sentence."""
    now = timezone.now()
    for state, date, step in (
        (Contest.DRAFT, contest.opens, "open"),
        (Contest.OPEN, contest.deadline, "freeze"),
        (Contest.FINAL, contest.closes, "close (once the final is done)"),
    ):
        if contest.state == state and date is not None and date <= now:
            return (
                f"its dates call for it to {step}: a ladder worker does it within a second "
                f"(server ladder --contest {contest.label}, or server run --contest "
                f"{contest.label})"
            )
    return None


def change_contest(  # noqa: PLR0913  # what may be set, each with a default
    slug: str,
    state: str | None = None,
    build_timeout: int | None = None,
    by: str = "",
    final_games: int | None = None,
    signup: str | None = None,
    signup_code: str | None = None,
    game: GameChange | None = None,
    shares: dict[str, int] | None = None,
    final: FinalChange | None = None,
    keep_logs_days: int | None = None,
) -> Contest:
    """Move the contest `slug` on to `state` by hand (forward only; freezing records the
    hand-ins), change its build timeout, its final's games per pairing, its final's format
    (`final`), who may sign up, what its games are played with (`game`: from the next game its
    workers schedule), its shares of the workers' slots and/or how long its bot logs are kept:
    all or nothing (a refusal changes nothing)."""
    contest = find_contest(slug)
    asked = (state, build_timeout, final_games, signup, signup_code, shares, keep_logs_days)
    if (
        all(value is None for value in asked)
        and not (game and game.asked())
        and not (final and final.asked())
    ):
        raise ContestError(
            "say what to set: a state (open, frozen, final, closed), --build-timeout SECONDS, "
            "--final-games-per-pairing N, --final-format FORMAT, --final-graded-games K, "
            "--final-ranking-games N, --signup open|code|closed, --ruleset, "
            "--time-per-move, --option, --isolation, --share KIND=N or --keep-logs-days N"
        )
    try:
        with transaction.atomic():
            if game is not None and game.asked():
                set_game_settings(contest, game)
            if shares:
                set_shares(contest, shares)
            if final_games is not None:
                set_final_games(contest, final_games)
            if final is not None and final.asked():
                set_final_format(contest, final)
            if build_timeout is not None:
                set_build_timeout(contest, build_timeout)
            if keep_logs_days is not None:
                set_log_retention(contest, keep_logs_days)
            if signup is not None or signup_code is not None:
                set_signup(contest, signup, signup_code)
            if state is not None:
                set_state(contest, state, by)
    except LifecycleError as exc:
        contest.refresh_from_db()
        raise ContestError(str(exc)) from None
    except ContestError:
        contest.refresh_from_db()
        raise
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
    on_progress: OnProgress = ignore,
    cluster: ClusterOptions | None = None,
    guard: Guard | None = None,
) -> FinalPlayed:
    """Play (or resume) the final tournament of the frozen contest `slug` on this machine, or
    on the Dask `cluster`, watched by `on_progress` and wrapped by `guard` (`final.run_final`)."""
    from tournaments.server.finals.play import run_final
    from tournaments.server.finals.status import final_status

    contest = find_contest(slug)
    status = final_status(contest)
    if status.finished:
        return FinalPlayed(None, status.done)
    try:
        summary = run_final(
            contest,
            concurrency,
            on_progress,
            by=by,
            take_over=take_over,
            cluster=cluster,
            guard=guard,
        )
    except LifecycleError as exc:
        raise ContestError(str(exc)) from None
    return FinalPlayed(summary)


class FinalNotDone(ContestError):
    """Results asked for before the final is played to its end."""


def export_results(
    slug: str, folder: Path, partial: bool = False, ladder_games: bool = False
) -> Exported:
    """The final standings of `slug` as SLUG-standings.csv and the contest (the final's
    database and games, with `ladder_games` the ladder's too) as SLUG-games.tar.gz in `folder`
    (made if need be). Before the final is done: FinalNotDone, or with `partial` the results so
    far, in files named -partial (and marked so in contest.json)."""
    from tournaments.server.finals.export import standings_csv, write_archive
    from tournaments.server.finals.status import final_status

    contest = find_contest(slug)
    status = final_status(contest)
    if not status.finished and not partial:
        raise FinalNotDone(
            f"the final of {slug} is {status.describe()}; export once it is done "
            f"(server contest show {slug}), or with --partial for the standings so far"
        )
    mark = "" if status.finished else "-partial"
    standings = folder / f"{slug}-standings{mark}.csv"
    archive = folder / f"{slug}-games{mark}.tar.gz"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        text = standings_csv(contest)
        games = write_archive(contest, archive, ladder_games)
    except LifecycleError as exc:
        raise ContestError(str(exc)) from None
    standings.write_text(text)
    return Exported(standings, archive, games, not status.finished)
