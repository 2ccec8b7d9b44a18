from django.apps import AppConfig


class DuelConfig(AppConfig):
    name = "companion.games.duel"
    label = "games_duel"
    verbose_name = "1 vs 1"

    def ready(self) -> None:
        # Its words register when imported; its mode and its game once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.duel import words  # noqa: F401, PLC0415
        from companion.games.duel.hooks import DuelGame  # noqa: PLC0415
        from companion.games.duel.rules import DuelMode  # noqa: PLC0415
        from companion.rules import modes  # noqa: PLC0415

        modes.register(DuelMode())
        hooks.register(DuelGame())
