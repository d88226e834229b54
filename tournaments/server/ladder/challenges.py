"""Challenges: an unranked game a participant asks for against named opponents.

The game is scheduled at once with each side's active version; the ladder worker plays
scheduled games first, so it comes within a game or two. It is recorded like any game (its
page, replay and logs) but never rated (`results.record` rates ladder games only). Each
participant may ask for `challenge_quota` of them in 24 hours.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.server.contests.models import Contest, Participant
from tournaments.server.ladder import results
from tournaments.server.ladder.models import Game
from tournaments.server.ladder.standings import active_versions


class ChallengeError(ValueError):
    """A challenge refused; the message says why."""


def used_today(participant: Participant, now: datetime | None = None) -> int:
    """Challenges `participant` asked for in the last 24 hours (the quota's count)."""
    now = now or timezone.now()
    return Game.objects.filter(
        kind=Game.CHALLENGE, requested_by=participant, created__gt=now - timedelta(days=1)
    ).count()


@transaction.atomic
def challenge(participant: Participant, opponents: list[str], now: datetime | None = None) -> Game:
    """Schedule an unranked game of `participant` against the participants named."""
    # The quota is counted and the game made in one transaction, with the participant's row
    # locked (PostgreSQL; SQLite's write transactions take the database's lock): two requests
    # at once cannot both pass the count.
    Participant.objects.select_for_update().filter(pk=participant.pk).first()
    contest = Contest.of(participant)
    now = now or timezone.now()
    if contest.state != Contest.OPEN:
        raise ChallengeError(
            f"{contest.label} is {contest.state}: challenges are played while it is open"
        )
    if len(opponents) != contest.players - 1:
        raise ChallengeError(
            f"a {contest.players}-player game needs {contest.players - 1} "
            f"opponent(s), not {len(opponents)}"
        )
    if participant.name in opponents or len(set(opponents)) != len(opponents):
        raise ChallengeError("name each opponent once, and not yourself")
    used = used_today(participant, now)
    if used >= contest.challenge_quota:
        raise ChallengeError(
            f"{participant.name} has asked for {used} challenges in the last 24 "
            f"hours, the contest's limit is {contest.challenge_quota}"
        )
    seats: list[Any] = []
    for name in [participant.name, *opponents]:
        who = Participant.objects.filter(name=name, contest=contest).first()
        if who is None:
            raise ChallengeError(f"no participant {name!r} in {contest.label}")
        active = active_versions(who)
        if not active:
            raise ChallengeError(f"{name} has no version that passed validation to play")
        seats.append(active[0])
    return results.schedule(contest, seats, kind=Game.CHALLENGE, requested_by=participant)
