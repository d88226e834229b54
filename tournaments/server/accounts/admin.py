from __future__ import annotations

from typing import Any

from django.contrib import admin

from tournaments.server.accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "name", "hint", "created", "last_used", "revoked")
    readonly_fields = ("digest", "hint", "created", "last_used")
    actions = ["revoke"]

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: Any, queryset: Any) -> None:
        for token in queryset:
            token.revoke()
