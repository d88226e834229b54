from __future__ import annotations

from django.contrib import admin

from tournaments.server.contests.models import Enrolment, Participant

# The contest's own admin, with the lifecycle's actions (freeze, the final) and what waits for
# its workers, is the worker app's (worker/admin.py): it sees every kind of work.


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "staff_bot", "created")
    search_fields = ("name", "members__username")
    filter_horizontal = ("members",)


@admin.register(Enrolment)
class EnrolmentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "contest", "added")
    list_filter = ("contest",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
