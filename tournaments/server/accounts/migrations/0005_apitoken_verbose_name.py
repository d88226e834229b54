from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('arena_accounts', '0004_participant_in_contests'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='apitoken',
            options={'ordering': ['-created'], 'verbose_name': 'API token'},
        ),
    ]
