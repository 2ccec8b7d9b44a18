"""A mode's own state on the table: teams, draft, placement, the go, fallen heroes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("companion", "0009_resolver_chain_wine")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="mode_state",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
