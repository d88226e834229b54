"""Each version's standing, the games (ranked, challenges, version tests') with their seats, and the
workers that play them.

A game row is written, with its seats and deal seed, *before* it is played; its result, the
replay and every seat's new rating are one transaction when it ends (`ladder.results`). A worker
killed in between leaves the game `scheduled`: the next worker plays it again on the same deal,
and since ratings change only in that one transaction nothing is ever rated twice.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.domain.ratings import make_env
from tournaments.server.contests.models import Contest
from tournaments.server.visibility import GameQuerySet, SeatQuerySet

_ENV = make_env()


class WorkerBeat(models.Model):
    """A running ladder worker (HOST pid N), as it last said so: several workers share one
    database, and a scheduled game or a validation whose worker has gone silent is taken up
    by another (`ladder.coordination`)."""

    name = models.CharField(max_length=200, unique=True)
    started = models.DateTimeField(default=timezone.now)
    seen = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


class Standing(models.Model):
    """A version's TrueSkill rating on the ladder and what it has played."""

    version = models.OneToOneField(
        "arena_submissions.Version", on_delete=models.CASCADE, related_name="standing"
    )
    mu = models.FloatField(default=_ENV.mu)
    sigma = models.FloatField(default=_ENV.sigma)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_game = models.DateTimeField(null=True, blank=True)

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the leaderboard's order (a rating the version very likely exceeds)."""
        return self.mu - 3 * self.sigma


# How a game an organiser cancelled says so in its `error` (`ladder.admin`), shown to everyone.
CANCELLED_BY = "cancelled by "


class Game(models.Model):
    SCHEDULED, DONE, FAILED = "scheduled", "done", "failed"
    LADDER, CHALLENGE, TEST, FINAL = "ladder", "challenge", "test", "final"
    contest = models.ForeignKey(
        Contest, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    kind = models.CharField(
        max_length=10,
        default=LADDER,
        choices=[
            (LADDER, "ranked ladder game"),
            (CHALLENGE, "challenge (never rated)"),
            (TEST, "version test (never rated)"),
            (FINAL, "final tournament (its own ratings)"),
        ],
    )
    # A higher app's model named as a string (a table's foreign key, not an import).
    version_test = models.ForeignKey(
        "arena_versiontests.VersionTest",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="games",
    )
    requested_by = models.ForeignKey(
        "arena_contests.Participant",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="challenges",
    )
    status = models.CharField(
        max_length=10,
        default=SCHEDULED,
        db_index=True,
        choices=[(SCHEDULED, "scheduled"), (DONE, "done"), (FAILED, "failed (not rated)")],
    )
    created = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True, db_index=True)
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    time_per_move = models.FloatField()
    seed = models.BigIntegerField()
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, help_text="the last infrastructure failure")
    rated = models.BooleanField(default=False)
    worker = models.CharField(
        max_length=200, blank=True, help_text="the ladder worker playing it (HOST pid N)"
    )
    duration = models.FloatField(null=True, blank=True)
    host = models.CharField(max_length=128, blank=True)
    isolation = models.CharField(max_length=16, blank=True)
    record = models.JSONField(null=True, blank=True)
    logs_deleted = models.DateTimeField(
        null=True, blank=True, help_text="when its seats' logs were deleted (ladder/retention.py)"
    )

    objects = GameQuerySet.as_manager()  # who may see which: tournaments/server/visibility.py

    class Meta:
        ordering = ["-pk"]
        # The leaderboard's latest games.
        indexes = [models.Index(fields=["status", "-finished"], name="game_status_finished")]

    def __str__(self) -> str:
        return f"game {self.pk}"


def queued(game: str = "") -> models.Q:
    """The scheduled games the ladder's workers play (at `game`: "" for a game itself, "game__"
    for a seat): a final's are played by the final's own run (finals.play), which resumes
    them itself."""
    return models.Q(**{f"{game}status": Game.SCHEDULED}) & ~models.Q(**{f"{game}kind": Game.FINAL})


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(
        "arena_submissions.Version", on_delete=models.PROTECT, related_name="seats"
    )
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    termination = models.CharField(max_length=24, blank=True)
    moves = models.PositiveIntegerField(default=0)
    move_time = models.FloatField(default=0.0)
    cpu_time = models.FloatField(null=True, blank=True)
    log = models.CharField(
        max_length=500, blank=True, help_text="its log of this game (logs/games/GAME/seat-N.log)"
    )
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_row_per_seat")]
        # A participant's pages: its versions' latest games first.
        indexes = [models.Index(fields=["version", "-game"], name="seat_version_game")]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id}"
