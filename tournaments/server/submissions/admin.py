from __future__ import annotations

from typing import Any

from django.contrib import admin

from tournaments.server.submissions.models import RefusedUpload, Version


@admin.register(Version)
class VersionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("participant", "number", "state", "uploaded", "size", "suspended")
    list_filter = ("state",)
    search_fields = ("participant__name", "sha256")
    readonly_fields = (
        "sha256",
        "size",
        "unpacked_bytes",
        "files",
        "archive_format",
        "entry",
        "uploaded",
        "checks",
        "log_tail",
        "validated",
    )
    actions = ["revalidate", "suspend", "restore"]

    @admin.action(description="Validate the selected versions again")
    def revalidate(self, request: Any, queryset: Any) -> None:
        queryset.update(state=Version.PENDING, reason="")

    @admin.action(description="Suspend (they stop playing)")
    def suspend(self, request: Any, queryset: Any) -> None:
        queryset.update(suspended=f"suspended by the organisers ({request.user.username})")

    @admin.action(description="Restore (they may play again)")
    def restore(self, request: Any, queryset: Any) -> None:
        queryset.update(suspended="")


@admin.register(RefusedUpload)
class RefusedUploadAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Archives the server refused (they count against the daily quota): a record, not edited."""

    list_display = ("participant", "at", "uploaded_by", "reason")
    list_filter = ("participant__contest",)
    search_fields = ("participant__name", "reason")

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False
