"""The contest's settings, each version's standing, and the ranked games with their seats.

A game row is written, with its seats and deal seed, *before* it is played; its result, the
replay and every seat's new rating are one transaction when it ends (`ladder.results`). A worker
killed in between leaves the game `scheduled`: the next worker plays it again on the same deal,
and since ratings change only in that one transaction nothing is ever rated twice.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from tournaments.ratings import make_env
from tournaments.server.visibility import GameQuerySet, SeatQuerySet, results_open

_ENV = make_env()


def reset_ids(model: Any) -> None:
    """After a row inserted with its own id: PostgreSQL's id sequence moves past it (else the
    next row made without an id would be given the same one). Nothing to do on SQLite."""
    from django.core.management.color import no_style
    from django.db import connection

    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
            cursor.execute(sql)


class Contest(models.Model):
    """A contest: its rules, its dates and where it is in its life (`ladder.lifecycle`).

    The default contest (id 1) is the one a server without any other plays; the ladder
    worker serves one contest (`server ladder --contest SLUG`). States, in order: draft
    (nothing plays), open (submissions and the ladder), frozen (past the deadline: no more
    submissions, the versions handed in recorded), final (the final tournament), closed
    (results published)."""

    OPEN, CODE = "open", "code"
    DRAFT, FROZEN, FINAL, CLOSED = "draft", "frozen", "final", "closed"
    STATES = [
        (DRAFT, "draft"),
        (OPEN, "open"),
        (FROZEN, "frozen"),
        (FINAL, "final"),
        (CLOSED, "closed"),
    ]
    PUBLIC, HIDDEN = "public", "hidden"
    name = models.CharField(max_length=100, default="Azul Arena ladder")
    slug = models.SlugField(
        max_length=64,
        unique=True,
        null=True,
        blank=True,
        help_text="the contest's short name in commands and URLs",
    )
    state = models.CharField(max_length=8, choices=STATES, default=OPEN)
    visibility = models.CharField(
        max_length=8,
        default=PUBLIC,
        choices=[(PUBLIC, "leaderboard public"), (HIDDEN, "standings hidden until the results")],
    )
    opens = models.DateTimeField(null=True, blank=True, help_text="draft -> open at this time")
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="submission deadline: open -> frozen"
    )
    closes = models.DateTimeField(
        null=True, blank=True, help_text="final -> closed (results published) at this time"
    )
    isolation = models.CharField(
        max_length=16, blank=True, help_text="sandbox level of its games (empty: the strongest)"
    )
    challenge_quota = models.PositiveIntegerField(
        default=5, help_text="unranked challenge games per participant per day"
    )
    final_games_per_pairing = models.PositiveSmallIntegerField(
        default=2, help_text="final round-robin: games per group, seats rotated on one deal"
    )
    final_min_games = models.PositiveIntegerField(
        default=30, help_text="final on a large field (adaptive pairing): games per entry"
    )
    ruleset = models.CharField(max_length=32, default="azul")
    players = models.PositiveSmallIntegerField(default=2, help_text="seats per game, 2-4")
    time_per_move = models.FloatField(default=1.0, help_text="seconds")
    daily_quota = models.PositiveIntegerField(
        default=20, help_text="submissions per participant per day"
    )
    build_timeout = models.PositiveIntegerField(
        default=120,
        validators=[MinValueValidator(1)],
        help_text="seconds a version's build may take at most, whatever its bot.toml asks",
    )
    signup = models.CharField(
        max_length=8, choices=[(OPEN, "open"), (CODE, "invitation code")], default=OPEN
    )
    signup_code = models.CharField(max_length=64, blank=True)
    paused = models.BooleanField(default=False, help_text="the ladder plays no new games")
    final_runner = models.CharField(
        max_length=200,
        blank=True,
        help_text="the process playing the final tournament (HOST pid N): one at a time",
    )
    wild_order = models.CharField(
        max_length=6,
        blank=True,
        help_text=(
            "Summer Pavilion: the wild colour of rounds 1-6, an order of PGOYBR (empty: PGOYBR)"
        ),
    )

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
            raise ValidationError(
                {"players": f"{self.ruleset} is played by {rules.min_players}-{rules.max_players}"}
            )
        try:
            MatchConfig(
                ruleset=self.ruleset, options=self.options(), time_per_move=self.time_per_move
            )
        except ValueError as exc:
            raise ValidationError(str(exc)) from None

    @classmethod
    def current(cls) -> Contest:
        """The default contest (id 1)."""
        contest, made = cls.objects.get_or_create(pk=1, defaults={"slug": "default"})
        if made:
            reset_ids(cls)
        return contest

    @classmethod
    def named(cls, slug: str | None) -> Contest:
        """The contest `slug` (None: the default one); Contest.DoesNotExist when unknown."""
        return cls.current() if slug is None else cls.objects.get(slug=slug)

    @classmethod
    def of(cls, participant: Any) -> Contest:
        """The participant's contest as the database has it now (not a cached copy)."""
        found = cls.objects.filter(pk=participant.contest_id).first()
        return found if found is not None else cls.current()

    @property
    def label(self) -> str:
        return self.slug or str(self.pk)

    def deadline_for(self, participant_id: int) -> Any:
        """The participant's own deadline: an extension granted to it, else the contest's."""
        ext = self.extensions.filter(participant_id=participant_id).order_by("-deadline").first()
        return ext.deadline if ext is not None else self.deadline

    def standings_visible_to(self, user: Any) -> bool:
        """A hidden contest shows its standings to organisers only until it is closed."""
        return results_open(self, user)


class Transition(models.Model):
    """One step of a contest's life (`ladder.lifecycle`), with when and who or what made it:
    an organiser's command, the admin, or a ladder worker acting on the contest's dates."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="transitions")
    before = models.CharField(max_length=8, choices=Contest.STATES)
    after = models.CharField(max_length=8, choices=Contest.STATES)
    at = models.DateTimeField(default=timezone.now)
    by = models.CharField(max_length=200, help_text="who or what made it")

    class Meta:
        ordering = ["contest", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.contest}: {self.before} -> {self.after} by {self.by}"


class WorkerBeat(models.Model):
    """A running ladder worker (HOST pid N), as it last said so: several workers share one
    database, and a scheduled game or a validation whose worker has gone silent is taken up
    by another (`ladder.coordination`)."""

    name = models.CharField(max_length=200, unique=True)
    started = models.DateTimeField(default=timezone.now)
    seen = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


class Extension(models.Model):
    """A later deadline for one participant (a special consideration), with who granted it."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="extensions")
    participant = models.ForeignKey(
        "arena_accounts.Participant", on_delete=models.CASCADE, related_name="extensions"
    )
    deadline = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    granted_by = models.CharField(max_length=150, blank=True)
    granted = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.participant} until {self.deadline:%Y-%m-%d %H:%M}"


class HandIn(models.Model):
    """The version a participant handed in: its active version at its deadline, with the
    archive's hash (what the final tournament plays, and what the grades name)."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="handins")
    participant = models.ForeignKey(
        "arena_accounts.Participant", on_delete=models.CASCADE, related_name="handins"
    )
    version = models.ForeignKey(
        "arena_submissions.Version", on_delete=models.PROTECT, related_name="+"
    )
    sha256 = models.CharField(max_length=64)
    at = models.DateTimeField(help_text="the deadline it was taken at")

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


class Game(models.Model):
    SCHEDULED, DONE, FAILED = "scheduled", "done", "failed"
    LADDER, CHALLENGE = "ladder", "challenge"
    contest = models.ForeignKey(
        Contest, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    kind = models.CharField(
        max_length=10,
        default=LADDER,
        choices=[(LADDER, "ranked ladder game"), (CHALLENGE, "challenge (never rated)")],
    )
    requested_by = models.ForeignKey(
        "arena_accounts.Participant",
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
