from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "tournaments.server.ladder"
    label = "arena_ladder"
    verbose_name = "Ladder: games, standings, hand-ins"

    def ready(self) -> None:
        # A version that passes validation gets its standing in the same transaction
        # (submissions sends the signal; it does not know the ladder).
        from tournaments.server.ladder.standings import enter
        from tournaments.server.submissions.signals import version_passed, version_received

        def _enter(sender: Any, version: Any, **kwargs: Any) -> None:
            enter(version)

        version_passed.connect(_enter, weak=False, dispatch_uid="arena_ladder.enter")

        # An upload received before the deadline, written after its team's hand-in was decided.
        from tournaments.server.ladder.handins import reconsider

        def _reconsider(sender: Any, version: Any, **kwargs: Any) -> None:
            reconsider(version)

        version_received.connect(_reconsider, weak=False, dispatch_uid="arena_ladder.reconsider")
