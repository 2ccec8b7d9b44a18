"""A game keeps the table's options at its deal (the variants on, per game)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("companion", "0010_modeplay_mode_state")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
