from __future__ import annotations

from django.apps import AppConfig


class FinalsConfig(AppConfig):
    name = "tournaments.server.finals"
    label = "arena_finals"
    verbose_name = "Finals"
