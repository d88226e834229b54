from __future__ import annotations

from typing import Any

from django.contrib import admin

from tournaments.server.handins.models import HandIn


@admin.register(HandIn)
class HandInAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("contest", "participant", "version", "sha256", "sent", "at", "note")
    list_filter = ("contest",)
    readonly_fields = ("contest", "participant", "version", "sha256", "at", "note", "decided")

    @admin.display(description="sent")
    def sent(self, handin: HandIn) -> Any:
        """When the version handed in was received (what decided it was in time)."""
        return handin.version.uploaded if handin.version else None
