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
