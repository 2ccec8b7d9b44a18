"""A session keeps its hero box (the standard heroes switched off, the heroes added)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("companion", "0011_variantplay_game_options")]

    operations = [
        migrations.AddField(
            model_name="session",
            name="box",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
