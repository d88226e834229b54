from __future__ import annotations

from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "tournaments.server.submissions"
    label = "arena_submissions"
    verbose_name = "Submitted versions"
