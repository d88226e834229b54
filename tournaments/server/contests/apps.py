from __future__ import annotations

from django.apps import AppConfig


class ContestsConfig(AppConfig):
    name = "tournaments.server.contests"
    label = "arena_contests"
    verbose_name = "Contests and their teams"
