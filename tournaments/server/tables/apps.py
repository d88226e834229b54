from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tournaments.server.tables"
    label = "arena_tables"
    verbose_name = "Games at a table"
