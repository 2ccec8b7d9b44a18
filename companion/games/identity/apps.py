from django.apps import AppConfig


class IdentityConfig(AppConfig):
    name = "companion.games.identity"
    label = "games_identity"
    verbose_name = "The identity game"

    def ready(self) -> None:
        # Its mode is reachable by its key, and its words are known, once the app is ready.
        from companion.games.identity import words  # noqa: F401, PLC0415
        from companion.games.identity.rules import IdentityMode  # noqa: PLC0415
        from companion.rules import modes  # noqa: PLC0415

        modes.register(IdentityMode())
