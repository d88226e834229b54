from django.db import migrations

# The models moved between apps without a change to the database: they keep their tables
# (Meta.db_table), so this migration changes only Django's state (the move: contests 0001,
# submissions 0003, ladder 0010, accounts 0004, ladder 0011, in that order).


class Migration(migrations.Migration):

    dependencies = [
        ('arena_accounts', '0004_participant_in_contests'),
        ('arena_ladder', '0010_contest_in_contests'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='Contest')],
        ),
    ]
