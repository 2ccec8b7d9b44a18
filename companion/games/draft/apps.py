from django.apps import AppConfig


class DraftConfig(AppConfig):
    name = "companion.games.draft"
    label = "games_draft"
    verbose_name = "The hero draft"

    def ready(self) -> None:
        # Its history lines register when imported.
        from companion.games.draft import words  # noqa: F401, PLC0415
