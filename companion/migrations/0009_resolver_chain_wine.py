"""军争 state of a seat: chained by 铁索连环, and this turn's 酒 marker."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("companion", "0008_table_mode_options")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="chained",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seat",
            name="wine",
            field=models.CharField(blank=True, default="", max_length=8),
        ),
    ]
