"""The heartbeat never cuts a healthy phone (issue 19, item 2), in a real browser.

The pong timer belongs to the socket it was started for: a socket the server closed while its
ping was unanswered cannot close the phone's next socket. Intervals shortened through the
page's data-heartbeat-ms and data-pong-ms.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import ContextFactory
from tests.browser.test_outcome import Relay, playing_table

pytestmark = [pytest.mark.browser]


class SilentRelay(Relay):
    """A relay that can swallow the page's pings (no pong comes back)."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        self.drop_pings = False
        super().__init__(*args, **kwargs)

    def _route(self, page_side):  # type: ignore[no-untyped-def]
        super()._route(page_side)
        server_side = self.server

        # Replaces the base class's handler of the page's messages.
        def from_page(message):  # type: ignore[no-untyped-def]
            parsed = json.loads(message) if isinstance(message, str) else {}
            self.sent.append(parsed)
            if self.drop_pings and parsed.get("type") == "ping":
                return
            server_side.send(message)

        page_side.on_message(from_page)


def test_the_pong_timer_of_a_closed_socket_cannot_close_the_next_one(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    _host, seats, urls = playing_table(display_context, new_phone)
    context, _name = seats[1]
    page = context.new_page()
    relay = SilentRelay(page)
    page.goto(urls[1])
    page.bring_to_front()
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    page.evaluate(
        "document.body.setAttribute('data-heartbeat-ms', '4000');"
        "document.body.setAttribute('data-pong-ms', '2000')"
    )
    relay.drop_pings = True
    for _ in range(150):
        if "ping" in relay.kinds():
            break
        page.wait_for_timeout(100)
    assert "ping" in relay.kinds()
    # The server closes the socket while its ping is unanswered; the phone reconnects.
    assert relay.client is not None
    relay.drop_pings = False
    relay.client.close(code=1012)
    for _ in range(50):
        if relay.sockets == 2:
            break
        page.wait_for_timeout(100)
    assert relay.sockets == 2
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    # Past the first socket's pong timer (2 s, before the new socket's own first ping), the new
    # socket is still the one open.
    page.wait_for_timeout(3000)
    assert relay.sockets == 2
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
