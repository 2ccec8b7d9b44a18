"""The host's options, ticked one after another as fast as a finger goes: each tick reaches the
table, whatever the order the answers and the host panel's re-renders come back in (CI once lost
the second of two quick ticks, so a 军争 table was dealt without 军争)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect

from tests.browser.conftest import ContextFactory
from tests.browser.phone_page import phone_table

pytestmark = [pytest.mark.browser]

OPTIONS = ["first_game_mode", "maneuvering", "referee_mode", "six_two_renegades"]


def tick_all(host: Page, on: bool) -> None:
    """Each option's box ticked (or unticked) in one go: no tick waits for another's answer."""
    host.evaluate(
        """([names, on]) => names.forEach((n) => {
            const box = document.querySelector(`#host-panel input[name=${n}]`);
            box.checked = on;
            box.dispatchEvent(new Event('change', {bubbles: true}));
        })""",
        [OPTIONS, on],
    )


def assert_stored(host: Page, start: int, on: bool, watch: Page | None = None) -> None:
    """Every tick was its own change (one version each, as `watch`, a page with its socket,
    sees); then the page is reloaded, to see what the server stored rather than what the boxes
    show."""
    expect((watch or host).locator("#table-state")).to_have_attribute(
        "data-version", str(start + len(OPTIONS))
    )
    host.reload()
    for name in OPTIONS:
        box = host.locator(f"#host-panel input[name={name}]")
        expect(box).to_be_checked() if on else expect(box).not_to_be_checked()


def test_quick_ticks_of_several_options_all_reach_the_table(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4, play=False)
    host = table.host
    for on in (True, False):
        start = int(host.locator("#table-state").get_attribute("data-version") or "0")
        tick_all(host, on)
        assert_stored(host, start, on)


def test_quick_ticks_over_http_all_reach_the_table(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    """The same with no socket (a phone whose socket is down sends its taps over HTTP): the
    host panel re-rendered by the first tick's answer must not swallow the second."""
    table = phone_table(display_context, new_phone, 4, play=False)
    watch = table.host
    host = display_context.new_page()

    def refuse(ws: WebSocketRoute) -> None:
        ws.close()

    host.route_web_socket(re.compile(r"/ws/"), refuse)
    host.goto(watch.url)
    for on in (True, False):
        host.reload()
        start = int(host.locator("#table-state").get_attribute("data-version") or "0")
        tick_all(host, on)
        assert_stored(host, start, on, watch)
