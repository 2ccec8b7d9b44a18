from django.apps import AppConfig


class HouseConfig(AppConfig):
    name = "companion.games.house"
    label = "games_house"
    verbose_name = "Seed 003's house rules"

    def ready(self) -> None:
        # Its options' words register when imported; its hooks once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.house import words  # noqa: F401, PLC0415
        from companion.games.house.hooks import HouseGame  # noqa: PLC0415

        hooks.register(HouseGame())
