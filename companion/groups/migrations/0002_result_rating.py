"""Each result keeps its player's rating after the game; the groups already here are rated
once, every game in order (companion.groups.ratings keeps them after that)."""

from typing import Any

from django.db import migrations, models

from companion.groups.rules.plays import Play, Result
from companion.groups.rules.rating import replay


def rate_every_group(apps: Any, schema_editor: Any) -> None:
    group_result = apps.get_model("groups", "GroupResult")
    for group in apps.get_model("groups", "Group").objects.all():
        rows: dict[int, list[Any]] = {}
        for row in (
            group_result.objects.filter(game__group=group)
            .select_related("game")
            .order_by("game__ended_at", "game_id", "position")
        ):
            rows.setdefault(row.game_id, []).append(row)
        plays = [
            Play(
                pk,
                "",
                rs[0].game.ended_at,
                rs[0].game.ended_at,
                "",
                tuple(
                    Result(r.player_id, "", "", r.team, False, "", False, r.won, 0, 0) for r in rs
                ),
            )
            for pk, rs in rows.items()
        ]
        for play, after in zip(plays, replay(plays, {}), strict=True):
            for row in rows[play.key]:
                row.mu, row.sigma = after.get(row.player_id, (None, None))
        group_result.objects.bulk_update(
            [r for rs in rows.values() for r in rs], ["mu", "sigma"], batch_size=500
        )


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="groupresult",
            name="mu",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="groupresult",
            name="sigma",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.RunPython(rate_every_group, migrations.RunPython.noop),
    ]
