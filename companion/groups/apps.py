from __future__ import annotations

from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "companion.groups"
    label = "groups"
    verbose_name = "Groups"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A finished or corrected game of an attached evening reaches the group when its change
        # commits, as the screens hear it (companion.outbox).
        from companion.groups import ask, receivers  # noqa: PLC0415

        receivers.connect()
        # "Are you 张三 of 周五三国杀?" on the phones it asks, in their own section.
        ask.add_panel()
