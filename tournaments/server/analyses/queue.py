"""Game analyses on the server: a participant asks for the analysis of a game its bot played
(staff: of any game), within a daily quota; the ladder worker makes them as one kind of its work,
each holding one of its slots for its length, by the contest's share of slot time
(`worker.shares`): a saturated ladder never starves them. Each runs in a process of its own
(`AnalysisProcesses`), at a lower CPU priority than the games' bots, whose clocks run.

The analysis is of the game's public record only (tournaments/domain/analysis): whoever may see the
game may see its analysis.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from referee import lower_priority, niceness
from tournaments.domain.analysis.batch import analyse_record
from tournaments.server.analyses.models import Analysis
from tournaments.server.ladder.models import Game
from tournaments.server.visibility import is_organiser

DAILY_QUOTA = 5  # analyses a user may ask for in 24 hours (settings.ANALYSIS_DAILY_QUOTA)
BUDGET = 2000  # simulations per decision (settings.ANALYSIS_BUDGET): a game in about 10 s
# How much lower the analysis processes run than the ladder worker (settings.ANALYSIS_NICE,
# added to its LADDER_NICE, at most 19 in all): below the bots, whose clocks run.
NICE = 10
STALE = timedelta(hours=1)  # a running analysis older than this was a stopped worker's


class AnalysisRefused(Exception):
    """Why this user may not have this game analysed now (said to them as it is)."""


def daily_quota() -> int:
    return int(getattr(settings, "ANALYSIS_DAILY_QUOTA", DAILY_QUOTA))


def asked_today(user: Any) -> int:
    """How many analyses `user` asked for in the last 24 hours."""
    since = timezone.now() - timedelta(days=1)
    return Analysis.objects.filter(requested_by=user, created__gte=since).count()


def request_analysis(user: Any, game_id: int) -> Analysis:
    """Queue the analysis of game `game_id` for `user`, or return the one already asked for
    (no quota spent). AnalysisRefused: not their game, not finished, or the quota is spent."""
    game = Game.objects.analysable_by(user).filter(pk=game_id).first()
    if game is None:
        raise AnalysisRefused("only a game your bot played can be analysed for you")
    if game.status != Game.DONE or not game.record:
        raise AnalysisRefused("this game has no finished record to analyse")
    with transaction.atomic():
        found = Analysis.objects.filter(game=game).first()
        if found is not None:
            return found
        if not is_organiser(user) and asked_today(user) >= daily_quota():
            raise AnalysisRefused(
                f"you have asked for {daily_quota()} analyses in the last 24 hours, the daily "
                "quota: ask again tomorrow"
            )
        budget = int(getattr(settings, "ANALYSIS_BUDGET", BUDGET))
        return Analysis.objects.create(game=game, requested_by=user, budget=budget)


def waiting(contest_id: int) -> Any:
    """The analyses a worker of contest `contest_id` may claim, oldest first: queued, or left
    running by a stopped worker (older than `STALE`)."""
    stale = timezone.now() - STALE
    mine = Analysis.objects.filter(game__contest_id=contest_id)
    queued = mine.filter(status=Analysis.QUEUED)
    return (queued | mine.filter(status=Analysis.RUNNING, started__lt=stale)).order_by("created")


def claim_next(worker: str, contest_id: int) -> tuple[int, dict[str, Any], int] | None:
    """The oldest analysis waiting in the contest, marked running for `worker`: (its id, the
    game's record, the budget); None when there is none."""
    for job in waiting(contest_id).select_related("game")[:5]:
        claimed = Analysis.objects.filter(pk=job.pk, status=job.status, started=job.started)
        if claimed.update(status=Analysis.RUNNING, started=timezone.now(), worker=worker):
            return job.pk, job.game.record or {}, job.budget
    return None


def finish(analysis_id: int, block: dict[str, Any] | None, error: str = "") -> None:
    """Keep an analysis's block (done) or why it failed."""
    Analysis.objects.filter(pk=analysis_id).update(
        status=Analysis.DONE if block is not None else Analysis.FAILED,
        block=block,
        error=error[:2000],
        finished=timezone.now(),
    )


def release(analysis_id: int, worker: str) -> None:
    """An analysis `worker` stopped making is queued again for the next worker."""
    Analysis.objects.filter(pk=analysis_id, status=Analysis.RUNNING, worker=worker).update(
        status=Analysis.QUEUED, started=None, worker=""
    )


class AnalysisProcesses:
    """The processes analyses run in (`slots` at most at once, each NICE below the worker), made on
    first use: `run(record, budget)` the analysis block; `close()` as the worker stops (an
    analysis cut short is claimed again after `STALE`)."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        """The processes, started on first use at ANALYSIS_NICE below the calling one."""
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            below = int(getattr(settings, "ANALYSIS_NICE", NICE))
            self._pool = ProcessPoolExecutor(
                self.slots, context, lower_priority, (niceness() + below,)
            )
        return self._pool

    async def run(self, record: dict[str, Any], budget: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        block: dict[str, Any] = await loop.run_in_executor(
            self.pool(), analyse_record, record, budget
        )
        return block

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


async def make(
    processes: AnalysisProcesses, job: tuple[int, dict[str, Any], int]
) -> tuple[int, dict[str, Any] | None, str]:
    """Make one claimed analysis: (its id, the block or None, why it failed)."""
    pk, record, budget = job
    try:
        return pk, await processes.run(record, budget), ""
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a record the engine refuses: said on the game page
        return pk, None, f"{type(exc).__name__}: {exc}"
