from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "tournaments.server.web"
    label = "arena_web"
