"""A version test: NEW against BASE, until a sequential test decides."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.server.contests.models import Contest


class VersionTest(models.Model):
    """NEW against BASE in duplicate pairs, unrated, by the contest's test share of the worker's
    slots, until a sequential test decides (`versiontests.runs`). Automatic (a version that
    passed against its predecessor) or asked for by a participant (`requested_by`)."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="version_tests")
    new = models.ForeignKey(
        "arena_submissions.Version", on_delete=models.CASCADE, related_name="tests_as_new"
    )
    base = models.ForeignKey(
        "arena_submissions.Version", on_delete=models.CASCADE, related_name="tests_as_base"
    )
    requested_by = models.ForeignKey(
        "arena_contests.Participant",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="version_tests",
    )
    created = models.DateTimeField(default=timezone.now)
    max_games = models.PositiveIntegerField(default=1000)
    # The hypotheses, kept with the test so its verdict never changes with the server's defaults.
    elo0 = models.FloatField(default=0.0, help_text="H0: NEW is this many Elo better")
    elo1 = models.FloatField(default=20.0, help_text="H1: NEW is this many Elo better")
    # Empty while it runs; H1, H0 or inconclusive once it stopped scheduling games.
    verdict = models.CharField(max_length=12, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        db_table = "arena_ladder_versiontest"  # made when it was the ladder's: moved, not copied
        verbose_name = "version test"

    def __str__(self) -> str:
        return f"test {self.pk}"
