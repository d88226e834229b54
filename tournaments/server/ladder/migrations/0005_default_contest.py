"""The single ladder of a server made before contests existed becomes the default contest
(id 1, slug "default", open): its participants and games are that contest's."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def into_default_contest(apps: Any, schema_editor: Any) -> None:
    Contest = apps.get_model("arena_ladder", "Contest")
    Game = apps.get_model("arena_ladder", "Game")
    Participant = apps.get_model("arena_accounts", "Participant")
    contest = Contest.objects.filter(pk=1).first()
    if contest is None:
        contest = Contest.objects.create(pk=1, slug="default")
        from django.core.management.color import no_style

        with schema_editor.connection.cursor() as cursor:  # PostgreSQL: the sequence past 1
            for sql in schema_editor.connection.ops.sequence_reset_sql(no_style(), [Contest]):
                cursor.execute(sql)
    elif not contest.slug:
        contest.slug = "default"
        contest.save(update_fields=["slug"])
    Participant.objects.filter(contest__isnull=True).update(contest=contest)
    Game.objects.filter(contest__isnull=True).update(contest=contest)


class Migration(migrations.Migration):
    dependencies = [
        ("arena_ladder", "0004_contests"),
        ("arena_accounts", "0003_participant_contest"),
    ]

    operations = [migrations.RunPython(into_default_contest, migrations.RunPython.noop)]
