"""Bot versions: every upload is kept, with its content hash, size and time."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.server.visibility import VersionQuerySet


class Version(models.Model):
    PENDING, VALIDATING, PASSED, FAILED = "pending", "validating", "passed", "failed"
    STATES = [
        (PENDING, "waiting for validation"),
        (VALIDATING, "validating"),
        (PASSED, "passed"),
        (FAILED, "failed"),
    ]

    participant = models.ForeignKey(
        "arena_contests.Participant", on_delete=models.CASCADE, related_name="versions"
    )
    number = models.PositiveIntegerField(help_text="1, 2, ... per participant")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded = models.DateTimeField(default=timezone.now, db_index=True)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField(help_text="the archive's bytes")
    unpacked_bytes = models.PositiveBigIntegerField(default=0)
    files = models.PositiveIntegerField(default=0)
    archive_format = models.CharField(max_length=8)
    # The launcher's spec relative to the version's folder: "bot.py", "mybot/bot.py", "." ...
    entry = models.CharField(max_length=255)
    state = models.CharField(max_length=12, choices=STATES, default=PENDING, db_index=True)
    validator = models.CharField(
        max_length=200, blank=True, help_text="the ladder worker validating it (HOST pid N)"
    )
    reason = models.TextField(blank=True, help_text="why validation failed, in a sentence")
    checks = models.JSONField(default=list, blank=True, help_text="bot check's report")
    log_tail = models.TextField(blank=True)
    validated = models.DateTimeField(null=True, blank=True)
    suspended = models.TextField(blank=True, help_text="why it may not play (empty: it may)")

    objects = VersionQuerySet.as_manager()  # who may see which: tournaments/server/visibility.py

    class Meta:
        ordering = ["participant", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "number"], name="one_number_per_participant_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.participant.name} v{self.number}"

    @property
    def label(self) -> str:
        return f"{self.participant.name} v{self.number}"

    @property
    def entry_name(self) -> str:
        """Its name in the referee's Arena and in game records."""
        return f"{self.participant.name}-v{self.number}"

    def folder(self) -> Path:
        return Path(settings.HOME) / "versions" / str(self.participant_id) / str(self.number)

    def archive_path(self) -> Path:
        return Path(settings.HOME) / "archives" / f"{self.sha256}.{self.archive_format}"

    def spec(self) -> str:
        return (
            str(self.folder() / "bot" / self.entry)
            if self.entry != "."
            else str(self.folder() / "bot")
        )


class RefusedUpload(models.Model):
    """An archive the server received and refused (too large, empty, unsafe, no bot in it):
    it counts against the daily quota as a version does, since the server read, unpacked and
    checked it all the same (refusals before any of that, such as the deadline's or the
    quota's own, are not kept)."""

    participant = models.ForeignKey(
        "arena_contests.Participant", on_delete=models.CASCADE, related_name="refused_uploads"
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)
    reason = models.CharField(max_length=500)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.participant.name} at {self.at:%Y-%m-%d %H:%M}: {self.reason}"
