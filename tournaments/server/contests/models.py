"""A contest, who takes part in it and its recorded life.

The tables keep the names they had before this app existed (`Meta.db_table`): the models moved
here from `ladder` and `accounts` without a change to the database (the migrations of the move
change only Django's state).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from tournaments.domain.settings import MatchSettings
from tournaments.server.visibility import ParticipantQuerySet, may_see_private, results_open


def reset_ids(model: Any) -> None:
    """After a row inserted with its own id: PostgreSQL's id sequence moves past it (else the
    next row made without an id would be given the same one). Nothing to do on SQLite."""
    from django.core.management.color import no_style
    from django.db import connection

    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
            cursor.execute(sql)


class Contest(models.Model):
    """A contest: its rules, its dates and where it is in its life (`contests.lifecycle`).

    The default contest (id 1) is the one a server without any other plays; the ladder
    worker serves one contest (`server ladder --contest SLUG`). States, in order: draft
    (nothing plays), open (submissions and the ladder), frozen (past the deadline: no more
    submissions, the versions handed in recorded), final (the final tournament), closed
    (results published)."""

    OPEN, CODE = "open", "code"
    SIGNUP_CLOSED = "closed"  # accounts only from the organisers (`server import-class`)
    SIGNUPS = [
        (OPEN, "open"),
        (CODE, "invitation code"),
        (SIGNUP_CLOSED, "closed: accounts come from the class list"),
    ]
    DRAFT, FROZEN, FINAL, CLOSED = "draft", "frozen", "final", "closed"
    STATES = [
        (DRAFT, "draft"),
        (OPEN, "open"),
        (FROZEN, "frozen"),
        (FINAL, "final"),
        (CLOSED, "closed"),
    ]
    PUBLIC, HIDDEN = "public", "hidden"
    # How the final is played (finals/play.py `final_config`).
    AUTO, ROUND_ROBIN, ADAPTIVE, GRADED = "auto", "round-robin", "adaptive", "graded"
    FINAL_FORMATS = [
        (AUTO, "auto: a round-robin when it costs no more than adaptive pairing, else adaptive"),
        (ROUND_ROBIN, "round-robin"),
        (ADAPTIVE, "adaptive pairing"),
        (GRADED, "graded: each team against each staff bot, then adaptive among the teams"),
    ]
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
    version_test_games = models.PositiveIntegerField(
        default=5000,
        help_text="unrated games for version tests (v2 vs v1 in duplicate pairs), in all (0: none)",
    )
    compare_quota = models.PositiveIntegerField(
        default=3, help_text="version tests a participant may ask for per day"
    )
    visitors_may_play = models.BooleanField(
        default=False, help_text="visitors (not signed in) may play the bots in the browser"
    )
    final_games_per_pairing = models.PositiveSmallIntegerField(
        default=2, help_text="final round-robin: games per group, seats rotated on one deal"
    )
    final_min_games = models.PositiveIntegerField(
        default=30, help_text="final on a large field (adaptive pairing): games per entry"
    )
    final_format = models.CharField(max_length=12, choices=FINAL_FORMATS, default=AUTO)
    final_graded_games = models.PositiveSmallIntegerField(
        default=12,
        help_text="graded final: games each team plays against each staff bot (with 3-4 players, "
        "each group of staff bots), on shared deals, seats rotated: a multiple of the players",
    )
    final_ranking_games = models.PositiveIntegerField(
        default=10,
        help_text="graded final: games each team then plays against other teams (adaptive "
        "pairing; 0: none)",
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
        max_length=8,
        choices=SIGNUPS,
        default=OPEN,
    )
    signup_code = models.CharField(max_length=64, blank=True)
    paused = models.BooleanField(default=False, help_text="the ladder plays no new games")
    final_runner = models.CharField(
        max_length=200,
        blank=True,
        help_text="the process playing the final tournament (HOST pid N): one at a time",
    )
    ruleset_options = models.JSONField(
        default=dict,
        blank=True,
        help_text="the ruleset's options, name to value as text (its family's schema checks them)",
    )
    # The worker's slot time by kind of work, as weights (worker/shares.py): while several
    # kinds wait, each gets its share; ranked games take what the others leave.
    ranked_share = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1)], help_text="share of slot time: ranked games"
    )
    challenge_share = models.PositiveSmallIntegerField(
        default=1, help_text="share of slot time: challenges (0: only slots nothing else wants)"
    )
    test_share = models.PositiveSmallIntegerField(
        default=1, help_text="share of slot time: version tests (0: only slots nothing else wants)"
    )
    analysis_share = models.PositiveSmallIntegerField(
        default=1, help_text="share of slot time: game analyses (0: only slots nothing else wants)"
    )
    # A term's seat logs grow with its games (two files a game; up to a MiB a seat for a bot
    # that prints much): ladder/retention.py deletes them once older than this.
    keep_logs_days = models.PositiveIntegerField(
        default=0,
        help_text="days a game's bot logs are kept once it has ended (0: for ever); each "
        "team's latest games keep theirs, and the games' records are kept",
    )

    class Meta:
        db_table = "arena_ladder_contest"

    def __str__(self) -> str:
        return self.name

    def options(self) -> dict[str, str]:
        """The ruleset's options every game of the contest is played with."""
        return {str(k): str(v) for k, v in (self.ruleset_options or {}).items()}

    def match_settings(self, isolation: str | None = None) -> MatchSettings:
        """How the contest's games are played now, its ladder's and its final's
        (`isolation`: a worker's own choice, else the contest's, else the strongest there is).
        A participant's bot is not told whom it plays: no collusion or grudges by name, and no
        list of a hidden contest's teams."""
        return MatchSettings(
            ruleset=self.ruleset,
            options=self.options(),
            time_per_move=self.time_per_move,
            isolation=isolation or self.isolation or None,
            build_timeout=float(self.build_timeout),
            anonymous=True,
        )

    def shares(self) -> dict[str, int]:
        """The worker's slot time by kind of work (worker/shares.py's kinds)."""
        return {
            "ranked": self.ranked_share,
            "challenge": self.challenge_share,
            "test": self.test_share,
            "analysis": self.analysis_share,
        }

    def clean(self) -> None:
        """Settings no game could be played with are refused in the admin, with the reason."""
        from django.core.exceptions import ValidationError

        from referee.engine import RULESETS, EngineError, check_options

        if self.ruleset not in RULESETS:
            raise ValidationError({"ruleset": f"unknown ruleset; known: {', '.join(RULESETS)}"})
        rules = RULESETS[self.ruleset]
        if not rules.min_players <= self.players <= rules.max_players:
            raise ValidationError(
                {"players": f"{self.ruleset} is played by {rules.min_players}-{rules.max_players}"}
            )
        if not isinstance(self.ruleset_options, dict):
            raise ValidationError({"ruleset_options": "a JSON object: option name to value"})
        try:
            check_options(self.ruleset, self.options())
        except EngineError as exc:
            raise ValidationError({"ruleset_options": str(exc)}) from None
        try:
            self.match_settings().to_match_config(seed=0)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        self._clean_final()

    def _clean_final(self) -> None:
        from django.core.exceptions import ValidationError

        formats = [value for value, _ in self.FINAL_FORMATS]
        if self.final_format not in formats:
            raise ValidationError(
                {
                    "final_format": f"final format {self.final_format!r} is not one of "
                    f"{', '.join(formats)}"
                }
            )
        graded = self.final_graded_games
        if self.final_format == self.GRADED and (graded < self.players or graded % self.players):
            # Seat advantage cancels only over a whole rotation of the seats on one deal.
            raise ValidationError(
                {
                    "final_graded_games": f"a graded final plays each team against the staff "
                    f"bots in whole seat rotations: a multiple of {self.players} (the players) "
                    f"games, not {graded}"
                }
            )

    @classmethod
    def current(cls) -> Contest:
        """The default contest (id 1)."""
        contest, made = cls.objects.get_or_create(pk=1, defaults={"slug": "default"})
        if made:
            reset_ids(cls)
        return contest

    @classmethod
    def front(cls) -> Contest:
        """The contest of the site's front page and its sign-up: the one the site's setting
        names (FRONT_CONTEST, `server run --contest`); else, while the default contest has
        nobody in it, the one contest open (or the one contest past its draft); else the
        default contest."""
        if settings.FRONT_CONTEST:
            named = cls.objects.filter(slug=settings.FRONT_CONTEST).first()
            if named is not None:
                return named
        default = cls.current()
        if default.participants.exists():
            return default
        others = list(cls.objects.exclude(pk=default.pk).exclude(state=cls.DRAFT)[:50])
        open_ = [c for c in others if c.state == cls.OPEN]
        if len(open_) == 1:
            return open_[0]
        return others[0] if len(others) == 1 else default

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
    """One step of a contest's life (`contests.lifecycle`), with when and who or what made it:
    an organiser's command, the admin, or a ladder worker acting on the contest's dates."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="transitions")
    before = models.CharField(max_length=8, choices=Contest.STATES)
    after = models.CharField(max_length=8, choices=Contest.STATES)
    at = models.DateTimeField(default=timezone.now)
    by = models.CharField(max_length=200, help_text="who or what made it")

    class Meta:
        db_table = "arena_ladder_transition"
        ordering = ["contest", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.contest}: {self.before} -> {self.after} by {self.by}"


class Extension(models.Model):
    """A later deadline for one participant (a special consideration), with who granted it."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="extensions")
    participant = models.ForeignKey(
        "Participant", on_delete=models.CASCADE, related_name="extensions"
    )
    deadline = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    granted_by = models.CharField(max_length=150, blank=True)
    granted = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "arena_ladder_extension"

    def __str__(self) -> str:
        return f"{self.participant} until {self.deadline:%Y-%m-%d %H:%M}"


class Enrolment(models.Model):
    """An account a class list put in a contest (`server import-class`). A later import updates
    it (a new team, a new email) even once its student has set a password; an account with a
    password of its own and no enrolment signed up by itself, perhaps under a student's login
    before the list came, and an import refuses to hand it the student's team. An organiser
    adds one in the admin for an account that is the student's (from another contest)."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="enrolments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="enrolments"
    )
    added = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["contest", "user"], name="one_enrolment_per_contest")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.contest}"


class Participant(models.Model):
    name = models.SlugField(
        max_length=64, unique=True, help_text="shown on the leaderboard; letters, digits, - and _"
    )
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="participants")
    created = models.DateTimeField(default=timezone.now)
    # The version that plays, when its owner chose one; else the newest that passed validation.
    pinned = models.ForeignKey(
        "arena_submissions.Version",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    staff_bot = models.BooleanField(default=False, help_text="a reference bot of the organisers")
    # Its contest (None is the default contest: set on save).
    contest = models.ForeignKey(
        Contest,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="participants",
    )

    objects = (
        ParticipantQuerySet.as_manager()
    )  # who may see which: tournaments/server/visibility.py

    class Meta:
        db_table = "arena_accounts_participant"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.contest_id is None:
            self.contest = Contest.current()
        super().save(*args, **kwargs)

    def is_member(self, user: Any) -> bool:
        return bool(user.is_authenticated and self.members.filter(pk=user.pk).exists())

    def may_see_private(self, user: Any) -> bool:
        """Logs, sources and archives: the participant's members and the organisers only."""
        return may_see_private(self, user)


def participant_of(user: Any) -> Participant | None:
    """The participant `user` submits for (their first; a team member has one)."""
    if not user.is_authenticated:
        return None
    return user.participants.order_by("pk").first()  # type: ignore[no-any-return]
