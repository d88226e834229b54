"""What each participant handed in at its deadline."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.server.contests.models import Contest


class HandIn(models.Model):
    """What a participant handed in, decided once every version it sent before its deadline
    is validated (`handins.decisions`): the version with the archive's hash (what the final
    tournament plays, and what the grades name), or none, and why in a sentence."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="handins")
    participant = models.ForeignKey(
        "arena_contests.Participant", on_delete=models.CASCADE, related_name="handins"
    )
    version = models.ForeignKey(
        "arena_submissions.Version",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="empty: nothing handed in (the note says why)",
    )
    sha256 = models.CharField(max_length=64, blank=True)
    at = models.DateTimeField(help_text="the deadline it was taken at")
    note = models.TextField(blank=True, help_text="which version was handed in and why")
    decided = models.DateTimeField(default=timezone.now, help_text="when it was decided")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "participant"], name="one_handin_per_participant"
            )
        ]
        db_table = "arena_ladder_handin"  # made when it was the ladder's: moved, not copied
        verbose_name = "hand-in"
