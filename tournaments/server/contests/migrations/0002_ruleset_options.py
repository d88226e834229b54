"""The contest's one Summer Pavilion option (wild_order, a text field) becomes one JSON object
of the ruleset's options, whatever its family: the values are kept."""

from django.db import migrations, models

OLD = "wild_order"  # the field this migration retires, and the option it held


def to_options(apps, schema_editor):
    Contest = apps.get_model("arena_contests", "Contest")
    for contest in Contest.objects.exclude(**{OLD: ""}):
        contest.ruleset_options = {OLD: getattr(contest, OLD)}
        contest.save(update_fields=["ruleset_options"])


def to_field(apps, schema_editor):
    Contest = apps.get_model("arena_contests", "Contest")
    for contest in Contest.objects.all():
        setattr(contest, OLD, (contest.ruleset_options or {}).get(OLD, ""))
        contest.save(update_fields=[OLD])


class Migration(migrations.Migration):
    # After the move of the model between apps is complete (ladder 0011).
    dependencies = [("arena_contests", "0001_initial"), ("arena_ladder", "0011_delete_old_contest")]

    operations = [
        migrations.AddField(
            model_name="contest",
            name="ruleset_options",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text=(
                    "the ruleset's options, name to value as text (its family's schema checks "
                    "them)"
                ),
            ),
        ),
        migrations.RunPython(to_options, to_field),
        migrations.RemoveField(model_name="contest", name=OLD),
    ]
