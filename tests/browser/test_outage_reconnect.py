"""A Redis outage as the phone sees it, in a real browser: while the server
cannot reach Redis it closes every socket with 1013 (or refuses the handshake). js/live.js
then tries again at most once a second, not five times (it used to start its backoff again on
every open), and is current again as soon as the server lets it in."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import WebSocketRoute, expect

from tests.browser.conftest import AppServer, ContextFactory
from tests.browser.tables import seated

pytestmark = [pytest.mark.browser]

OUTAGE_MS = 6000


def test_a_phone_tries_again_at_most_once_a_second_while_the_server_says_try_later(
    app_server: AppServer, new_phone: ContextFactory
) -> None:
    table = seated(app_server.base_url, ["赵云"])
    page = new_phone().new_page()
    outage = False
    sockets: list[WebSocketRoute] = []
    refused: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        if not outage:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/"), route)
    page.goto(table.seats[0].device.url)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    outage = True
    sockets[-1].close(code=1013)  # the server's probe found Redis away
    began = time.monotonic()

    # The outage lasts OUTAGE_MS: every socket the page opens meanwhile is accepted, then
    # closed with "try later" a moment after, as the server does while Redis is away.
    def try_later() -> None:
        for ws in sockets[1:]:
            if ws not in refused:
                refused.append(ws)
                ws.close(code=1013)

    while time.monotonic() - began < OUTAGE_MS / 1000:
        page.wait_for_timeout(50)
        try_later()
    outage = False
    try_later()  # one opened in the last moment
    tries = len(refused)
    back = time.monotonic()
    expect(page.locator("#conn")).to_have_attribute("data-state", "open", timeout=5000)
    print(
        f"handshakes in a {OUTAGE_MS / 1000:.0f} s outage: {tries}; current after "
        f"{time.monotonic() - back:.1f} s"
    )
    assert 1 <= tries <= OUTAGE_MS / 1000 + 1, tries
    assert time.monotonic() - back < 5
