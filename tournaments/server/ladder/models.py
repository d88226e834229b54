"""Each version's standing, the versions handed in, and the ranked games with their seats.

A game row is written, with its seats and deal seed, *before* it is played; its result, the
replay and every seat's new rating are one transaction when it ends (`ladder.results`). A worker
killed in between leaves the game `scheduled`: the next worker plays it again on the same deal,
and since ratings change only in that one transaction nothing is ever rated twice.
"""

from __future__ import annotations

from django.conf import settings
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


class HandIn(models.Model):
    """What a participant handed in, decided once every version it sent before its deadline
    is validated (`ladder.handins`): the version with the archive's hash (what the final
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


class VersionTest(models.Model):
    """NEW against BASE in duplicate pairs, unrated, by the contest's test share of the worker's
    slots, until a sequential test decides (`ladder.versiontests`). Automatic (a version that
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

    def __str__(self) -> str:
        return f"test {self.pk}"


# How a game an organiser cancelled says so in its `error` (ladder.admin), shown to everyone.
CANCELLED_BY = "cancelled by "


class Game(models.Model):
    SCHEDULED, DONE, FAILED = "scheduled", "done", "failed"
    LADDER, CHALLENGE, TEST = "ladder", "challenge", "test"
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
        ],
    )
    version_test = models.ForeignKey(
        "VersionTest", null=True, blank=True, on_delete=models.CASCADE, related_name="games"
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


class TableGame(models.Model):
    """A person's unrated game against a bot in the browser (`ladder.tables`). The process that
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

    def __str__(self) -> str:
        return f"table {self.pk}"


class Analysis(models.Model):
    """A game's analysis (tournaments/domain/analysis), asked for by a participant who played it (or
    staff) and made by the contest's analysis share of the worker's slots (`ladder.analyses`):
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

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"
