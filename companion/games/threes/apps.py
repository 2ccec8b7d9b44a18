from django.apps import AppConfig


class ThreesConfig(AppConfig):
    name = "companion.games.threes"
    label = "games_threes"
    verbose_name = "3 vs 3"

    def ready(self) -> None:
        # Its words register when imported; its mode and its game once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.threes import words  # noqa: F401, PLC0415
        from companion.games.threes.hooks import ThreesGame  # noqa: PLC0415
        from companion.games.threes.rules import ThreesMode  # noqa: PLC0415
        from companion.rules import modes  # noqa: PLC0415

        modes.register(ThreesMode())
        hooks.register(ThreesGame())
