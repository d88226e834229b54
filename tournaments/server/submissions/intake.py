"""Take in an uploaded archive: quota, size, content hash, safe unpacking, a new Version.

The archive is kept under its SHA-256 (archives/<hash>.<format>) and unpacked into the
version's own folder (versions/<participant>/<number>/bot); a refused archive leaves neither.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tournaments.server.contests.lifecycle import submission_refusal
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.paths import hide_paths
from tournaments.server.submissions.archives import ArchiveError, Limits, bot_root, unpack
from tournaments.server.submissions.models import RefusedUpload, Version
from tournaments.server.submissions.signals import version_received


class SubmissionError(ValueError):
    """A submission refused before it became a version (quota, size, archive)."""


class QuotaExceeded(SubmissionError):
    """The participant's submissions of the last 24 hours reached the contest's quota."""


def limits() -> Limits:
    return Limits(max_bytes=settings.UNPACKED_MAX_BYTES, max_files=settings.UNPACKED_MAX_FILES)


def recent_submissions(participant: Any, now: Any = None) -> tuple[list[Any], int]:
    """When the participant's submissions of the last 24 hours came, oldest first (its
    versions and its refused uploads), and how many of them were refused."""
    since = (now or timezone.now()) - timedelta(days=1)
    made = Version.objects.filter(participant=participant, uploaded__gt=since)
    refused = list(
        RefusedUpload.objects.filter(participant=participant, at__gt=since).values_list(
            "at", flat=True
        )
    )
    return sorted([*made.values_list("uploaded", flat=True), *refused]), len(refused)


def check_quota(participant: Any, now: Any = None) -> None:
    """QuotaExceeded when the participant used the contest's quota in the last 24 hours: its
    versions and its refused uploads (the server unpacked and checked those too)."""
    quota = Contest.of(participant).daily_quota
    recent, refused = recent_submissions(participant, now)
    if len(recent) >= quota:
        again = recent[len(recent) - quota] + timedelta(days=1)
        of_which = f" ({refused} of them refused)" if refused else ""
        raise QuotaExceeded(
            f"{participant.name} has made {len(recent)} submissions in the "
            f"last 24 hours{of_which}, the contest's limit is {quota}; the next one is "
            f"possible at {again:%Y-%m-%d %H:%M} UTC"
        )


def _count_refusal(participant: Any, user: Any, exc: SubmissionError) -> None:
    """A refused archive counts against the quota (`RefusedUpload`): the server read,
    unpacked and checked it, and would again and again for a participant sending bad ones."""
    if isinstance(exc, QuotaExceeded):
        return
    RefusedUpload.objects.create(
        participant=participant,
        uploaded_by=user if user is not None and user.is_authenticated else None,
        reason=str(exc)[:500],
    )


def submit(participant: Any, chunks: Iterable[bytes], user: Any = None) -> Version:
    """A new version of `participant` from the archive's bytes (`chunks`), or SubmissionError
    saying why not. The version waits for validation (state pending). Its time is when it
    was received, before its archive is unpacked: what decides whether it was in time."""
    received = timezone.now()
    refusal = submission_refusal(participant, received)
    if refusal is not None:
        raise SubmissionError(refusal)
    check_quota(participant)
    try:
        return _receive(participant, chunks, user, received)
    except SubmissionError as exc:
        _count_refusal(participant, user, exc)
        raise


def _receive(participant: Any, chunks: Iterable[bytes], user: Any, received: Any) -> Version:
    """The archive stored, unpacked and checked, and its version made (SubmissionError: why
    not, with nothing left behind)."""
    home = Path(settings.HOME)
    (home / "uploads").mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    size = 0
    fd, name = tempfile.mkstemp(dir=home / "uploads", suffix=".upload")
    upload = Path(name)
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                size += len(chunk)
                if size > settings.ARCHIVE_MAX_BYTES:
                    raise SubmissionError(
                        f"the archive is larger than the limit of "
                        f"{settings.ARCHIVE_MAX_BYTES // 2**20} MiB"
                    )
                digest.update(chunk)
                out.write(chunk)
        if size == 0:
            raise SubmissionError("the archive is empty")
        staging = Path(tempfile.mkdtemp(dir=home / "uploads", suffix=".unpacked"))
        try:
            try:
                unpacked = unpack(upload, staging / "bot", limits())
                root = bot_root(staging / "bot")
            except ArchiveError as exc:  # its message names no path; hide_paths: to be sure
                raise SubmissionError(hide_paths(str(exc))) from None
            rel = root.relative_to(staging / "bot")
            entry = (
                str(rel / "bot.py")
                if not (root / "bot.toml").is_file()
                else (str(rel) if str(rel) != "." else ".")
            )
            with transaction.atomic():
                # Counted again where the version is made, the participant's row locked
                # (PostgreSQL; SQLite lets one write transaction through at a time): uploads
                # sent side by side all passed the first count while their bytes arrived.
                Participant.objects.select_for_update().filter(pk=participant.pk).first()
                check_quota(participant, received)
                number = (
                    Version.objects.filter(participant=participant).aggregate(n=Max("number"))["n"]
                    or 0
                ) + 1
                version = Version.objects.create(
                    participant=participant,
                    number=number,
                    uploaded_by=user if user is not None and user.is_authenticated else None,
                    uploaded=received,
                    sha256=digest.hexdigest(),
                    size=size,
                    unpacked_bytes=unpacked.bytes,
                    files=unpacked.files,
                    archive_format=unpacked.format,
                    entry=entry,
                )
                folder = version.folder()
                folder.parent.mkdir(parents=True, exist_ok=True)
                if folder.exists():  # left by a version row rolled back after its move
                    shutil.rmtree(folder)
                os.replace(staging, folder)
                version_received.send(sender=Version, version=version)
            archive = version.archive_path()
            archive.parent.mkdir(parents=True, exist_ok=True)
            if not archive.exists():
                os.replace(upload, archive)
            return version
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    finally:
        upload.unlink(missing_ok=True)
