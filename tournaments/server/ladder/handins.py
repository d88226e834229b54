"""The versions handed in: at the deadline each participant's active version is recorded with
its archive's hash (`HandIn`); a participant with an extension hands in at its own deadline.
The freeze (open -> frozen) records them; the final plays them (`ladder.final`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.server.contests.lifecycle import LifecycleError, extended, move
from tournaments.server.contests.models import Contest, Extension
from tournaments.server.ladder.models import HandIn
from tournaments.server.ladder.standings import active_versions


def hand_in(contest: Contest, at: datetime, participants: Any = None) -> list[HandIn]:
    """Record the active version of each participant (or of `participants`) as handed in at
    `at`; a participant with no version that passed hands in nothing. Idempotent."""
    made = []
    chosen = participants if participants is not None else contest.participants.all()
    for who in chosen:
        if HandIn.objects.filter(contest=contest, participant=who).exists():
            continue
        active = active_versions(who)
        if not active:
            continue
        version = active[0]
        # get_or_create: where two workers hand in at once, the unique row keeps one.
        handin, created = HandIn.objects.get_or_create(
            contest=contest,
            participant=who,
            defaults={"version": version, "sha256": version.sha256, "at": at},
        )
        if created:
            made.append(handin)
    return made


def freeze(contest: Contest, now: datetime | None = None, by: str = "") -> list[HandIn]:
    """open -> frozen: submissions end; every participant without a running extension hands
    in its active version. LifecycleError when the contest is not open."""
    made = freeze_once(contest, now or timezone.now(), by or "an organiser")
    if made is None:
        contest.refresh_from_db()
        raise LifecycleError(
            f"{contest.label} is {contest.state}; only an open contest can be frozen"
        )
    return made


def freeze_once(contest: Contest, now: datetime, by: str) -> list[HandIn] | None:
    """The freeze, or None when the contest was no longer open (someone else froze it)."""
    with transaction.atomic():
        # The conditional update takes the row's write lock first: a second worker's freeze
        # waits for this one's transaction, then finds the contest frozen and does nothing.
        if not move(contest, Contest.OPEN, Contest.FROZEN, by):
            return None
        contest.refresh_from_db()
        if contest.deadline is None or contest.deadline > now:
            contest.deadline = now  # frozen by hand before its date: that is the deadline
            contest.save(update_fields=["deadline"])
        late = extended(contest, now)
        return hand_in(contest, contest.deadline, contest.participants.exclude(pk__in=late))


def extend(
    contest: Contest, participant: Any, deadline: datetime, reason: str = "", granted_by: str = ""
) -> Extension:
    """A later deadline for one participant, recorded with the reason and who granted it."""
    if contest.state in (Contest.FINAL, Contest.CLOSED):
        raise LifecycleError(f"{contest.label} is {contest.state}: too late for an extension")
    if HandIn.objects.filter(contest=contest, participant=participant).exists():
        raise LifecycleError(
            f"{participant.name} has already handed in; an extension must be "
            f"granted before its deadline passes"
        )
    return Extension.objects.create(
        contest=contest,
        participant=participant,
        deadline=deadline,
        reason=reason,
        granted_by=granted_by,
    )


def final_is_due(contest: Contest, now: datetime | None = None) -> bool:
    """A frozen contest whose every extension has passed: its final may start."""
    now = now or timezone.now()
    return contest.state == Contest.FROZEN and not extended(contest, now)
