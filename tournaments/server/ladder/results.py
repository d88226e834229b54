"""A ranked game's life in the database: scheduled before it is played, then either its result
and every seat's new rating in one transaction (`record`), or an infrastructure failure that is
never rated (`infrastructure_failure`: back to scheduled, or failed after too many attempts)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from referee import Termination
from tournaments.domain.ratings import Ratings, make_env
from tournaments.domain.store import GameOutcome
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game, Seat, Standing, queued
from tournaments.server.paths import hide_in
from tournaments.server.submissions.models import Version

MAX_ATTEMPTS = 3
SUSPEND_WINDOW = 10  # the last games looked at
SUSPEND_AFTER = 4  # games played before a version can be suspended
_ENV = make_env()


def schedule(
    contest: Contest,
    versions: Sequence[Version],
    kind: str = Game.LADDER,
    requested_by: Any = None,
    worker: str = "",
    seed: int | None = None,
    version_test: Any = None,
) -> Game:
    """A new game row with its seats and deal seed (a new one unless given: the two games of a
    version test's duplicate pair share theirs), written before it is played."""
    with transaction.atomic():
        game = Game.objects.create(
            contest=contest,
            kind=kind,
            requested_by=requested_by,
            worker=worker,
            version_test=version_test,
            ruleset=contest.ruleset,
            time_per_move=contest.time_per_move,
            options=contest.options(),
            seed=secrets.randbelow(2**31) if seed is None else seed,
        )
        Seat.objects.bulk_create(
            [Seat(game=game, seat=i, version=v) for i, v in enumerate(versions)]
        )
    return game


def settings_changed(contest: Contest) -> tuple[bool, Game | None]:
    """Whether an earlier game of `contest` was played with other settings than its own of now
    (ruleset, options, time a move), and if so the first game played with these (None: none
    yet: the next game its workers schedule)."""
    games = Game.objects.filter(contest=contest)
    other = (
        games.exclude(
            ruleset=contest.ruleset,
            time_per_move=contest.time_per_move,
            options=contest.options(),
        )
        .order_by("-pk")
        .first()
    )
    if other is None:
        return False, None
    return True, games.filter(pk__gt=other.pk).order_by("pk").first()


def record(game_id: int, outcome: GameOutcome) -> bool:
    """Store a played game and rate it, all in one transaction; False (and nothing changed)
    when it was already recorded (a second worker, or a replay after a kill that came after
    the commit)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.SCHEDULED:
            return False
        seats = list(game.seats.select_related("version").order_by("seat"))
        standings = {
            s.version_id: s
            for s in Standing.objects.select_for_update().filter(
                version_id__in=[s.version_id for s in seats]
            )
        }
        names = [str(s.version_id) for s in seats]
        ratings = Ratings(names)
        for s in seats:
            st = standings[s.version_id]
            ratings.ratings[str(s.version_id)] = _ENV.create_rating(mu=st.mu, sigma=st.sigma)
        ranks = [o.rank for o in outcome.seats]
        # A challenge is never rated: its seats keep their ratings as they were.
        ranked = game.kind == Game.LADDER
        rated = ratings.update(str(game.pk), names, ranks) if ranked else False
        now = timezone.now()
        for s, o in zip(seats, outcome.seats, strict=True):
            st = standings[s.version_id]
            s.score, s.rank, s.termination = o.score, o.rank, o.termination
            s.moves, s.move_time, s.cpu_time = o.moves, o.move_time, o.cpu_time
            s.log = o.log
            s.mu_before, s.sigma_before = st.mu, st.sigma
            new = ratings.rating(str(s.version_id))
            s.mu_after, s.sigma_after = float(new.mu), float(new.sigma)
            s.save()
            if not ranked:
                continue
            st.mu, st.sigma = s.mu_after, s.sigma_after
            st.games += 1
            st.wins += int(o.rank == 1)
            st.last_game = now
            st.save()
        game.status, game.rated, game.finished = Game.DONE, rated, now
        game.duration = outcome.duration
        game.record = public_record(outcome.record, [s.version.entry_name for s in seats])
        if outcome.machine is not None:
            game.host, game.isolation = outcome.machine.host, outcome.machine.isolation
        game.attempts += 1
        game.save()
        suspend_faulty(
            [
                s.version_id
                for s, o in zip(seats, outcome.seats, strict=True)
                if o.termination != Termination.OK
            ]
        )
    return True


def suspend_faulty(version_ids: Sequence[int]) -> None:
    """Suspend a version whose bot faulted (crash, timeouts, illegal moves: any termination
    but ok) in most of its last SUSPEND_WINDOW games; its owner sees why on its page."""
    for vid in version_ids:
        last = list(
            Seat.objects.filter(version_id=vid, game__status=Game.DONE)
            .order_by("-game_id")
            .values_list("termination", flat=True)[:SUSPEND_WINDOW]
        )
        bad = [t for t in last if t != Termination.OK]
        if len(last) >= SUSPEND_AFTER and len(bad) * 2 > len(last):
            Version.objects.filter(pk=vid, suspended="").update(
                suspended=f"its bot faulted in {len(bad)} of its last {len(last)} games "
                f"({', '.join(sorted(set(bad)))}); submit a fixed version"
            )


def public_record(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The game record as the public game page shows it: seats named by participant and
    version, and no path of the server's (the referee names entries by their files)."""
    public = dict(hide_in(record))
    if isinstance(public.get("referee"), dict):
        public["referee"]["entries"] = list(names)
    public["players"] = list(names)
    return public


def infrastructure_failure(game_id: int, error: str) -> str:
    """A game that failed for a reason that is not a bot's: never rated; scheduled again
    (same seats, same deal) until MAX_ATTEMPTS, then failed. Returns its new status. The game
    is no longer any worker's: a scheduled game a live worker holds is one it is playing."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.SCHEDULED:
            return str(game.status)
        game.attempts += 1
        game.error = error[-2000:]
        game.worker = ""
        if game.attempts >= MAX_ATTEMPTS:
            game.status, game.finished = Game.FAILED, timezone.now()
        game.save(update_fields=["attempts", "error", "worker", "status", "finished"])
        return str(game.status)


def unfinished() -> list[Game]:
    """Games scheduled and not yet recorded: a killed worker's, to be played again."""
    return list(Game.objects.filter(queued()).order_by("pk"))


def opponents_met(contest: Contest, version_id: int) -> dict[int, int]:
    """How many ranked games of `contest` the version met each other version in (those played
    and those scheduled: the matchmaking's spread rule counts a game from the moment it is
    picked). One query over the version's own games (the seat_version_game index)."""
    rows = (
        Seat.objects.filter(
            game__contest=contest,
            game__kind=Game.LADDER,
            game__status__in=(Game.DONE, Game.SCHEDULED),
            game__seats__version_id=version_id,
        )
        .exclude(version_id=version_id)
        .values("version_id")
        .annotate(n=Count("pk"))
    )
    return {r["version_id"]: r["n"] for r in rows}


def seats_of(game: Game) -> list[Any]:
    return list(game.seats.select_related("version__participant").order_by("seat"))
