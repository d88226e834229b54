"""The versions handed in, by upload time: what a participant sent before its deadline is what
it hands in, whenever its validation ends.

At its deadline (the contest's, or its own extension's) a participant hands in the version it
pinned, else the newest version it sent before the deadline that passes validation; one that
fails falls back to the newest earlier one that passed. While a version sent before the
deadline still waits for validation nothing is decided for that participant (`choose` answers
None): the freeze records the hand-ins it can, and the ladder worker's look at the contest's
dates (`settle`, once a second) records the others as their validation ends. A `HandIn` is the
decision: the version and its archive's hash, or none, with a sentence saying why (shown to the
team and to the organisers). The final (`finals.play`) starts once every hand-in is decided.

A version whose upload was accepted just before the deadline but written just after the freeze
(its archive was being unpacked) makes its participant's hand-in be decided again
(`reconsider`, on the submissions app's `version_received`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournaments.server.contests.lifecycle import LifecycleError, extended, move, when_text
from tournaments.server.contests.models import Contest, Extension, Participant, Transition
from tournaments.server.handins.models import HandIn
from tournaments.server.submissions.models import Version

WAITING = (Version.PENDING, Version.VALIDATING)


@dataclass(frozen=True)
class Choice:
    """What a participant hands in (`version` None: nothing), and why in a sentence."""

    version: Version | None
    note: str


def _playable(v: Version) -> bool:
    return v.state == Version.PASSED and not v.suspended


def choose(participant: Any, deadline: datetime) -> Choice | None:
    """What `participant` hands in at `deadline`, or None while a version it sent before then
    (newer than any that passed, or the one it pinned) still waits for validation."""
    sent = list(
        Version.objects.filter(participant=participant, uploaded__lt=deadline).order_by("-number")
    )
    by = f"sent before the deadline ({when_text(deadline)})"
    pinned = next((v for v in sent if v.pk == participant.pinned_id), None)
    if pinned is not None:
        if pinned.state in WAITING:
            return None
        if _playable(pinned):
            return Choice(pinned, f"version {pinned.number}, the version the team pinned")
    failed: list[Version] = []
    for v in sent:
        if v.state in WAITING:
            return None
        if _playable(v):
            if not failed:
                return Choice(v, f"version {v.number}, the newest version {by}")
            return Choice(
                v,
                f"{_failures(failed)}; version {v.number}, the newest earlier "
                f"version that passed, is handed in",
            )
        failed.append(v)
    if failed:
        return Choice(None, f"{_failures(failed)}; no version {by} passed validation")
    return Choice(None, f"no version was {by}")


def _failures(failed: list[Version]) -> str:
    """'version 3 (sent 17:59:41 UTC) failed validation: why', for the newest that failed."""
    newest = failed[0]
    what = "was suspended" if newest.state == Version.PASSED else "failed validation"
    why = newest.suspended or newest.reason
    more = f" (and {len(failed) - 1} earlier)" if len(failed) > 1 else ""
    return (
        f"version {newest.number} (sent {when_text(newest.uploaded)}) {what}"
        + (f": {why}" if why else "")
        + more
    )


def hand_in(contest: Contest, at: datetime, participants: Any = None) -> list[HandIn]:
    """Record what each participant (or each of `participants`) without a hand-in yet hands
    in at `at`: those whose versions sent before `at` are all validated. A staff bot with
    nothing to hand in records nothing (it may still be entered before the final). Idempotent."""
    made = []
    chosen = participants if participants is not None else contest.participants.all()
    for who in chosen:
        if HandIn.objects.filter(contest=contest, participant=who).exists():
            continue
        choice = choose(who, at)
        if choice is None or (choice.version is None and who.staff_bot):
            continue
        version = choice.version
        # get_or_create: where two workers hand in at once, the unique row keeps one.
        handin, created = HandIn.objects.get_or_create(
            contest=contest,
            participant=who,
            defaults={
                "version": version,
                "sha256": version.sha256 if version else "",
                "at": at,
                "note": choice.note,
            },
        )
        if created:
            made.append(handin)
    return made


def due(contest: Contest, now: datetime) -> list[tuple[Participant, datetime]]:
    """The participants (not staff bots) whose deadline has passed and who have no hand-in
    yet, each with its deadline."""
    if contest.deadline is None or contest.state not in (Contest.FROZEN, Contest.FINAL):
        return []
    own = {
        e.participant_id: e.deadline
        for e in Extension.objects.filter(contest=contest).order_by("deadline")
    }
    left = contest.participants.filter(staff_bot=False).exclude(handins__contest=contest)
    out = []
    for who in left:
        deadline = own.get(who.pk, contest.deadline)
        if deadline <= now:
            out.append((who, deadline))
    return out


def settle(contest: Contest, now: datetime | None = None) -> list[HandIn]:
    """Record the hand-ins that can now be decided (a version sent before the deadline has
    finished its validation, an extension has passed)."""
    made = []
    for who, deadline in due(contest, now or timezone.now()):
        made += hand_in(contest, deadline, [who])
    return made


def undecided(contest: Contest, now: datetime | None = None) -> list[tuple[str, Version | None]]:
    """Past their deadline and not yet decided: each team's name and the version it waits for
    (the newest sent before its deadline that is still being validated)."""
    out = []
    for who, deadline in due(contest, now or timezone.now()):
        version = (
            Version.objects.filter(participant=who, uploaded__lt=deadline, state__in=WAITING)
            .order_by("-number")
            .first()
        )
        out.append((who.name, version))
    return out


def reconsider(version: Version) -> None:
    """A version received before its participant's deadline but written after the hand-in was
    decided (its upload was accepted in the last moment, then unpacked): the hand-in is
    decided again, with it, unless the final has started."""
    contest = Contest.of(version.participant)
    if contest.state != Contest.FROZEN:
        return
    HandIn.objects.filter(
        contest=contest, participant_id=version.participant_id, at__gt=version.uploaded
    ).delete()


def freeze(contest: Contest, now: datetime | None = None, by: str = "") -> list[HandIn]:
    """open -> frozen: submissions end; every participant without a running extension hands
    in (as soon as its versions sent before the deadline are validated). LifecycleError when
    the contest is not open."""
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
    """A later deadline for one participant, recorded with the reason and who granted it. One
    who handed in nothing may be given one after the deadline too (until the final starts)."""
    if contest.state in (Contest.FINAL, Contest.CLOSED):
        raise LifecycleError(f"{contest.label} is {contest.state}: too late for an extension")
    with transaction.atomic():
        handin = HandIn.objects.filter(contest=contest, participant=participant).first()
        if handin is not None and handin.version is not None:
            raise LifecycleError(
                f"{participant.name} has already handed in version {handin.version.number}; "
                f"an extension must be granted before its deadline passes"
            )
        if handin is not None:
            handin.delete()  # nothing was handed in: decided again at the new deadline
        return Extension.objects.create(
            contest=contest,
            participant=participant,
            deadline=deadline,
            reason=reason,
            granted_by=granted_by,
        )


def final_is_due(contest: Contest, now: datetime | None = None) -> bool:
    """A frozen contest whose every extension has passed, whose last deadline is
    `UPLOAD_GRACE_SECONDS` behind (`receiving`), and whose every hand-in is decided: its final
    may start."""
    now = now or timezone.now()
    return (
        contest.state == Contest.FROZEN
        and not extended(contest, now)
        and not receiving(contest, now)
        and not due(contest, now)
    )


def receiving(contest: Contest, now: datetime) -> bool:
    """An upload received before the contest stopped taking them (its deadline, or its freeze
    by hand if earlier, or an extension's deadline) may still be being unpacked and stored: its
    version does not exist yet, and a final started now would leave it out (`reconsider` cannot
    undo a started final). An upload's time is when it was received, so it is in time; the
    final waits `settings.UPLOAD_GRACE_SECONDS` after the last moment uploads were taken."""
    frozen = (
        Transition.objects.filter(contest=contest, before=Contest.OPEN, after=Contest.FROZEN)
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )
    own = min((d for d in (contest.deadline, frozen) if d is not None), default=None)
    extensions = Extension.objects.filter(contest=contest).values_list("deadline", flat=True)
    last = max((d for d in (own, *extensions) if d is not None), default=None)
    return last is not None and now < last + timedelta(seconds=settings.UPLOAD_GRACE_SECONDS)


def handin_line(participant: Any, now: datetime | None = None) -> str | None:
    """What `participant` hands in, in a sentence for its own page: decided (which version,
    its hash, why), waiting for a validation, or the rule before the deadline. None when its
    contest has no deadline."""
    contest = Contest.of(participant)
    handin = (
        HandIn.objects.filter(contest=contest, participant=participant)
        .select_related("version")
        .first()
    )
    if handin is not None:
        if handin.version is None:
            return f"Nothing handed in: {handin.note}."
        return (
            f"Handed in: version {handin.version.number} (sha256 {handin.sha256[:12]}). "
            f"Why: {handin.note}."
        )
    deadline = contest.deadline_for(participant.pk)
    if deadline is None:
        return None
    now = now or timezone.now()
    if deadline > now or contest.state in (Contest.DRAFT, Contest.OPEN):
        return (
            f"Deadline {when_text(deadline)}: you hand in the newest version you send before "
            f"it that passes validation (or the one you pin), even if its validation ends after."
        )
    waiting = (
        Version.objects.filter(participant=participant, uploaded__lt=deadline, state__in=WAITING)
        .order_by("-number")
        .first()
    )
    if waiting is not None:
        return (
            f"Your hand-in waits for the validation of version {waiting.number}, sent before "
            f"the deadline: if it passes, it is what you hand in."
        )
    return None


def handins_json(contest: Contest, now: datetime | None = None) -> list[dict[str, Any]]:
    """Each team's hand-in for the organisers: the version (None: nothing), its hash, when it
    was sent, the deadline it was taken at and why; a team still waiting for a validation is
    listed with the version it waits for; a team whose deadline is to come, not at all."""
    rows: list[dict[str, Any]] = [
        {
            "team": h.participant.name,
            "staff_bot": h.participant.staff_bot,
            "version": h.version.number if h.version else None,
            "sha256": h.sha256 or None,
            "sent": h.version.uploaded.isoformat() if h.version else None,
            "deadline": h.at.isoformat(),
            "why": h.note,
        }
        for h in HandIn.objects.filter(contest=contest)
        .select_related("participant", "version")
        .order_by("participant__name")
    ]
    for name, version in undecided(contest, now):
        waiting = f"waits for the validation of version {version.number}" if version else ""
        rows.append(
            {
                "team": name,
                "staff_bot": False,
                "version": None,
                "sha256": None,
                "sent": None,
                "deadline": None,
                "why": waiting or "not decided yet (the ladder worker decides it)",
            }
        )
    return rows
