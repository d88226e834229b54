import django.db.models.deletion
from django.db import migrations, models

# The models moved between apps without a change to the database: they keep their tables
# (Meta.db_table), so this migration changes only Django's state (the move: contests 0001,
# submissions 0003, ladder 0010, accounts 0004, ladder 0011, in that order).


class Migration(migrations.Migration):

    dependencies = [
        ('arena_contests', '0001_initial'),
        ('arena_ladder', '0009_contest_build_timeout'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='handin',
                    name='contest',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='handins', to='arena_contests.contest'),
                ),
                migrations.AlterField(
                    model_name='game',
                    name='contest',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='games', to='arena_contests.contest'),
                ),
                migrations.AlterField(
                    model_name='game',
                    name='requested_by',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='challenges', to='arena_contests.participant'),
                ),
                migrations.AlterField(
                    model_name='handin',
                    name='participant',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='handins', to='arena_contests.participant'),
                ),
                migrations.DeleteModel(name='Transition'),
                migrations.DeleteModel(name='Extension'),
            ],
        ),
    ]
