"""What changed is what travels, in a real browser: after dying, a 桃,
equipment, a delayed trick, the next phase and the end of a turn, each sent as a delta, a display
and a phone that stayed open show exactly what a screen loaded afresh shows, and none of them
needed the whole state, not even when its socket connected."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from tests.browser import tables
from tests.browser.conftest import AppServer, screenshot

pytestmark = [pytest.mark.browser]

# The parts of a screen a delta may touch, normalized: whitespace folded, htmx's marks dropped.
SCREEN_JS = """() => {
  const norm = el => el ? el.outerHTML.replace(/\\s+/g, ' ').replace(/> </g, '><')
      .replace(/ hx-swap-oob="true"/g, '').replace(/ data-action="[^"]*"/g, '').replace(/ style=""/g, '') : null;
  const state = document.getElementById('table-state');
  return {
    version: state.getAttribute('data-version'),
    strip: norm(document.getElementById('now-strip')),
    seats: Array.from(state.querySelectorAll('.ring > li')).map(norm),
    banners: Array.from(state.querySelectorAll(':scope > .banner')).map(norm),
    turn: norm(state.querySelector('.turn-bar')),
    distances: norm(state.querySelector('.distances')),
    history: Array.from(state.querySelectorAll('.history .events > li')).map(norm),
    order: Array.from(state.children).map(c => c.tagName + '.' + c.className),
  };
}"""


def open_screen(
    browser: Browser, server: AppServer, path: str, wholes: list[str] | None = None
) -> Page:
    """A screen at `path`, open and current; frames with the whole public state that reach it
    go to `wholes`."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="zh-CN", base_url=server.base_url
    )
    page = context.new_page()
    if wholes is not None:

        def watch(ws: WebSocket) -> None:
            def frame(payload: str | bytes) -> None:
                if isinstance(payload, str) and 'id="table-state"' in payload:
                    wholes.append(payload)

            ws.on("framereceived", frame)

        page.on("websocket", watch)
    page.goto(path)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page


def version_of(html: str) -> int:
    found = re.search(r'id="table-state"[^>]*data-version="(\d+)"', html)
    assert found
    return int(found.group(1))


def test_deltas_leave_every_screen_as_a_reload_shows_it(
    browser: Browser, app_server: AppServer
) -> None:
    names = tables.NAMES_ZH[:5]
    table = tables.playing(app_server.base_url, names)
    lord = table.seat_by_identity("lord")
    holder_html = table.host.page()
    turn = re.search(r'class="turn-bar" data-turn-seat="(\d+)"', holder_html)
    assert turn
    victim = next(s for s in table.seats if s is not lord and str(s.id) != turn.group(1))
    wholes: list[list[str]] = [[], []]
    display = open_screen(browser, app_server, table.display_path, wholes[0])
    phone = open_screen(browser, app_server, victim.device.url, wholes[1])
    # A page's socket does not send again the state the page was served with: its first frame
    # says the page is current (tests/live/test_first_frame.py), and neither needs the whole.
    assert wholes == [[], []], "the state was sent again on connect"
    hp = int(re.search(rf'data-seat="{victim.id}".*?class="hp-num">(-?\d+)/', holder_html, re.S)[1])

    steps = [
        ("hp", {"seat": str(victim.id), "delta": str(-hp), "source": str(lord.id)}),  # dying
        ("rescue", {"seat": str(victim.id), "kind": "peach", "by": str(lord.id)}),  # saved
        ("equip", {"seat": str(victim.id), "name": "赤兔"}),  # distances move
        ("equip", {"seat": str(victim.id), "name": "八卦阵"}),
        ("trick", {"seat": str(victim.id), "name": "闪电"}),
        ("unequip", {"seat": str(victim.id), "slot": "minus_horse"}),
        ("next", {}),
        ("endturn", {}),
        ("hp", {"seat": str(victim.id), "delta": "-1", "source": ""}),
    ]
    for i, (tap, fields) in enumerate(steps):
        table.host.act(tap, **fields)
        version = version_of(table.host.page())
        for page in (display, phone):
            expect(page.locator("#table-state")).to_have_attribute("data-version", str(version))
        fresh_display = open_screen(browser, app_server, table.display_path)
        fresh_phone = open_screen(browser, app_server, victim.device.url)
        for kept, fresh, what in (
            (display, fresh_display, "display"),
            (phone, fresh_phone, "phone"),
        ):
            got, want = kept.evaluate(SCREEN_JS), fresh.evaluate(SCREEN_JS)
            for key in want:
                assert got[key] == want[key], f"step {i} ({tap}), {what}: {key} differs"
        # The phone's own HP tracker and dying panel follow too.
        assert phone.locator("#my-hp").inner_text() == fresh_phone.locator("#my-hp").inner_text()
        assert phone.locator(".dying-panel").count() == fresh_phone.locator(".dying-panel").count()
        if i == 0:
            expect(display.locator("#table-state > .banner-dying")).to_have_count(1)
            expect(phone.locator(".dying-panel")).to_have_count(1)
            screenshot(phone, "delta-dying-phone")
        fresh_display.context.close()
        fresh_phone.context.close()
    assert wholes == [[], []], "a change sent the whole state"
    screenshot(display, "delta-after-display")
