"""The ladder worker: validates new versions and plays the contest's games, around the clock.

Its `concurrency` slots are shared among the kinds of work by the contest's shares of slot time
(`worker.shares`, what waits: `worker.backlog`): ranked games, challenges, version tests' games
and game analyses. While several kinds wait each gets its share, so a saturated ladder starves
none; a slot no kind with a share can use goes to any kind that can start (work-conserving).

Games are played through the tournament's referee bridge (`tournaments.domain.arena.arena_player`:
one referee `Arena` that keeps each version's bot process warm between games), `concurrency`
at a time. Every database call runs on one thread of its own (Django's ORM is synchronous; one
writer also keeps SQLite's lock short), the games on the event loop, each validation (a whole
`bot check` run, bounded in time: `validation.bounds`) on a thread beside them so it never
holds up the ladder; `validations` of them at once (VALIDATIONS), one per participant.

The contest's game settings (ruleset, options, time, isolation, build timeout) are read at every
pick: when they change, no new game starts, the games in flight end as they began, and the
referee is started again with the new settings for the next game (its row says what it was
played with, as every game's does).

The contest's dates are kept here too (`lifecycle.advance` once a second: it opens, freezes at
its deadline, closes at `closes` once the final is done), and once it is frozen and every
extension has passed the worker plays the final tournament beside its games (awaited in this
process: `final.play_final`, its progress in the logs folder); of several workers, one plays it
(`final.claim_final`), and a final whose worker died, or stopped, is resumed. Every hour it
deletes the bot logs its contest no longer keeps (`ladder.retention`).

Stopping at any moment loses nothing: a game is written (seats, deal) before it is played and
its result and ratings are one transaction after, so a SIGKILL leaves at most the games in
flight `scheduled`, and the next worker plays them again first, on the same deal.

Several workers may serve one contest (`ladder.coordination`): each scheduled game and each
validation is marked with the worker that took it, and another takes it up only once that
worker is gone; games are picked one worker at a time (a lock on the contest's row), with every
version playing at most GAMES_PER_VERSION games at once (`matchmaking`); and a result is
recorded once (`results.record`), so nothing is rated twice even when a game is played twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import threading
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Q

from referee import lower_priority
from tournaments.domain.arena import arena_player, process_cap
from tournaments.domain.compliance import CheckStopped
from tournaments.domain.entries import Entry
from tournaments.domain.progress import ProgressLines
from tournaments.domain.runner import StopRun
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.settings import MatchSettings
from tournaments.server.analyses import queue as analyses
from tournaments.server.contests.lifecycle import LifecycleError
from tournaments.server.contests.models import Contest
from tournaments.server.finals import lifecycle
from tournaments.server.finals import play as final
from tournaments.server.ladder import coordination, logs, results, retention
from tournaments.server.ladder.matchmaking import Candidate, pick_game
from tournaments.server.ladder.models import Game, Seat, queued
from tournaments.server.ladder.standings import active_versions
from tournaments.server.submissions import validation
from tournaments.server.submissions.models import Version
from tournaments.server.versiontests import runs as versiontests
from tournaments.server.worker import backlog
from tournaments.server.worker.shares import ANALYSIS, CHALLENGE, RANKED, TEST, SlotShares

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class WorkerStats:
    played: int = 0
    infrastructure_failures: int = 0
    validated: int = 0
    errors: list[str] = field(default_factory=list)
    finals: int = 0  # final tournaments this worker started or resumed and saw to their end
    recorded_elsewhere: int = 0  # games it played that were recorded (or cancelled) meanwhile
    analysed: int = 0  # game analyses made


@dataclass
class _Work:
    """What the worker has under way: the games in flight (each with what it plays), the
    analyses made, the validations running, and the specs of the versions seated so far (by
    entry name)."""

    games: dict[asyncio.Task[Any], _Next] = field(default_factory=dict)
    analyses: dict[asyncio.Task[Any], _Job] = field(default_factory=dict)
    validating: set[asyncio.Task[Any]] = field(default_factory=set)
    specs: dict[str, str] = field(default_factory=dict)


@dataclass
class _Next:
    """A game to play, and what its slot was charged (`SlotShares.started`)."""

    game_id: int
    seats: tuple[str, ...]
    seed: int
    specs: dict[str, str]
    versions: tuple[int, ...]
    kind: str = RANKED
    charged: float = 0.0
    began: float = field(default_factory=time.monotonic)


KIND_OF_GAME = {Game.LADDER: RANKED, Game.CHALLENGE: CHALLENGE, Game.TEST: TEST}


@dataclass
class _Job:
    """An analysis claimed: (its id, the game's record, the budget), and its slot's charge."""

    claimed: tuple[int, dict[str, Any], int]
    kind: str = ANALYSIS
    charged: float = 0.0
    began: float = field(default_factory=time.monotonic)


def _next_of(game: Game, versions: Sequence[Version] | None = None) -> _Next:
    """What playing `game` needs; `versions` are its seats' when the caller has them (a game
    just scheduled), else they are read."""
    if versions is None:
        versions = [s.version for s in results.seats_of(game)]
    return _Next(
        game.pk,
        tuple(v.entry_name for v in versions),
        game.seed,
        {v.entry_name: v.spec() for v in versions},
        tuple(v.pk for v in versions),
    )


class LadderWorker:
    """`run()` until stopped (SIGTERM, SIGINT, `stop()`) or, with `max_games`, until that many
    games are recorded and no upload waits for validation."""

    def __init__(  # noqa: PLR0913  # keyword-only options, each with a default
        self,
        concurrency: int = 2,
        isolation: str | None = None,
        max_games: int | None = None,
        poll: float = 0.5,
        validate: bool = True,
        log_dir: Path | None = None,
        rng: random.Random | None = None,
        on_game: Callable[[int], None] | None = None,
        cluster: Any = None,
        contest: str | None = None,
        validations: int | None = None,
        nice: int | None = None,
    ) -> None:
        self.concurrency = max(1, concurrency)
        # The CPU niceness it runs at, and with it its games, validations and analyses
        # (settings.LADDER_NICE): below the web site beside it on the same machine.
        self.nice = settings.LADDER_NICE if nice is None else nice
        # Versions validated at once (settings.VALIDATIONS), stopped together as it stops.
        self.validations = max(1, validations or settings.VALIDATIONS)
        self._stop_validations = threading.Event()
        self.isolation = isolation
        self.max_games = max_games
        self.poll = poll
        self.validate = validate
        self.log_dir = log_dir or Path(settings.HOME) / "logs"
        self.rng = rng or random.Random()
        self.on_game = on_game
        self.cluster = cluster  # tournaments.domain.cluster.ClusterOptions: games on Dask workers
        self.stats = WorkerStats()
        self.contest_slug = contest  # the contest it serves (None: the default one)
        self._contest_id: int | None = None
        self._stopping: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._db = ThreadPoolExecutor(1, thread_name_prefix="ladder-db")
        self.name = coordination.runner_name()  # on its games, validations and beats
        self.by = f"ladder worker {self.name}"  # in the contest's transitions
        self._next_beat = 0.0
        self._next_dates = 0.0  # monotonic time of the next look at the contest's dates
        # The workers alive at the last beat; one missing from it is looked for again before
        # its games are taken (it may have just started).
        self._live: set[str] = set()
        self._final: asyncio.Task[Any] | None = None
        self.shares = SlotShares()  # the contest's shares, read at every pick
        self._analyses = analyses.AnalysisProcesses(self.concurrency)
        # The settings the referee plays with now, and whether the contest's have changed since
        # (then no game starts until the games in flight end and the referee starts anew).
        self._settings: MatchSettings | None = None
        self._changed = False
        self._final_check = 0.0  # monotonic time of the next look at the contest's final
        # The contest's old logs deleted (ladder.retention) on a thread of its own: thousands
        # of files would hold up the database thread, and with it every game's result.
        self._pruning: asyncio.Future[None] | None = None
        self._next_prune = 0.0

    @property
    def contest_id(self) -> int:
        """The id of the contest it serves, known once it runs."""
        if self._contest_id is None:
            raise RuntimeError("the ladder worker has not started: no contest yet")
        return self._contest_id

    def stop(self) -> None:
        if self._stopping is not None:
            self._stopping.set()

    def stop_from_thread(self) -> None:
        """`stop()` from another thread (a benchmark or a test driving the worker)."""
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)

    async def _db_call(self, fn: Callable[..., T], *args: Any) -> T:
        def call() -> T:
            close_old_connections()
            return fn(*args)

        return await asyncio.get_running_loop().run_in_executor(self._db, call)

    # -- database side (the db thread) ---------------------------------------------------------
    def _beat(self) -> None:
        coordination.beat(self.name)
        validation.requeue_interrupted(self._refresh_live())

    def _refresh_live(self) -> set[str]:
        """The workers alive now (this one included), kept for the picks until the next beat."""
        self._live = coordination.live_workers() | {self.name}
        return self._live

    def _watch_contest(self) -> None:
        """Once a second: the contest's dates kept, a change of its settings seen, and each
        version that passed given its automatic test (then a test kind of work waits)."""
        contest = Contest.objects.get(pk=self.contest_id)
        lifecycle.advance(contest, by=self.by)
        self._see_settings(contest)
        if contest.state == Contest.OPEN and contest.version_test_games >= 2:
            versiontests.ensure_automatic(contest)

    def _see_settings(self, contest: Contest) -> bool:
        """Whether the referee plays with the contest's settings; if not, say so once."""
        if self._settings is None or contest.match_settings(self.isolation) == self._settings:
            return True
        if not self._changed:
            self._changed = True
            log.info(
                "%s's game settings changed (now %s, %s s a move): the games in flight end as "
                "they began, the next start with the new settings",
                contest.label,
                contest.ruleset,
                contest.time_per_move,
            )
        return False

    def _resume(self) -> int:
        self._beat()
        return len(results.unfinished())

    def _pick(self, busy: frozenset[int], flying: frozenset[int]) -> _Next | _Job | None:
        live = self._live
        with transaction.atomic():
            # One worker at a time picks for a contest: the contest's row is locked (PostgreSQL;
            # SQLite's transactions take the database's write lock as they begin), and read
            # under that lock, so a freeze, a pause or new settings made meanwhile are seen.
            contest = Contest.objects.select_for_update().get(pk=self.contest_id)
            self.shares.set_shares(contest.shares())
            current = self._see_settings(contest)
            # A scheduled game not in flight here and whose worker is gone (a stopped worker's,
            # an infrastructure failure's, one an organiser requeued) is played (again) first,
            # same deal; taking it is a conditional update. A challenge no worker has taken yet
            # waits for its kind's turn. (Another live worker's scheduled games are being
            # played there.)
            scheduled = Game.objects.filter(queued(), contest_id=self.contest_id)
            orphans = list(
                scheduled.exclude(pk__in=flying)
                .exclude(worker__in=live - {self.name})
                .order_by("pk")[:100]
            )
            if any(o.worker and o.worker != self.name for o in orphans):
                # A worker not seen alive a moment ago may have just started: asked again
                # before its games are taken from it.
                live = self._refresh_live()
                orphans = [o for o in orphans if o.worker not in live or o.worker == self.name]
            # The versions seated in scheduled games, by game, in one read: an orphan's own, and
            # those playing now (in a game in flight here, or in one a live worker holds: one it
            # is playing), which are not seated again. An orphan with a version playing waits,
            # and keeps its versions for itself: first asked, first played.
            by_game: dict[int, set[int]] = {}
            playing, waiting = set(busy), set()
            for game_id, worker, version_id in Seat.objects.filter(
                queued("game__"), game__contest_id=self.contest_id
            ).values_list("game_id", "game__worker", "version_id"):
                by_game.setdefault(game_id, set()).add(version_id)
                if worker in live and worker != self.name:
                    playing.add(version_id)
            challenge = None
            for orphan in orphans:
                its_versions = by_game.get(orphan.pk, set())
                if its_versions & playing:
                    playing |= its_versions
                    waiting |= its_versions
                elif not orphan.worker and orphan.kind == Game.CHALLENGE:
                    challenge = challenge or orphan
                elif current and self._take(orphan, contest):
                    # Charged to its kind's share (a test pair's second game, say).
                    resumed = _next_of(orphan)
                    resumed.kind = KIND_OF_GAME[orphan.kind]
                    resumed.charged = self.shares.started(resumed.kind)
                    return resumed
            kinds = backlog.kinds_waiting(contest) if current else {ANALYSIS}
            for kind in self.shares.order(kinds):
                picked: _Next | _Job | None
                if kind == ANALYSIS:
                    job = analyses.claim_next(self.name, contest.pk)
                    picked = None if job is None else _Job(job)
                elif kind == CHALLENGE:
                    taken = challenge is not None and self._take(challenge, contest)
                    picked = _next_of(challenge) if taken and challenge else None
                elif kind == TEST:
                    seated = set(busy).union(playing, *by_game.values())
                    spare = versiontests.next_game(contest, seated, self.name, self.rng)
                    picked = None if spare is None else _next_of(*spare)
                else:
                    picked = self._ranked(contest, by_game, waiting)
                if picked is not None:
                    picked.kind, picked.charged = kind, self.shares.started(kind)
                    return picked
            return None

    def _take(self, game: Game, contest: Contest) -> bool:
        """Take a scheduled game for this worker (a conditional update: another worker may
        take it first); it is stamped with the settings it will be played with, the
        contest's now."""
        return bool(
            Game.objects.filter(pk=game.pk, status=Game.SCHEDULED, worker=game.worker).update(
                worker=self.name,
                ruleset=contest.ruleset,
                time_per_move=contest.time_per_move,
                options=contest.options(),
            )
        )

    def _ranked(
        self, contest: Contest, by_game: dict[int, set[int]], waiting: set[int]
    ) -> _Next | None:
        """The next ranked game, scheduled here; None when no pairing can start now."""
        chosen, versions = self._match(contest, by_game, waiting)
        if chosen is None:
            return None
        seated = [versions[c.version] for c in chosen]
        game = results.schedule(contest, seated, worker=self.name)
        return _next_of(game, seated)

    def _match(
        self, contest: Contest, by_game: dict[int, set[int]], waiting: set[int]
    ) -> tuple[list[Candidate] | None, dict[int, Version]]:
        """The versions of the next ranked game (`matchmaking.pick_game`), and the active
        versions by id. A version plays at most GAMES_PER_VERSION games at once, counting every
        scheduled game it is seated in (here or at another worker); one an orphan or a
        challenge waits for (`waiting`) starts no new game, so that one is played first."""
        in_play: dict[int, int] = {}
        for seated in by_game.values():
            for version_id in seated:
                in_play[version_id] = in_play.get(version_id, 0) + 1
        versions = {v.pk: v for v in active_versions(contest=contest)}
        candidates = [
            Candidate(
                v.pk,
                v.participant_id,
                v.standing.mu,
                v.standing.games,
                v.standing.last_game,
                v.standing.sigma,
                in_play.get(v.pk, 0),
            )
            for v in versions.values()
        ]
        chosen = pick_game(
            candidates,
            contest.players,
            self.rng,
            frozenset(waiting),
            met=lambda version: results.opponents_met(contest, version),
            per_version=settings.GAMES_PER_VERSION,
        )
        return chosen, versions

    async def _housekeeping(self) -> None:
        """Between picks: say it is alive, keep the contest's dates, start or resume the
        final, delete the logs the contest no longer keeps."""
        if time.monotonic() >= self._next_beat:
            self._next_beat = time.monotonic() + coordination.BEAT_SECONDS
            await self._db_call(self._beat)
        if time.monotonic() >= self._next_dates:
            # Once a second, not at every pick: a look is a few queries, and a game can take
            # less than that.
            self._next_dates = time.monotonic() + 1.0
            await self._db_call(self._watch_contest)
        await self._final_step()
        if time.monotonic() >= self._next_prune and (self._pruning is None or self._pruning.done()):
            self._next_prune = time.monotonic() + retention.PRUNE_EVERY_SECONDS
            self._pruning = asyncio.ensure_future(asyncio.to_thread(self._prune_logs))

    def _prune_logs(self) -> None:
        """The contest's rule of keeping logs applied (on its own thread and connection)."""
        try:
            pruned = retention.prune(Contest.objects.get(pk=self.contest_id))
        except Exception as exc:  # a log the worker cannot delete must not stop its games
            log.warning("deleting old logs failed: %s", exc)
            return
        finally:
            connection.close()  # this thread's own, opened for this hour's look
        if pruned.games or pruned.process_logs:
            log.info(
                "logs older than %d days deleted: %d games' (%d files), %d process logs",
                pruned.keep_logs_days,
                pruned.games,
                pruned.seat_logs,
                pruned.process_logs,
            )

    # -- the final tournament, awaited beside the games ------------------------------------------
    async def _final_step(self) -> None:
        done = self._final
        if done is not None and not done.done():
            return
        self._final = None
        if done is not None and not done.cancelled() and done.exception() is not None:
            # It could not run (a log folder gone, an entry that cannot start).
            self._final_failed(f"the final could not run: {done.exception()!r}")
        if time.monotonic() < self._final_check:
            return
        self._final_check = time.monotonic() + max(self.poll, 1.0)
        slug = await self._db_call(self._final_wanted)
        if slug is not None:
            self._final = asyncio.ensure_future(self._play_final(slug))

    def _final_wanted(self) -> str | None:
        """The contest's slug when its final should be started or resumed here: by the
        contest's rule (`final.final_wanted`), or it is this worker's own, claimed and not
        playing (this is asked only when no final plays here): it stopped, and is resumed."""
        contest = Contest.objects.get(pk=self.contest_id)
        if not contest.slug:
            return None
        if contest.state == Contest.FINAL and contest.final_runner == self.name:
            return None if final.final_done(contest) else contest.slug
        return contest.slug if final.final_wanted(contest) else None

    def _claim_final(self) -> final.ClaimedFinal:
        contest = Contest.objects.get(pk=self.contest_id)
        return final.start_final(contest, f"{self.by}, the contest's dates", take_over=False)

    async def _play_final(self, slug: str) -> None:
        """Claim and play the final in this process, its progress in logs/final-SLUG.log.
        Cancelled (the worker stops), its games so far are kept and the games in flight stay
        pending: the next worker (or `server contest final`) resumes it."""
        log_path = self.log_dir / f"final-{slug}.log"
        log.info("the final of %s starts (its output: %s)", slug, log_path)
        with log_path.open("a", encoding="utf-8") as out:

            def write(text: str) -> None:
                print(text, file=out, flush=True)

            try:
                claimed = await self._db_call(self._claim_final)
            except LifecycleError as exc:
                # Not yet possible (too few hand-ins), or another process plays it.
                write(str(exc))
                self._final_failed(f"the final of {slug} stopped: {exc}")
                return
            # On the ladder's cluster when it has one, as its games are.
            summary = await final.play_final(
                claimed, self.concurrency, ProgressLines(write), cluster=self.cluster
            )
            write(
                f"final of {slug}: {summary.played} games played, {summary.failed} failed; "
                f"its results: server export-results {slug}"
            )
        if summary.failed or summary.aborted:
            why = summary.aborted or f"{summary.failed} games failed"
            self._final_failed(f"the final of {slug} stopped: {why}")
            return
        self.stats.finals += 1
        log.info("the final of %s is played", slug)
        self._final_check = 0.0  # its close (at `closes`) is looked at at once

    def _final_failed(self, why: str) -> None:
        """Said, and looked at again in a minute rather than at every turn of the loop."""
        self._final_check = time.monotonic() + 60
        self.stats.errors.append(why)
        log.warning("%s", why)

    # -- the loop ------------------------------------------------------------------------------
    async def run(self) -> WorkerStats:
        """Validate and play until stopped (or `max_games` are played); its statistics."""
        # This thread, and so every thread and process started from it (the referee's bots,
        # the validations, the database's thread, the analyses), below the web site.
        lower_priority(self.nice)
        self._stopping = asyncio.Event()
        self._stop_validations.clear()
        loop = self._loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.stop)
        contest = await self._db_call(Contest.named, self.contest_slug)
        self._contest_id = contest.pk
        left = await self._db_call(self._resume)
        if left:
            log.info("resuming: %d games a stopped worker left unfinished are played again", left)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        work = _Work()
        try:
            done = False
            while not done and not self._stopping.is_set():
                # The referee plays with the contest's settings of now; when they change, the
                # games in flight end and it starts again with the new ones.
                contest = await self._db_call(Contest.objects.get, Q(pk=self.contest_id))
                self._settings, self._changed = contest.match_settings(self.isolation), False
                cap = process_cap(32, contest.players, self.concurrency)
                async with self._player(self._settings, cap, contest.players, work.specs) as play:
                    while not self._stopping.is_set() and not (self._changed and not work.games):
                        done = await self._turn(play, work)
                        if done:
                            break
        finally:
            await self._wind_down(work)
        return self.stats

    async def _turn(self, play: Callable[[ScheduledGame], Awaitable[Any]], work: _Work) -> bool:
        """One turn of the loop: start what can start, wait for something to end (or `poll`),
        account for it. True when the worker has done what `max_games` asked."""
        await self._housekeeping()
        while self.validate and len(work.validating) < self.validations:
            started = await self._start_validation()
            if started is None:
                break
            work.validating.add(started)
        nothing_to_validate = not work.validating
        in_flight = work.games
        while len(in_flight) + len(work.analyses) < self.concurrency and not self._enough(
            in_flight
        ):
            busy = frozenset(v for n in in_flight.values() for v in n.versions)
            flying = frozenset(n.game_id for n in in_flight.values())
            nxt = await self._db_call(self._pick, busy, flying)
            if nxt is None:
                break
            if isinstance(nxt, _Job):
                work.analyses[asyncio.ensure_future(analyses.make(self._analyses, nxt.claimed))] = (
                    nxt
                )
                continue
            work.specs.update(nxt.specs)
            sched = ScheduledGame(nxt.game_id, str(nxt.game_id), nxt.seats, nxt.seed, 0, 0, 0)
            in_flight[asyncio.ensure_future(play(sched))] = nxt
        assert self._stopping is not None
        waiting: set[asyncio.Future[Any]] = set(in_flight) | set(work.analyses) | work.validating
        stop = asyncio.ensure_future(self._stopping.wait())
        done, _ = await asyncio.wait(
            waiting | {stop}, timeout=self.poll, return_when=asyncio.FIRST_COMPLETED
        )
        stop.cancel()
        for task in [t for t in work.validating if t.done()]:
            work.validating.discard(task)
            self._validation_done(task)
        for task in [t for t in done if t in in_flight]:
            await self._finish(in_flight.pop(task), task)
        for task in [t for t in done if t in work.analyses]:
            await self._analysed(work.analyses.pop(task), task)
        # With max_games (tests, benchmarks): stop once they are played, no upload is waiting
        # for validation, no analysis is being made and no final is being played.
        return (
            self.max_games is not None
            and self.stats.played >= self.max_games
            and not in_flight
            and not work.analyses
            and nothing_to_validate
            and (self._final is None or self._final.done())
        )

    async def _analysed(self, job: _Job, task: asyncio.Task[Any]) -> None:
        self.shares.finished(job.kind, time.monotonic() - job.began, job.charged)
        if task.cancelled():
            return
        pk, block, error = task.result()
        await self._db_call(analyses.finish, pk, block, error)
        self.stats.analysed += 1

    async def _wind_down(self, work: _Work) -> None:
        """Stop the final, the games and the validations; leave the workers' list."""
        if self._final is not None and not self._final.done():
            self._final.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._final
        for task in work.games:
            task.cancel()  # still `scheduled` in the database: the next worker replays it
        for task, job in work.analyses.items():
            task.cancel()
            with contextlib.suppress(Exception):  # queued again for the next worker
                await self._db_call(analyses.release, job.claimed[0], self.name)
        self._analyses.close()
        if self._pruning is not None:  # a thread: it ends its deletions
            await asyncio.gather(self._pruning, return_exceptions=True)
        # A validation thread cannot be cancelled: told to stop, it ends its bots and builds
        # and its version waits again (a killed worker's: `requeue_interrupted`).
        self._stop_validations.set()
        await asyncio.gather(*work.validating, return_exceptions=True)
        with contextlib.suppress(Exception):  # a database gone is no reason to hang
            await self._db_call(coordination.leave, self.name)
        self._db.shutdown(wait=True)

    @contextlib.asynccontextmanager
    async def _player(
        self, game_settings: MatchSettings, cap: int, players: int, specs: dict[str, str]
    ) -> AsyncIterator[Any]:
        """The `play(game)` coroutine: this machine's referee Arena, or the Dask cluster's
        workers (`cluster`) with the versions' files shipped to them, as `tournament run
        --cluster` plays."""

        def entry_of(name: str) -> Entry | None:  # a version joins as it is first seated
            spec = specs.get(name)
            return None if spec is None else Entry(name, spec)

        if self.cluster is None:
            async with arena_player(
                [],
                game_settings,
                log_dir=self.log_dir,
                max_processes=cap,
                entry_of=entry_of,
                seat_logs=logs.seat_logs,  # a game's own files, by its id and seat
            ) as play:
                yield play
            return
        from tournaments.domain.cluster import cluster_player

        async with cluster_player(
            [], game_settings, self.cluster, players, entry_of=entry_of, seat_logs=logs.seat_logs
        ) as remote:
            self.concurrency = max(self.concurrency, remote.concurrency)
            log.info("ladder games on the cluster: %s", remote.describe())
            yield remote.play

    def _enough(self, in_flight: dict[asyncio.Task[Any], _Next]) -> bool:
        return self.max_games is not None and self.stats.played + len(in_flight) >= self.max_games

    async def _start_validation(self) -> asyncio.Task[Any] | None:
        version = await self._db_call(validation.claim_next, self.name)
        if version is None:
            return None
        log.info("validating %s", version)

        def run() -> Any:
            try:
                return validation.validate(version, self.isolation, self._stop_validations)
            finally:
                close_old_connections()

        return asyncio.ensure_future(asyncio.to_thread(run))

    def _validation_done(self, task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if isinstance(exc, CheckStopped):
            return  # the worker stops: the version waits again
        if exc is not None:
            self.stats.errors.append(str(exc))
            log.error("%s", exc)
        else:
            self.stats.validated += 1

    async def _finish(self, nxt: _Next, task: asyncio.Task[Any]) -> None:
        began = time.monotonic()
        self.shares.finished(nxt.kind, began - nxt.began, nxt.charged)
        if task.cancelled():
            return
        exc = task.exception()
        if isinstance(exc, StopRun):
            # The cluster is gone: the game stays scheduled for the next start; stop.
            self.stats.errors.append(f"game {nxt.game_id}: {exc}")
            log.error("the cluster can play no more games (%s); stopping", exc)
            self.stop()
            return
        if exc is not None:
            # Not a bot's doing (a bot's faults are in the result, not raised): never rated.
            error = "".join(traceback.format_exception(exc))
            status = await self._db_call(results.infrastructure_failure, nxt.game_id, error)
            self.stats.infrastructure_failures += 1
            self.stats.errors.append(f"game {nxt.game_id}: {exc}")
            log.warning("game %d failed (%s), not rated; now %s", nxt.game_id, exc, status)
            return
        if await self._db_call(results.record, nxt.game_id, task.result()):
            self.stats.played += 1
            if self.on_game is not None:
                self.on_game(nxt.game_id)
        else:
            self.stats.recorded_elsewhere += 1  # another worker took it over, or it was cancelled
        log.debug("game %d stored in %.3f s", nxt.game_id, time.monotonic() - began)
