from __future__ import annotations

from django.apps import AppConfig


class WorkerConfig(AppConfig):
    name = "tournaments.server.worker"
    label = "arena_worker"
    verbose_name = "Worker and the contest's console"
