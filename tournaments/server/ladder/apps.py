from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "tournaments.server.ladder"
    label = "arena_ladder"
    verbose_name = "Ladder: games and standings"

    def ready(self) -> None:
        # A version that passes validation gets its standing in the same transaction
        # (submissions sends the signal; it does not know the ladder).
        from tournaments.server.ladder.standings import enter
        from tournaments.server.submissions.signals import version_passed

        def _enter(sender: Any, version: Any, **kwargs: Any) -> None:
            enter(version)

        version_passed.connect(_enter, weak=False, dispatch_uid="arena_ladder.enter")
