from django.apps import AppConfig


class HouseConfig(AppConfig):
    name = "companion.games.house"
    label = "games_house"
    verbose_name = "Seed 003's house rules"

    def ready(self) -> None:
        # Its options (the identity game's lord pack and house rules), with what they do not go
        # with; their words register when imported; its hooks once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.house import rules, words  # noqa: F401, PLC0415
        from companion.games.house.hooks import HouseGame  # noqa: PLC0415

        rules.declare()
        hooks.register(HouseGame())
