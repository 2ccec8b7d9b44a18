from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Sanguosha table companion"

    def ready(self) -> None:
        # Django's idiom: signal receivers connect when the app is ready (here, delivery
        # listening for committed changes), not when the module list is read.
        from companion.infra import logs  # noqa: F401, PLC0415
        from companion.live import broadcast  # noqa: F401, PLC0415

        logs.install()
