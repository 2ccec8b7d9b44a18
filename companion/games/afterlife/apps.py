from django.apps import AppConfig


class AfterlifeConfig(AppConfig):
    name = "companion.games.afterlife"
    label = "games_afterlife"
    verbose_name = "Rebirth and dark souls"

    def ready(self) -> None:
        # Its options (the identity game's variants), with what they do not go with; its words
        # and history lines register when imported; its hooks once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.afterlife import words  # noqa: F401, PLC0415
        from companion.games.afterlife.hooks import AfterlifeGame  # noqa: PLC0415
        from companion.games.afterlife.rules import options  # noqa: PLC0415

        options.declare()
        hooks.register(AfterlifeGame())
