"""A person's game against a bot in the browser."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.server.contests.models import Contest


class TableGame(models.Model):
    """A person's unrated game against a bot in the browser (`tables.play`). The process that
    plays it keeps `state` (what the page draws, with the person's legal moves) up to date; the
    page's move goes into `answer`, which that process takes and the engine checks."""

    PLAYING, DONE, ABANDONED, FAILED = "playing", "done", "abandoned", "failed"
    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="tables")
    participant = models.ForeignKey(
        "arena_contests.Participant", null=True, blank=True, on_delete=models.CASCADE
    )
    visitor = models.CharField(max_length=64, blank=True, help_text="a visitor's session key")
    name = models.CharField(max_length=64, help_text="the person's name in the record")
    opponent = models.ForeignKey(
        "arena_submissions.Version", on_delete=models.PROTECT, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField()
    status = models.CharField(
        max_length=10,
        default=PLAYING,
        db_index=True,
        choices=[
            (PLAYING, "playing"),
            (DONE, "done"),
            (ABANDONED, "abandoned"),
            (FAILED, "failed"),
        ],
    )
    created = models.DateTimeField(default=timezone.now)
    seen = models.DateTimeField(default=timezone.now, help_text="its process last wrote")
    finished = models.DateTimeField(null=True, blank=True)
    state = models.JSONField(default=dict, blank=True)
    answer = models.CharField(max_length=16, blank=True)
    record = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        db_table = "arena_ladder_tablegame"  # made when it was the ladder's: moved, not copied
        verbose_name = "game at a table"
        verbose_name_plural = "games at a table"

    def __str__(self) -> str:
        return f"table {self.pk}"
