"""A contest's life: draft -> open -> frozen (the deadline) -> final -> closed.

Each step happens by date (`advance`, which the ladder worker calls before it picks a game; the
worker also starts the final once the contest is frozen and every extension has passed) or by
an organiser (`server contest ...`, the admin's actions). Every step is one conditional update
(`state = before` -> `after`), so when two workers see the same date only one makes the step;
each step is recorded as a `Transition` with who or what made it. At the deadline each
participant hands in what it sent before it (`HandIn`, `handins.decisions`: by upload time,
whenever its validation ends); a participant with an extension hands in at its own deadline. The
final tournament (`tournaments.server.finals.play`) plays the versions handed in. The state
machine itself (`move`, who may submit when) is `tournaments.server.contests.lifecycle`; this
module is the side of it that acts on the hand-ins and the final, and what commands, the admin
and the worker call.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from tournaments.server.contests.lifecycle import ORDER, LifecycleError, move, submission_refusal
from tournaments.server.contests.models import Contest
from tournaments.server.finals.status import final_done
from tournaments.server.handins.decisions import (
    extend,
    final_is_due,
    freeze,
    freeze_once,
    hand_in,
    settle,
)

__all__ = [
    "ORDER",
    "LifecycleError",
    "advance",
    "extend",
    "final_is_due",
    "freeze",
    "hand_in",
    "move",
    "set_state",
    "submission_refusal",
]


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
    if state == Contest.CLOSED and contest.state == Contest.FINAL and not final_done(contest):
        from tournaments.server.finals.status import final_status

        raise LifecycleError(
            f"the final of {contest.label} is {final_status(contest).describe()}: closing "
            f"publishes its results, so close it once it is done (server contest show "
            f"{contest.label})"
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
        freeze_once(contest, now, by)
        contest.refresh_from_db()
    if contest.state == Contest.FROZEN:
        # Hand-ins waiting for a validation, and extensions that have passed.
        settle(contest, now)
    if contest.state == Contest.FINAL and contest.closes is not None and contest.closes <= now:
        if final_done(contest):
            move(contest, Contest.FINAL, Contest.CLOSED, by)
            contest.refresh_from_db()
    return contest
