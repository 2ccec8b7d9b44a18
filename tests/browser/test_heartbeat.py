"""The heartbeat never cuts a healthy phone, in a real browser.

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


# In the page: each ping's pong deadline (a timer due just after the pong timer the page
# arms with it: timers due later run later), and every close() of a socket still open.
WATCH = """(pongMs) => {
  window.__pongDue = 0;
  window.__liveCloses = 0;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      if (JSON.parse(data).type === 'ping') {
        const n = ++window.__pings;
        setTimeout(() => { window.__pongDue = Math.max(window.__pongDue, n); }, pongMs + 50);
      }
    } catch (e) {}
    return send.call(this, data);
  };
  window.__pings = 0;
  const close = WebSocket.prototype.close;
  WebSocket.prototype.close = function (...args) {
    if (this.readyState === 1) window.__liveCloses += 1;
    return close.apply(this, args);
  };
}"""

# A real phone's pong wait (live.js's default): a busy server's pongs are not late.
PONG_MS = 5000


class SilentRelay(Relay):
    """A relay that swallows the page's first ping and closes that socket, as a server would
    that went away while the ping was unanswered."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        self.cut_at_ping = False
        super().__init__(*args, **kwargs)

    def _route(self, page_side):  # type: ignore[no-untyped-def]
        super()._route(page_side)
        server_side = self.server

        # Replaces the base class's handler of the page's messages.
        def from_page(message):  # type: ignore[no-untyped-def]
            parsed = json.loads(message) if isinstance(message, str) else {}
            self.sent.append(parsed)
            if self.cut_at_ping and parsed.get("type") == "ping":
                self.cut_at_ping = False
                page_side.close(code=1012)
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
    page.evaluate(WATCH, PONG_MS)
    relay.cut_at_ping = True
    page.evaluate(
        "ms => { document.body.setAttribute('data-heartbeat-ms', '1000');"
        "document.body.setAttribute('data-pong-ms', String(ms)); }",
        PONG_MS,
    )
    # The first ping goes unanswered: its socket is closed, the phone opens the next one.
    page.wait_for_function("() => window.__pings >= 1", timeout=30_000)
    # A ping goes only on the current socket, once its state has arrived, and never while one
    # is unanswered on it: the second ping is the next socket's.
    page.wait_for_function("() => window.__pings >= 2", timeout=30_000)
    assert relay.sockets == 2
    # Past the first ping's pong deadline, the page has closed no open socket: the new one is
    # still the one open.
    page.wait_for_function("() => window.__pongDue >= 1", timeout=PONG_MS + 30_000)
    assert page.evaluate("window.__liveCloses") == 0
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    assert relay.sockets == 2
