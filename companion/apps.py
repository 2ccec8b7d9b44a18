from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Sanguosha table companion"

    def ready(self) -> None:
        from companion import logs

        logs.install()
