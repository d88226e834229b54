"""Participants and API tokens.

A participant is who appears on the leaderboard and owns bot versions: one person, or a team of
several accounts (its `members`). Organisers are Django staff users. An API token lets the CLI act
for one account; only its SHA-256 is stored (a token is 32 random bytes, so a fast hash is enough:
nothing to guess), and it is shown once, when made.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.server.visibility import ParticipantQuerySet, may_see_private

TOKEN_PREFIX = "aat_"


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
        "arena_ladder.Contest",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="participants",
    )

    objects = (
        ParticipantQuerySet.as_manager()
    )  # who may see which: tournaments/server/visibility.py

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.contest_id is None:
            from tournaments.server.ladder.models import Contest

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


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=64, default="cli")
    digest = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=12, help_text="the token's first characters")
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}...)"

    @classmethod
    def issue(cls, user: Any, name: str = "cli") -> tuple[ApiToken, str]:
        """A new token for `user`: the stored row and the token itself (shown once)."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = cls.objects.create(user=user, name=name[:64], digest=_digest(token), hint=token[:10])
        return row, token

    @classmethod
    def authenticate(cls, token: str) -> Any:
        """The active user a token belongs to, or None (unknown, revoked, inactive user)."""
        if not token.startswith(TOKEN_PREFIX):
            return None
        row = (
            cls.objects.select_related("user")
            .filter(digest=_digest(token), revoked__isnull=True)
            .first()
        )
        if row is None or not row.user.is_active:
            return None
        cls.objects.filter(pk=row.pk).update(last_used=timezone.now())
        return row.user

    def revoke(self) -> None:
        if self.revoked is None:
            self.revoked = timezone.now()
            self.save(update_fields=["revoked"])
