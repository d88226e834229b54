from __future__ import annotations

from django.apps import AppConfig


class VersiontestsConfig(AppConfig):
    name = "tournaments.server.versiontests"
    label = "arena_versiontests"
    verbose_name = "Version tests"
