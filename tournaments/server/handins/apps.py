from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class HandinsConfig(AppConfig):
    name = "tournaments.server.handins"
    label = "arena_handins"
    verbose_name = "Hand-ins"

    def ready(self) -> None:
        # An upload received before the deadline, written after its team's hand-in was decided
        # (submissions sends the signal; it does not know the hand-ins).
        from tournaments.server.handins.decisions import reconsider
        from tournaments.server.submissions.signals import version_received

        def _reconsider(sender: Any, version: Any, **kwargs: Any) -> None:
            reconsider(version)

        version_received.connect(_reconsider, weak=False, dispatch_uid="arena_handins.reconsider")
