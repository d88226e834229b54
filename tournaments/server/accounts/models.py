"""API tokens (the accounts are Django's users; who takes part in a contest, a person or a
team of accounts, is a `contests.models.Participant`).

Organisers are Django staff users. An API token lets the CLI act
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

TOKEN_PREFIX = "aat_"


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
        verbose_name = "API token"

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
