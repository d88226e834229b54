from __future__ import annotations

from typing import Any

from django.contrib import admin

from tournaments.server.ladder.models import CANCELLED_BY, Game, Seat, Standing, queued


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
    exclude = ("record", "duration")
    readonly_fields = ("took",)
    inlines = [SeatInline]

    @admin.display(description="duration")
    def took(self, game: Game) -> str:
        return "" if game.duration is None else f"{game.duration:.1f} s"

    actions = ["cancel", "requeue"]

    @admin.action(description="Cancel the selected scheduled games (never rated)")
    def cancel(self, request: Any, queryset: Any) -> None:
        queryset.filter(queued()).update(
            status=Game.FAILED, error=f"{CANCELLED_BY}{request.user.username}"
        )

    @admin.action(description="Requeue the selected failed games (played again, then rated)")
    def requeue(self, request: Any, queryset: Any) -> None:
        queryset.filter(status=Game.FAILED, rated=False).exclude(kind=Game.FINAL).update(
            status=Game.SCHEDULED,
            worker="",  # any worker's to play
            attempts=0,
            finished=None,
            error=f"requeued by {request.user.username}",
        )


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("version", "mu", "sigma", "games", "wins", "last_game")
