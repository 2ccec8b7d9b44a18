from django.apps import AppConfig


class ManeuveringConfig(AppConfig):
    name = "companion.games.maneuvering"
    label = "games_maneuvering"
    verbose_name = "Maneuvering (军争)"

    def ready(self) -> None:
        # Its option (every table's, whatever its mode) and its cards, added to the deck where
        # it is on; its history lines register when imported (before the other games' clauses
        # on its damage, which follow its own); its hooks once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.maneuvering import words  # noqa: F401, PLC0415
        from companion.games.maneuvering.hooks import ManeuveringGame  # noqa: PLC0415
        from companion.games.maneuvering.rules.deck import register_deck  # noqa: PLC0415

        register_deck()
        hooks.register(ManeuveringGame())
