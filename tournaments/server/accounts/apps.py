from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "tournaments.server.accounts"
    label = "arena_accounts"
    verbose_name = "Accounts: API tokens"
