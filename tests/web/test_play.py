"""The run command prints reachable addresses and a QR code before serving."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from companion.management.commands import play


def test_join_addresses_prefer_lan_addresses() -> None:
    assert play.join_addresses(8000, ["192.168.1.20", "host.local"]) == [
        "http://192.168.1.20:8000/"
    ]
    assert play.join_addresses(8000, []) == ["http://127.0.0.1:8000/"]


@pytest.mark.django_db
def test_play_prints_addresses_and_qr_then_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    served = {}
    monkeypatch.setattr("companion.management.commands.play.local_addresses", lambda: ["10.1.2.3"])
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(kw, app=app))
    out = io.StringIO()
    call_command("play", "--port", "8123", "--no-migrate", stdout=out)
    text = out.getvalue()
    assert "http://10.1.2.3:8123/" in text
    assert "▀" in text or "█" in text  # the QR code, drawn with block characters
    assert served["host"] == "0.0.0.0" and served["port"] == 8123
    assert served["access_log"] is False
    assert served["app"] == "companion.asgi:application"


@pytest.mark.django_db
def test_play_https_makes_a_certificate_naming_the_lan_address_once(
    monkeypatch: pytest.MonkeyPatch, settings, tmp_path
) -> None:
    """`play --https`: a self-signed certificate for this machine's addresses, made on the first
    run, reused while the addresses stay, made again on a new network; https addresses."""
    import subprocess

    settings.DATA_DIR = tmp_path
    served: dict = {}
    addresses = ["10.1.2.3"]
    monkeypatch.setattr(
        "companion.management.commands.play.local_addresses", lambda: list(addresses)
    )
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(kw))
    out = io.StringIO()
    call_command("play", "--port", "8124", "--no-migrate", "--https", stdout=out)
    assert "https://10.1.2.3:8124/" in out.getvalue()
    assert "http://10.1.2.3" not in out.getvalue()
    cert, key = served["ssl_certfile"], served["ssl_keyfile"]
    assert cert.startswith(str(tmp_path)) and key.startswith(str(tmp_path))
    text = subprocess.run(
        ["openssl", "x509", "-in", cert, "-noout", "-ext", "subjectAltName"],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "IP Address:10.1.2.3" in text and "DNS:localhost" in text
    first = (tmp_path / "tls" / "cert.pem").read_bytes()
    call_command("play", "--port", "8124", "--no-migrate", "--https", stdout=io.StringIO())
    assert (tmp_path / "tls" / "cert.pem").read_bytes() == first, "same network: same certificate"
    addresses[:] = ["192.168.7.9"]
    call_command("play", "--port", "8124", "--no-migrate", "--https", stdout=io.StringIO())
    assert (tmp_path / "tls" / "cert.pem").read_bytes() != first, "a new address: a new one"
