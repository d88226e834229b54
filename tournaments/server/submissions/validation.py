"""Validate a new version before it may play ranked games: the compliance run of `bot check`
(its build step, handshake, legal moves, the time limit, 2-4 players, the contest's ruleset)
in the sandbox, its verdict, first failure and log tail kept on the version.

Nobody's validation holds up anyone else's: its build may take the contest's `build_timeout`
at most (whatever its bot.toml asks), the whole check that plus VALIDATION_PLAY_SECONDS, and
a ladder worker validates several versions at once, at most one per participant, the
participants in turn (`claim_next`).
What is kept names no server path (`tournaments.server.paths`)."""

from __future__ import annotations

import logging
import shutil
import threading
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, Subquery
from django.utils import timezone

from referee import slug
from tournaments.domain.compliance import Bounds, CheckReport, CheckStopped, run_check
from tournaments.server.contests.models import Contest
from tournaments.server.paths import hide_paths
from tournaments.server.submissions.archives import ArchiveError, unpack
from tournaments.server.submissions.intake import limits
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.signals import version_passed

log = logging.getLogger(__name__)
LOG_TAIL_LINES = 40
# A staff (reference) bot that fails validation is validated again this many times before the
# organisers are told: theirs is known to work, so a failure is more likely the machine's.
STAFF_RETRIES = 2
# Where a participant reads a failed bot's log (the log's path is the server's).
LOG_HINT = "see the validation log on the version page"


def tail(path: Path, lines: int = LOG_TAIL_LINES, max_bytes: int = 64 * 1024) -> str:
    """The last `lines` lines of a log file (reading at most its last `max_bytes`)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            text = f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def bot_logs(log_dir: Path, spec: str) -> list[Path]:
    """The version's own log files in a validation's log folder (not its opponents'), oldest
    first."""
    mine = slug(spec)
    found = [p for p in log_dir.glob("*.log") if p.name.startswith(mine)]
    return sorted(found, key=lambda p: p.stat().st_mtime)


def requeue_interrupted(live: set[str] | None = None) -> int:
    """Versions a stopped worker was validating wait again: those of every worker but the
    `live` ones (run by each ladder worker as it starts, and from time to time)."""
    return (
        Version.objects.filter(state=Version.VALIDATING)
        .exclude(validator__in=live or set())
        .update(state=Version.PENDING, validator="")
    )


def claim_next(validator: str = "") -> Version | None:
    """The next version to validate, marked as being validated (one transaction: two workers
    never take the same one). Participants take turns: of those with a version waiting and
    none being validated, the one served longest ago (never, first) has its oldest waiting
    version validated. So one with many waiting takes one slot of the workers', never all of
    them, and a participant who uploads once waits for one turn of each other participant
    waiting, not behind their whole queues (twenty uploads whose builds sleep to their
    timeout, from each of two accounts, would otherwise hold a later upload for hours)."""
    validating = Version.objects.filter(state=Version.VALIDATING).values("participant_id")
    last_served = (
        Version.objects.filter(participant_id=OuterRef("participant_id"), validated__isnull=False)
        .order_by("-validated")
        .values("validated")[:1]
    )
    with transaction.atomic():
        version = (
            Version.objects.select_related("participant")
            .filter(state=Version.PENDING)
            .exclude(participant_id__in=validating)
            .annotate(last_served=Subquery(last_served))
            .order_by(F("last_served").asc(nulls_first=True), "uploaded", "pk")
            .first()
        )
        if version is None:
            return None
        claimed = (
            Version.objects.filter(pk=version.pk, state=Version.PENDING)
            .exclude(participant_id__in=validating)  # one taken meanwhile, by another worker
            .update(state=Version.VALIDATING, validator=validator)
        )
        return version if claimed else None


def bot_folder(version: Version) -> Path:
    """The folder its sandbox shows the bot at /bot: a Python bot's file's, or the bot
    folder."""
    spec = Path(version.spec())
    return spec.parent if spec.suffix == ".py" else spec


def bounds(contest: Contest, stop: threading.Event | None = None) -> Bounds:
    """The contest's limits of one validation (see the module docstring)."""
    build = float(contest.build_timeout)
    return Bounds(build, build + settings.VALIDATION_PLAY_SECONDS, stop)


def validate(
    version: Version, isolation: str | None = None, stop: threading.Event | None = None
) -> CheckReport:
    """Run the compliance checks on `version` and record the verdict; a version that passes
    gets its ladder standing (`version_passed`, which `ladder.standings.enter` answers).
    `stop` set: it is stopped and waits again (CheckStopped)."""
    contest = Contest.of(version.participant)
    log_dir = version.folder() / "validation"
    shutil.rmtree(log_dir, ignore_errors=True)  # a re-run starts clean
    spec = version.spec()
    staff = version.participant.staff_bot
    try:
        for attempt in range(1 + (STAFF_RETRIES if staff else 0)):
            if attempt:
                log.warning("the staff bot %s failed validation; trying again", version)
                shutil.rmtree(log_dir, ignore_errors=True)
            report = run_check(
                spec,
                games=1,
                time_per_move=contest.time_per_move,
                rulesets=[contest.ruleset],
                isolation=isolation,
                log_dir=log_dir,
                bounds=bounds(contest, stop),
                log_hint=LOG_HINT,
                clock=validation_clock(),
                replay_late=True,
            )
            if report.passed:
                break
    except CheckStopped:  # the worker stops: the version waits for the next one
        Version.objects.filter(pk=version.pk).update(state=Version.PENDING, validator="")
        raise
    except Exception as exc:
        log.exception("validation of %s could not run", version)
        Version.objects.filter(pk=version.pk).update(state=Version.PENDING)
        raise RuntimeError(f"validation of {version} could not run: {exc}") from exc
    failed = [c for c in report.checks if not c.passed]
    logs = bot_logs(log_dir, spec) if log_dir.exists() else []
    own = bot_folder(version)
    version.checks = [
        {**c, "detail": hide_paths(c["detail"], own)} for c in report.as_dict()["checks"]
    ]
    version.log_tail = hide_paths(tail(logs[-1]), own) if logs else ""
    version.validated = timezone.now()
    if report.passed:
        version.state, version.reason = Version.PASSED, ""
    else:
        version.state = Version.FAILED
        version.reason = hide_paths(
            f"{failed[0].name}: {failed[0].detail}" if failed else "no check ran", own
        )
    with transaction.atomic():
        version.save(update_fields=["checks", "log_tail", "validated", "state", "reason"])
        if report.passed:
            version_passed.send(sender=Version, version=version)
    if not report.passed:
        restore_upload(version)
        if staff:
            tell_organisers(version)
    return report


def validation_clock() -> str:
    """The clock validation games count a move's time on: the bot's own CPU where this machine
    can make cgroups (another process's load then costs it nothing), else the wall clock."""
    from referee import ClockError, require_cpu_clock

    try:
        require_cpu_clock()
    except ClockError:
        return "wall"
    return "cpu"


def tell_organisers(version: Version) -> None:
    """A staff (reference) bot failed validation even when tried again: the organisers are told
    (the worker's log, and a mail to every staff account with an address, where mail is set
    up); it stays off the ladder until `server` revalidates it."""
    from django.contrib.auth import get_user_model
    from django.core.mail import send_mail

    said = (
        f"The staff bot {version} failed validation {1 + STAFF_RETRIES} times, so it is not on "
        f"the ladder: {version.reason}. Revalidate it (the admin's Versions page, action "
        "'revalidate') once the machine is less loaded, or enter a fixed version."
    )
    log.error("%s", said)
    to = list(
        get_user_model()
        .objects.filter(is_staff=True, is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
    )
    if to:
        send_mail(
            f"Azul Arena: staff bot {version} failed validation", said, None, to, fail_silently=True
        )


def restore_upload(version: Version) -> None:
    """A failed version's bot folder back to what was uploaded (unpacked again from its kept
    archive): what its build wrote, up to the build's disk limit, is not kept for a version
    that will not play, and an organiser's revalidation starts from the upload."""
    bot = version.folder() / "bot"
    shutil.rmtree(bot, ignore_errors=True)
    try:
        unpack(version.archive_path(), bot, limits())
    except (ArchiveError, OSError):  # it passed these limits once; nothing to run again then
        log.warning("the upload of %s could not be unpacked again", version)
