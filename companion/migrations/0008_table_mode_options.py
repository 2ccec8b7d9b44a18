"""A table's way to play and its options in one field: the five option booleans carried over."""

from django.db import migrations, models

FLAGS = ("six_two_renegades", "eight_two_renegades", "first_game_mode", "referee_mode", "maneuvering")


def carry_over(apps, schema_editor):
    Table = apps.get_model("companion", "Table")
    for table in Table.objects.all().only("pk", *FLAGS):
        table.mode = "identity"
        table.options = {flag: bool(getattr(table, flag)) for flag in FLAGS}
        table.save(update_fields=["mode", "options"])


def carry_back(apps, schema_editor):
    Table = apps.get_model("companion", "Table")
    for table in Table.objects.all().only("pk", "options"):
        for flag in FLAGS:
            setattr(table, flag, bool((table.options or {}).get(flag, False)))
        table.save(update_fields=list(FLAGS))


class Migration(migrations.Migration):
    dependencies = [("companion", "0007_tap_outcome")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="mode",
            field=models.CharField(default="identity", max_length=16),
        ),
        migrations.AddField(
            model_name="table",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(carry_over, carry_back),
        *(migrations.RemoveField(model_name="table", name=flag) for flag in FLAGS),
    ]
