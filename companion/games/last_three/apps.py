from django.apps import AppConfig


class LastThreeConfig(AppConfig):
    name = "companion.games.last_three"
    label = "games_last_three"
    verbose_name = "The last three"

    def ready(self) -> None:
        # Its option (an identity game's variant); its words and history clauses register when
        # imported; its hooks once the models are loaded.
        from companion import hooks  # noqa: PLC0415
        from companion.games.last_three import rules, words  # noqa: F401, PLC0415
        from companion.games.last_three.hooks import LastThreeGame  # noqa: PLC0415

        rules.declare()
        hooks.register(LastThreeGame())
