"""The contest's settings, each version's standing, and the ranked games with their seats.

A game row is written, with its seats and deal seed, *before* it is played; its result, the
replay and every seat's new rating are one transaction when it ends (`ladder.results`). A worker
killed in between leaves the game `scheduled`: the next worker plays it again on the same deal,
and since ratings change only in that one transaction nothing is ever rated twice.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.ratings import make_env

_ENV = make_env()


class Contest(models.Model):
    """The one contest this server runs (id 1); organisers edit it in the admin."""

    OPEN, CODE = "open", "code"
    name = models.CharField(max_length=100, default="Azul Arena ladder")
    ruleset = models.CharField(max_length=32, default="azul")
    players = models.PositiveSmallIntegerField(default=2, help_text="seats per game, 2-4")
    time_per_move = models.FloatField(default=1.0, help_text="seconds")
    daily_quota = models.PositiveIntegerField(default=20,
                                              help_text="submissions per participant per day")
    signup = models.CharField(max_length=8, choices=[(OPEN, "open"), (CODE, "invitation code")],
                              default=OPEN)
    signup_code = models.CharField(max_length=64, blank=True)
    paused = models.BooleanField(default=False, help_text="the ladder plays no new games")
    wild_order = models.CharField(max_length=6, blank=True, help_text=(
        "Summer Pavilion: the wild colour of rounds 1-6, an order of PGOYBR (empty: PGOYBR)"))

    def __str__(self) -> str:
        return self.name

    def options(self) -> dict[str, str]:
        """The ruleset's options every game of the contest is played with."""
        return {"wild_order": self.wild_order} if self.wild_order else {}

    def clean(self) -> None:
        """Settings no game could be played with are refused in the admin, with the reason."""
        from django.core.exceptions import ValidationError

        from referee import MatchConfig
        from referee.engine import RULESETS

        if self.ruleset not in RULESETS:
            raise ValidationError({"ruleset": f"unknown ruleset; known: {', '.join(RULESETS)}"})
        rules = RULESETS[self.ruleset]
        if not rules.min_players <= self.players <= rules.max_players:
            raise ValidationError({"players": f"{self.ruleset} is played by "
                                              f"{rules.min_players}-{rules.max_players}"})
        try:
            MatchConfig(ruleset=self.ruleset, options=self.options(),
                        time_per_move=self.time_per_move)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None

    @classmethod
    def current(cls) -> Contest:
        contest, _ = cls.objects.get_or_create(pk=1)
        return contest


class Standing(models.Model):
    """A version's TrueSkill rating on the ladder and what it has played."""

    version = models.OneToOneField("arena_submissions.Version", on_delete=models.CASCADE,
                                   related_name="standing")
    mu = models.FloatField(default=_ENV.mu)
    sigma = models.FloatField(default=_ENV.sigma)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_game = models.DateTimeField(null=True, blank=True)

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the leaderboard's order (a rating the version very likely exceeds)."""
        return self.mu - 3 * self.sigma


class Game(models.Model):
    SCHEDULED, DONE, FAILED = "scheduled", "done", "failed"
    status = models.CharField(max_length=10, default=SCHEDULED, db_index=True,
                              choices=[(SCHEDULED, "scheduled"), (DONE, "done"),
                                       (FAILED, "failed (not rated)")])
    created = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True, db_index=True)
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    time_per_move = models.FloatField()
    seed = models.BigIntegerField()
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, help_text="the last infrastructure failure")
    rated = models.BooleanField(default=False)
    duration = models.FloatField(null=True, blank=True)
    host = models.CharField(max_length=128, blank=True)
    isolation = models.CharField(max_length=16, blank=True)
    record = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        # The leaderboard's latest games.
        indexes = [models.Index(fields=["status", "-finished"], name="game_status_finished")]

    def __str__(self) -> str:
        return f"game {self.pk}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey("arena_submissions.Version", on_delete=models.PROTECT,
                                related_name="seats")
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    termination = models.CharField(max_length=24, blank=True)
    moves = models.PositiveIntegerField(default=0)
    move_time = models.FloatField(default=0.0)
    cpu_time = models.FloatField(null=True, blank=True)
    log = models.CharField(max_length=500, blank=True, help_text="its process's log file")
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_row_per_seat")]
        # A participant's pages: its versions' latest games first.
        indexes = [models.Index(fields=["version", "-game"], name="seat_version_game")]
