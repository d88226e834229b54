from __future__ import annotations

from typing import Any

from django.contrib import admin

from tournaments.server.ladder.models import Contest, Game, Seat, Standing


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "ruleset", "players", "time_per_move", "daily_quota", "signup",
                    "paused")


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    readonly_fields = ("seat", "version", "score", "rank", "termination", "moves", "cpu_time",
                       "mu_before", "mu_after")
    exclude = ("log", "move_time", "sigma_before", "sigma_after")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "status", "rated", "created", "finished", "attempts", "host")
    list_filter = ("status", "rated")
    exclude = ("record",)
    inlines = [SeatInline]
    actions = ["cancel", "requeue"]

    @admin.action(description="Cancel the selected scheduled games (never rated)")
    def cancel(self, request: Any, queryset: Any) -> None:
        queryset.filter(status=Game.SCHEDULED).update(
            status=Game.FAILED, error=f"cancelled by {request.user.username}")

    @admin.action(description="Requeue the selected failed games (played again, then rated)")
    def requeue(self, request: Any, queryset: Any) -> None:
        queryset.filter(status=Game.FAILED, rated=False).update(
            status=Game.SCHEDULED, attempts=0, finished=None,
            error=f"requeued by {request.user.username}")


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("version", "mu", "sigma", "games", "wins", "last_game")

