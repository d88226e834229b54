"""A contest's life: draft -> open -> frozen (the deadline) -> final -> closed.

Each step happens by date (`advance`, which the ladder worker calls before it picks a game; the
worker also starts the final once the contest is frozen and every extension has passed) or by
an organiser (`server contest ...`, the admin's actions). Every step is one conditional update
(`state = before` -> `after`), so when two workers see the same date only one makes the step;
each step is recorded as a `Transition` with who or what made it. At the deadline each
participant's active version is recorded as the one it handed in, with its archive's hash
(`HandIn`); a participant with an extension hands in at its own deadline. The final tournament
(`tournaments.server.ladder.final`) plays the versions handed in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.server.ladder.models import Contest, Extension, HandIn, Transition
from tournaments.server.ladder.standings import active_versions


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


def _when(moment: datetime | None) -> str:
    return "no date" if moment is None else f"{moment:%Y-%m-%d %H:%M} UTC"


def submission_refusal(participant: Any, now: datetime | None = None) -> str | None:
    """Why `participant` may not submit now (None: it may): the contest is not open yet, or its
    deadline (the contest's, or its own extension) has passed; the deadline is in the message."""
    contest = Contest.of(participant)
    now = now or timezone.now()
    if participant.staff_bot:
        return None  # the organisers' bars may be entered or replaced at any time before the final
    if contest.state == Contest.DRAFT:
        return f"the contest {contest.label} is not open yet (it opens at {_when(contest.opens)})"
    deadline = contest.deadline_for(participant.pk)
    if contest.state in (Contest.FINAL, Contest.CLOSED) or (
        deadline is not None and now >= deadline
    ):
        return (
            f"the submission deadline of {contest.label} was {_when(deadline)}; "
            f"submissions are closed"
        )
    return None


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


def _extended(contest: Contest, now: datetime) -> set[int]:
    """Participants whose extension has not yet passed."""
    return set(
        Extension.objects.filter(contest=contest, deadline__gt=now).values_list(
            "participant_id", flat=True
        )
    )


def freeze(contest: Contest, now: datetime | None = None, by: str = "") -> list[HandIn]:
    """open -> frozen: submissions end; every participant without a running extension hands
    in its active version. LifecycleError when the contest is not open."""
    made = _freeze(contest, now or timezone.now(), by or "an organiser")
    if made is None:
        contest.refresh_from_db()
        raise LifecycleError(
            f"{contest.label} is {contest.state}; only an open contest can be frozen"
        )
    return made


def _freeze(contest: Contest, now: datetime, by: str) -> list[HandIn] | None:
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
        late = _extended(contest, now)
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


def set_state(contest: Contest, state: str, by: str = "") -> None:
    """An organiser's move to `state` (forward only, one step or more; freezing records the
    hand-ins), recorded with `by`."""
    by = by or "an organiser"
    if state not in ORDER:
        raise LifecycleError(f"unknown state {state!r}; states: {', '.join(ORDER)}")
    contest.refresh_from_db()
    if ORDER.index(state) <= ORDER.index(contest.state):
        raise LifecycleError(
            f"{contest.label} is already {contest.state}; a contest only "
            f"moves forward ({' -> '.join(ORDER)})"
        )
    if contest.state in (Contest.DRAFT, Contest.OPEN) and ORDER.index(state) >= 2:
        move(contest, Contest.DRAFT, Contest.OPEN, by)
        freeze(contest, by=by)
        contest.refresh_from_db()
    if state != contest.state and not move(contest, contest.state, state, by):
        contest.refresh_from_db()
        raise LifecycleError(
            f"{contest.label} moved to {contest.state} meanwhile (a worker or another "
            f"organiser); look at it again: azul-arena server contest show {contest.slug}"
        )


def final_is_due(contest: Contest, now: datetime | None = None) -> bool:
    """A frozen contest whose every extension has passed: its final may start."""
    now = now or timezone.now()
    return contest.state == Contest.FROZEN and not _extended(contest, now)


def advance(contest: Contest, now: datetime | None = None, by: str = "") -> Contest:
    """The transitions whose date has come: draft -> open at `opens`, open -> frozen at
    `deadline`, extensions that have passed hand in, final -> closed at `closes` once the
    final has been played. Safe to call from several workers at once (each step is made by
    one of them, `move`). Returns the contest as it now is."""
    now = now or timezone.now()
    by = by or "the contest's dates"
    contest.refresh_from_db()
    if contest.state == Contest.DRAFT and contest.opens is not None and contest.opens <= now:
        move(contest, Contest.DRAFT, Contest.OPEN, by)
        contest.refresh_from_db()
    if contest.state == Contest.OPEN and contest.deadline is not None and contest.deadline <= now:
        _freeze(contest, now, by)
        contest.refresh_from_db()
    if contest.state == Contest.FROZEN:
        for ext in Extension.objects.filter(contest=contest, deadline__lte=now).select_related(
            "participant"
        ):
            hand_in(contest, ext.deadline, [ext.participant])
    if contest.state == Contest.FINAL and contest.closes is not None and contest.closes <= now:
        from tournaments.server.ladder.final import final_done

        if final_done(contest):
            move(contest, Contest.FINAL, Contest.CLOSED, by)
            contest.refresh_from_db()
    return contest
