"""Validate a new version before it may play ranked games: the compliance run of `bot check`
(its build step, handshake, legal moves, the time limit, 2-4 players, the contest's ruleset)
in the sandbox, its verdict, first failure and log tail kept on the version."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from referee import slug
from tournaments.compliance import CheckReport, run_check
from tournaments.server.submissions.models import Version

log = logging.getLogger(__name__)
LOG_TAIL_LINES = 40


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
    """The oldest version waiting for validation, marked as being validated (one transaction:
    two workers never take the same one)."""
    with transaction.atomic():
        version = (
            Version.objects.select_related("participant")
            .filter(state=Version.PENDING)
            .order_by("uploaded", "pk")
            .first()
        )
        if version is None:
            return None
        claimed = Version.objects.filter(pk=version.pk, state=Version.PENDING).update(
            state=Version.VALIDATING, validator=validator
        )
        return version if claimed else None


def validate(version: Version, isolation: str | None = None) -> CheckReport:
    """Run the compliance checks on `version` and record the verdict; a version that passes
    gets its ladder standing (see `ladder.standings.enter`)."""
    from tournaments.server.ladder.models import Contest
    from tournaments.server.ladder.standings import enter

    contest = Contest.of(version.participant)
    log_dir = version.folder() / "validation"
    shutil.rmtree(log_dir, ignore_errors=True)  # a re-run starts clean
    spec = version.spec()
    try:
        report = run_check(
            spec,
            games=1,
            time_per_move=contest.time_per_move,
            rulesets=[contest.ruleset],
            isolation=isolation,
            log_dir=log_dir,
        )
    except Exception as exc:  # noqa: BLE001 - the machine's fault: the version waits again
        log.exception("validation of %s could not run", version)
        Version.objects.filter(pk=version.pk).update(state=Version.PENDING)
        raise RuntimeError(f"validation of {version} could not run: {exc}") from exc
    failed = [c for c in report.checks if not c.passed]
    logs = bot_logs(log_dir, spec) if log_dir.exists() else []
    version.checks = report.as_dict()["checks"]
    version.log_tail = tail(logs[-1]) if logs else ""
    version.validated = timezone.now()
    if report.passed:
        version.state, version.reason = Version.PASSED, ""
    else:
        version.state = Version.FAILED
        version.reason = (
            f"{failed[0].name}: {failed[0].detail}" if failed else "no check ran"
        ).replace(str(version.folder()), "<version>")
    with transaction.atomic():
        version.save(update_fields=["checks", "log_tail", "validated", "state", "reason"])
        if report.passed:
            enter(version)
    return report
