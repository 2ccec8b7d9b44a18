from django.apps import AppConfig


class ProtectionConfig(AppConfig):
    name = "companion.games.protection"
    label = "games_protection"
    verbose_name = "The protection of the first player out"

    def ready(self) -> None:
        # Its option (an identity game's variant), with what it does not go with; its words and
        # history lines register when imported; its hooks once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.protection import rules, words  # noqa: F401, PLC0415
        from companion.games.protection.hooks import ProtectionGame  # noqa: PLC0415

        rules.declare()
        hooks.register(ProtectionGame())
