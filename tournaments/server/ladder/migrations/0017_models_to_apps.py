import django.db.models.deletion
from django.db import migrations, models

# HandIn, Analysis, TableGame and VersionTest moved to apps of their own without a change to the
# database: they keep their tables (Meta.db_table), so this migration changes only Django's
# state (the move: handins, analyses, tables and versiontests 0001, then this one). Only the
# content types move with them (so the admin's history and the permissions stay the models').

MOVED = {"handin": "arena_handins", "analysis": "arena_analyses",
         "tablegame": "arena_tables", "versiontest": "arena_versiontests"}


def _retag(apps, old_of, new_of):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model, app in MOVED.items():
        if ContentType.objects.filter(app_label=new_of(app), model=model).exists():
            continue  # already made (a database migrated back and forth): keep that one
        ContentType.objects.filter(app_label=old_of(app), model=model).update(
            app_label=new_of(app)
        )


def move_content_types(apps, schema_editor):
    _retag(apps, lambda app: "arena_ladder", lambda app: app)


def move_content_types_back(apps, schema_editor):
    _retag(apps, lambda app: app, lambda app: "arena_ladder")


class Migration(migrations.Migration):

    dependencies = [
        ('arena_ladder', '0016_game_logs_deleted'),
        ('arena_handins', '0001_initial'),
        ('arena_analyses', '0001_initial'),
        ('arena_tables', '0001_initial'),
        ('arena_versiontests', '0001_initial'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='game',
                    name='version_test',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='games', to='arena_versiontests.versiontest'),
                ),
                migrations.DeleteModel(name='Analysis'),
                migrations.DeleteModel(name='HandIn'),
                migrations.DeleteModel(name='TableGame'),
                migrations.DeleteModel(name='VersionTest'),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
