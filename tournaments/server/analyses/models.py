"""A game's analysis, asked for and made by the worker."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.server.ladder.models import Game


class Analysis(models.Model):
    """A game's analysis (tournaments/domain/analysis), asked for by a participant who played it (or
    staff) and made by the contest's analysis share of the worker's slots (`analyses.queue`):
    one per game."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="analyses",
    )
    created = models.DateTimeField(default=timezone.now, db_index=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=8,
        default=QUEUED,
        db_index=True,
        choices=[(QUEUED, "queued"), (RUNNING, "running"), (DONE, "done"), (FAILED, "failed")],
    )
    budget = models.PositiveIntegerField()
    worker = models.CharField(max_length=200, blank=True)
    block = models.JSONField(null=True, blank=True, help_text="the record's analysis block")
    error = models.TextField(blank=True)

    class Meta:
        db_table = "arena_ladder_analysis"  # made when it was the ladder's: moved, not copied
        verbose_name = "game analysis"
        verbose_name_plural = "game analyses"

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"
