"""Run the app for a table: print the addresses phones can reach and a QR code, then serve."""

from __future__ import annotations

import ipaddress
import sys
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from companion.infra.netinfo import local_addresses
from companion.infra.qr import qr_text
from companion.infra.tls import certificate


def join_addresses(
    port: int, addresses: list[str] | None = None, *, scheme: str = "http"
) -> list[str]:
    """The start-page addresses to print, LAN addresses first."""
    found = [
        a for a in (addresses if addresses is not None else local_addresses()) if a[0].isdigit()
    ]
    urls = [f"{scheme}://{address}:{port}/" for address in found]
    return urls or [f"{scheme}://127.0.0.1:{port}/"]


def is_loopback(host: str) -> bool:
    """Whether a host name or address is one only this machine can open (127.x, localhost, ::1)."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Command(BaseCommand):
    help = "Serve the companion on this machine's network and print a QR code to join."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="0.0.0.0")  # noqa: S104 - phones must reach it
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--no-migrate", action="store_true")
        parser.add_argument(
            "--https",
            action="store_true",
            help="serve over https with a self-signed certificate (made on first run): phones "
            "that accept it keep their screen on with the browser's wake lock",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["no_migrate"]:
            call_command("migrate", verbosity=0)
        if "Manifest" in settings.STORAGES["staticfiles"]["BACKEND"]:
            call_command("collectstatic", interactive=False, verbosity=0)
        port = options["port"]
        scheme = "https" if options["https"] else "http"
        if options["host"] in ("0.0.0.0", "::"):  # noqa: S104
            urls = join_addresses(port, scheme=scheme)
        else:
            urls = [f"{scheme}://{options['host']}:{port}/"]
        tls: dict[str, str] = {}
        if options["https"]:
            hosts = [urlsplit(url).hostname or "" for url in urls] + local_addresses()
            cert, key = certificate(settings.DATA_DIR / "tls", hosts)
            tls = {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
        out = self.stdout
        out.write("")
        if all(is_loopback(urlsplit(url).hostname or "") for url in urls) or is_loopback(
            options["host"]
        ):
            self._loopback_only(options["host"], port, scheme)
        else:
            out.write(
                self.style.SUCCESS("三国杀 companion is running. Phones on this network open:")
            )
            for url in urls:
                out.write(f"  {url}")
            out.write(f"  (on this laptop: {scheme}://127.0.0.1:{port}/)")
            out.write("")
            out.write(qr_text(urls[0]))
            out.write("Scan the code with a phone on the same Wi-Fi. Press Ctrl+C to stop.")
            if tls:
                out.write(
                    "The certificate is this laptop's own: each phone warns once that the "
                    "connection is not private; accept it (Chrome: Advanced, Proceed; Safari: "
                    "Show Details, visit this website)."
                )
        sys.stdout.flush()
        uvicorn.run(
            "companion.asgi:application",
            host=options["host"],
            port=port,
            workers=options["workers"],
            access_log=False,
            ws_max_size=settings.WS_MAX_MESSAGE_BYTES * 2,
            ws_per_message_deflate=settings.WS_DEFLATE,
            log_config=None,
            proxy_headers=False,
            **tls,
        )

    def _loopback_only(self, host: str, port: int, scheme: str = "http") -> None:
        """Started so that no phone can reach it: say so, and how to let phones in."""
        out = self.stdout
        out.write(
            self.style.SUCCESS(f"三国杀 companion is running on {scheme}://127.0.0.1:{port}/")
        )
        if host in ("0.0.0.0", "::"):  # noqa: S104
            out.write(
                self.style.WARNING(
                    "Phones cannot join yet: this laptop has no network address. Join the "
                    "venue's Wi-Fi (or start a hotspot), then restart this command."
                )
            )
        else:
            out.write(
                self.style.WARNING(
                    f"Phones cannot join: it listens on {host} only, which only this laptop "
                    "can open."
                )
            )
            out.write(
                f"To let phones on this network join, start it with --host 0.0.0.0 "
                f"(the default): manage.py play --port {port}"
            )
        out.write("Press Ctrl+C to stop.")
