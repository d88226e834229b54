"""A contest's life as a state machine: draft -> open -> frozen (the deadline) -> final -> closed.

Every step is one conditional update (`state = before` -> `after`, `move`), so when two workers
see the same date only one makes the step; each step is recorded as a `Transition` with who or
what made it. What a step does to the versions (the hand-ins at the freeze, the final) and the
steps made by date are the finals app's (`tournaments.server.finals.lifecycle`), which calls `move`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.server.contests.models import Contest, Extension, Transition


class LifecycleError(ValueError):
    """A transition the contest's state does not allow; the message says what would."""


ORDER = [Contest.DRAFT, Contest.OPEN, Contest.FROZEN, Contest.FINAL, Contest.CLOSED]


def move(contest: Contest, before: str, after: str, by: str, **fields: Any) -> bool:
    """`before` -> `after` if the contest is still `before` (else nothing: another worker or an
    organiser made the step first), recorded with `by`; True when this call made it."""
    with transaction.atomic():
        moved = Contest.objects.filter(pk=contest.pk, state=before).update(state=after, **fields)
        if moved:
            Transition.objects.create(contest=contest, before=before, after=after, by=by)
    if moved:
        contest.state = after
        for name, value in fields.items():
            setattr(contest, name, value)
    return bool(moved)


def when_text(moment: datetime | None) -> str:
    """A date as the messages say it: to the second (students submit in the last minute), UTC."""
    if moment is None:
        return "no date"
    return f"{moment.astimezone(UTC) if moment.tzinfo else moment:%Y-%m-%d %H:%M:%S} UTC"


def submission_refusal(participant: Any, now: datetime | None = None) -> str | None:
    """Why `participant` may not submit now (None: it may): the contest is not open yet, or its
    deadline (the contest's, or its own extension) has passed; the deadline is in the message."""
    contest = Contest.of(participant)
    now = now or timezone.now()
    if participant.staff_bot:
        return None  # the organisers' bars may be entered or replaced at any time before the final
    if contest.state == Contest.DRAFT:
        opens = when_text(contest.opens)
        return f"the contest {contest.label} is not open yet (it opens at {opens})"
    deadline = contest.deadline_for(participant.pk)
    if contest.state in (Contest.FINAL, Contest.CLOSED) or (
        deadline is not None and now >= deadline
    ):
        return (
            f"the submission deadline of {contest.label} was {when_text(deadline)}; "
            f"submissions are closed"
        )
    return None


def extended(contest: Contest, now: datetime) -> set[int]:
    """Participants whose extension has not yet passed."""
    return set(
        Extension.objects.filter(contest=contest, deadline__gt=now).values_list(
            "participant_id", flat=True
        )
    )
