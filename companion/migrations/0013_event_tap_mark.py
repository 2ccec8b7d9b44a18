"""An applied tap's event carries its key and moment: the double-tap window decided in the
database, the same for every process (companion.web.taps)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("companion", "0012_box_session_box")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="tap_key",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="event",
            name="tapped_at",
            field=models.FloatField(blank=True, null=True),
        ),
    ]
