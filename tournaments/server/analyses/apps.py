from __future__ import annotations

from django.apps import AppConfig


class AnalysesConfig(AppConfig):
    name = "tournaments.server.analyses"
    label = "arena_analyses"
    verbose_name = "Game analyses"
