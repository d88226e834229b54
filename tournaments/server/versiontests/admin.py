from __future__ import annotations

from typing import Any

from django.contrib import admin, messages

from tournaments.server.versiontests.models import VersionTest


@admin.register(VersionTest)
class VersionTestAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The version tests (`versiontests.runs`): where each stands, its hypotheses and budget.
    They are made by the ladder (each version against its predecessor) or asked for by a
    participant, never here; an organiser may change a test's hypotheses or budget, stop it,
    or let a stopped one play on (after raising its `max_games`)."""

    list_display = ("pk", "contest", "new", "base", "requested_by", "created", "verdict", "now")
    list_filter = ("contest", "verdict")
    list_select_related = ("new__participant", "base__participant", "requested_by", "contest")
    readonly_fields = ("contest", "new", "base", "requested_by", "created", "finished", "now")
    fields = (
        *("contest", "new", "base", "requested_by", "created", "finished"),
        *("elo0", "elo1", "max_games", "verdict", "now"),
    )
    actions = ["stop", "play_on"]

    def has_add_permission(self, request: Any) -> bool:
        return False

    @admin.display(description="where it stands")
    def now(self, test: VersionTest) -> str:
        """The line the version page shows, e.g. 'v3 vs v2: better, LLR 2.97 >= 2.94, ...'."""
        from tournaments.server.versiontests.runs import view

        return view(test).line

    @admin.action(description="Stop the selected tests (no more games; the verdict so far)")
    def stop(self, request: Any, queryset: Any) -> None:
        from tournaments.server.versiontests.runs import stop

        stopped = sum(stop(test) for test in queryset.filter(verdict=""))
        self.message_user(request, f"{stopped} tests stopped", messages.SUCCESS)

    @admin.action(description="Let the selected stopped tests play on (to their max_games)")
    def play_on(self, request: Any, queryset: Any) -> None:
        count = queryset.exclude(verdict="").update(verdict="", finished=None)
        # One already decided, or at its max_games, is closed again at the ladder's next look.
        self.message_user(request, f"{count} tests play on", messages.SUCCESS)
