"""The contest's console: its settings, its life's actions (freeze, close), what waits for its
workers and where its final is; its transitions and extensions."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages

from tournaments.server.contests.forms import ContestForm
from tournaments.server.contests.models import Contest, Extension, Transition
from tournaments.server.finals import lifecycle


def _by(request: Any) -> str:
    return f"organiser {request.user.get_username()} (admin)"


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "slug",
        "name",
        "state",
        "ruleset",
        "players",
        "time_per_move",
        "deadline",
        "visibility",
        "paused",
        "final",
        "waiting",
    )
    readonly_fields = ("final", "waiting")
    actions = ["freeze", "close"]
    form = ContestForm  # the ruleset from a list, its options from its family's schema

    @admin.display(description="work waiting")
    def waiting(self, contest: Contest) -> str:
        """What waits for its workers, by kind, and since when (worker.backlog)."""
        from tournaments.server.worker.backlog import backlog, describe

        return describe(backlog(contest))

    @admin.display(description="final")
    def final(self, contest: Contest) -> str:
        """Where its final is: scheduled, playing (games done of planned), done."""
        from tournaments.server.finals.status import final_status

        return final_status(contest).describe()

    @admin.action(description="Freeze now: submissions end, active versions handed in")
    def freeze(self, request: Any, queryset: Any) -> None:
        for contest in queryset:
            try:
                lifecycle.set_state(contest, Contest.FROZEN, _by(request))
            except lifecycle.LifecycleError as exc:
                self.message_user(request, str(exc), messages.ERROR)

    @admin.action(description="Close: publish the results")
    def close(self, request: Any, queryset: Any) -> None:
        for contest in queryset:
            try:
                lifecycle.set_state(contest, Contest.CLOSED, _by(request))
            except lifecycle.LifecycleError as exc:
                self.message_user(request, str(exc), messages.ERROR)


@admin.register(Transition)
class TransitionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The contest's steps and who or what made each: a record, not edited."""

    list_display = ("contest", "before", "after", "at", "by")
    list_filter = ("contest",)

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Extension)
class ExtensionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("contest", "participant", "deadline", "reason", "granted_by", "granted")

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        obj.granted_by = obj.granted_by or request.user.username
        super().save_model(request, obj, form, change)
