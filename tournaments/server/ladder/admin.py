from __future__ import annotations

from typing import Any

from django.contrib import admin, messages

from tournaments.server.contests.forms import ContestForm
from tournaments.server.contests.models import Contest, Extension, Transition
from tournaments.server.ladder import lifecycle
from tournaments.server.ladder.models import CANCELLED_BY, Game, HandIn, Seat, Standing, VersionTest


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
        """What waits for its workers, by kind, and since when (ladder.backlog)."""
        from tournaments.server.ladder.backlog import backlog, describe

        return describe(backlog(contest))

    @admin.display(description="final")
    def final(self, contest: Contest) -> str:
        """Where its final is: scheduled, playing (games done of planned), done."""
        from tournaments.server.ladder.finalstate import final_status

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


@admin.register(HandIn)
class HandInAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("contest", "participant", "version", "sha256", "sent", "at", "note")
    list_filter = ("contest",)
    readonly_fields = ("contest", "participant", "version", "sha256", "at", "note", "decided")

    @admin.display(description="sent")
    def sent(self, handin: HandIn) -> Any:
        """When the version handed in was received (what decided it was in time)."""
        return handin.version.uploaded if handin.version else None


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    readonly_fields = (
        "seat",
        "version",
        "score",
        "rank",
        "termination",
        "moves",
        "cpu_time",
        "mu_before",
        "mu_after",
    )
    exclude = ("log", "move_time", "sigma_before", "sigma_after")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "kind", "status", "rated", "created", "finished", "attempts", "host")
    list_filter = ("status", "kind", "rated")
    exclude = ("record",)
    inlines = [SeatInline]
    actions = ["cancel", "requeue"]

    @admin.action(description="Cancel the selected scheduled games (never rated)")
    def cancel(self, request: Any, queryset: Any) -> None:
        queryset.filter(status=Game.SCHEDULED).update(
            status=Game.FAILED, error=f"{CANCELLED_BY}{request.user.username}"
        )

    @admin.action(description="Requeue the selected failed games (played again, then rated)")
    def requeue(self, request: Any, queryset: Any) -> None:
        queryset.filter(status=Game.FAILED, rated=False).update(
            status=Game.SCHEDULED,
            worker="",  # any worker's to play
            attempts=0,
            finished=None,
            error=f"requeued by {request.user.username}",
        )


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("version", "mu", "sigma", "games", "wins", "last_game")


@admin.register(VersionTest)
class VersionTestAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The version tests (`ladder.versiontests`): where each stands, its hypotheses and budget.
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
        from tournaments.server.ladder.versiontests import view

        return view(test).line

    @admin.action(description="Stop the selected tests (no more games; the verdict so far)")
    def stop(self, request: Any, queryset: Any) -> None:
        from tournaments.server.ladder.versiontests import stop

        stopped = sum(stop(test) for test in queryset.filter(verdict=""))
        self.message_user(request, f"{stopped} tests stopped", messages.SUCCESS)

    @admin.action(description="Let the selected stopped tests play on (to their max_games)")
    def play_on(self, request: Any, queryset: Any) -> None:
        count = queryset.exclude(verdict="").update(verdict="", finished=None)
        # One already decided, or at its max_games, is closed again at the ladder's next look.
        self.message_user(request, f"{count} tests play on", messages.SUCCESS)
