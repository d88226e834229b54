from __future__ import annotations

from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "tournaments.server.ladder"
    label = "arena_ladder"
