"""Malformed HTTP against a real `manage.py play` (the session's server, tests/browser/conftest.py):
each request is refused with a 400 and the server's log says so in at most one line, never
with a stack. No browser: raw requests, the server's own log."""

from __future__ import annotations

import http.client
import socket
import time
import urllib.parse

import pytest

from tests.browser.conftest import AppServer
from tests.browser.tables import open_table

pytestmark = [pytest.mark.browser]

MANY_FIELDS = "&".join(f"f{i}=1" for i in range(60)).encode()


def _log(server: AppServer) -> str:
    return server.log_path.read_text(errors="replace")


def _raw(port: int, data: bytes) -> bytes:
    """Send bytes as they are, read the answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(data)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


def test_malformed_requests_log_one_line_each_and_no_stack(app_server: AppServer) -> None:
    table = open_table(app_server.base_url)
    csrf = next(c.value for c in table.host.jar if c.name == "sgs_csrf")
    path = table.host.url + "act/lock"
    port = urllib.parse.urlsplit(app_server.base_url).port
    assert port is not None
    start = len(_log(app_server))
    cookie = f"sgs_csrf={csrf}"
    cases: list[tuple[str, dict[str, str], bytes]] = [
        (
            "too many fields",
            {"Content-Type": "application/x-www-form-urlencoded"},
            MANY_FIELDS,
        ),
        ("multipart without a boundary", {"Content-Type": "multipart/form-data"}, b"x=1"),
        ("a bad Host", {"Host": "evil..example"}, b"locked=1"),
    ]
    for name, headers, body in cases:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request(
            "POST",
            path,
            body=body,
            headers={
                "Cookie": cookie,
                "X-CSRFToken": csrf,
                "Origin": app_server.base_url,
                "Content-Type": "application/x-www-form-urlencoded",
                **headers,
            },
        )
        answer = conn.getresponse()
        answer.read()
        conn.close()
        assert answer.status == 400, name
    assert _raw(port, b"NOT HTTP AT ALL\r\n\r\n").startswith(b"HTTP/1.1 400")
    # Each refusal says so in one line: wait for them (the log is written as it happens).
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        lines = _log(app_server)[start:]
        if lines.count("\n") >= len(cases) + 1:
            break
        time.sleep(0.05)
    logged = _log(app_server)[start:]
    assert "Traceback" not in logged, logged
    assert " ERROR " not in logged, logged
    assert len(logged.splitlines()) <= len(cases) + 1, logged
    assert "DisallowedHost" in logged and "TooManyFieldsSent" in logged, logged
