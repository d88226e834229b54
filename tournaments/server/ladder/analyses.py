"""Game analyses on the server: a participant asks for the analysis of a game its bot played
(staff: of any game), within a daily quota; the ladder worker makes them one at a time in its
spare capacity, in a process of its own at the lowest CPU priority, so ranked games are never
slowed (`IdleAnalyses`, which the worker's loop starts when it has no game to start).

The analysis is of the game's public record only (tournaments/analysis): whoever may see the
game may see its analysis.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournaments.analysis.batch import analyse_record, lower_priority
from tournaments.server.ladder.models import Analysis, Game
from tournaments.server.visibility import is_organiser

DAILY_QUOTA = 5  # analyses a user may ask for in 24 hours (settings.ANALYSIS_DAILY_QUOTA)
BUDGET = 2000  # simulations per decision (settings.ANALYSIS_BUDGET): a game in about 10 s
NICE = 19  # the analysis process's niceness (settings.ANALYSIS_NICE): the lowest priority
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


def claim_next(worker: str) -> tuple[int, dict[str, Any], int] | None:
    """The oldest queued analysis (or one a stopped worker left running), marked running for
    `worker`: (its id, the game's record, the budget); None when there is none."""
    stale = timezone.now() - STALE
    waiting = Analysis.objects.filter(status=Analysis.QUEUED) | Analysis.objects.filter(
        status=Analysis.RUNNING, started__lt=stale
    )
    for job in waiting.order_by("created").select_related("game")[:5]:
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


DbCall = Callable[..., Awaitable[Any]]


class IdleAnalyses:
    """One analysis at a time in a process of its own: `start(db_call, worker)` from the
    worker's loop whenever it has a free slot (a no-op while one runs); `close()` as it stops
    (an analysis cut short is claimed again after `STALE`)."""

    def __init__(self) -> None:
        self.task: asyncio.Task[Any] | None = None
        self._pool: ProcessPoolExecutor | None = None

    def start(self, db_call: DbCall, worker: str) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run_one(db_call, worker))

    async def run_one(self, db_call: DbCall, worker: str) -> bool:
        """Claim and make one analysis; False when none was waiting."""
        job = await db_call(claim_next, worker)
        if job is None:
            return False
        pk, record, budget = job
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            nice = int(getattr(settings, "ANALYSIS_NICE", NICE))
            self._pool = ProcessPoolExecutor(1, context, lower_priority, (nice,))
        loop = asyncio.get_running_loop()
        try:
            block = await loop.run_in_executor(self._pool, analyse_record, record, budget)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a record the engine refuses: said on the game page
            await db_call(finish, pk, None, f"{type(exc).__name__}: {exc}")
            return True
        await db_call(finish, pk, block)
        return True

    def close(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
