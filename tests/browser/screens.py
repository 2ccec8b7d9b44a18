"""Phones and screens of a table in a real browser, for the browser tests: a phone's page and the
websocket frames it sent and received, the checks every step makes (every screen agrees; no
page and no frame shows another living player's identity), and a new table's host console.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import BrowserContext, Page, WebSocket, expect

IDENTITIES = ("lord", "loyalist", "rebel", "renegade")
NON_LORD = IDENTITIES[1:]
ZH = {"lord": "主公", "loyalist": "忠臣", "rebel": "反贼", "renegade": "内奸"}
CJK = re.compile(r"[\u4e00-\u9fff]")
MY_SEAT_RE = re.compile(r'<section id="my-seat".*?</section>', re.S)


@dataclass
class Phone:
    name: str
    context: BrowserContext
    page: Page
    url: str = ""
    seat: str = ""
    identity: str = ""
    received: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    sockets: int = 0

    def listen(self, ws: WebSocket) -> None:
        self.sockets += 1
        ws.on("framereceived", lambda payload: self.received.append(_text(payload)))
        ws.on("framesent", lambda payload: self.sent.append(_text(payload)))


def _text(payload: Any) -> str:
    return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload)


# ---------------------------------------------------------------------------------------------
# Assertions shared by every step


def expect_screens_agree(screens: list[Page], names: list[str], status: str) -> int:
    """Every screen shows the same seats in the same order, the same status and version."""
    for page in screens:
        state = page.locator("#table-state")
        expect(state).to_have_attribute("data-status", status)
        expect(state.locator(".seat .seat-name")).to_have_text(names)
        expect(state.locator(".seat .seat-no")).to_have_text(
            [str(n) for n in range(1, len(names) + 1)]
        )
    version = screens[0].locator("#table-state").get_attribute("data-version")
    assert version and version.isdigit()
    for page in screens[1:]:
        expect(page.locator("#table-state")).to_have_attribute("data-version", version)
    return int(version)


def assert_no_foreign_identity(html: str, mine: str, own: str | None, where: str) -> None:
    """`html` (everything but the seat's own private part) holds no non-lord identity at all;
    `mine` (the private part) holds none but the seat's own."""
    public = html.lower()
    private = mine.lower()
    for identity in NON_LORD:
        for marker in (identity, ZH[identity]):
            assert marker not in public, f"{where}: a non-lord identity ({marker!r}) is public"
            if identity != own:
                assert marker not in private, f"{where}: another seat's identity ({marker!r})"


def check_page_secrecy(page: Page, own: str | None, where: str) -> None:
    parts = page.evaluate(
        """() => {
            const mine = document.getElementById('my-seat');
            const clone = document.documentElement.cloneNode(true);
            const cloneMine = clone.querySelector('#my-seat');
            if (cloneMine) cloneMine.remove();
            // The role tips: a role's static goals and tips, the same for every seat
            // of that role, shown only with the seat's own identity; their words name roles in
            // general ("protect the Loyalists"), never a seat. Secrecy of the box itself (same
            // size and shape whatever the role) is tests/read/test_secrecy_role_tips.py.
            const own = mine ? mine.cloneNode(true) : null;
            if (own) own.querySelectorAll('[data-role-tips]').forEach((b) => b.replaceChildren());
            return [clone.outerHTML, own ? own.outerHTML : ''];
        }"""
    )
    assert_no_foreign_identity(parts[0], parts[1], own, where)


def check_frames_secrecy(phone: Phone) -> None:
    assert phone.received, f"{phone.name}: no websocket frame received"
    for frame in phone.received:
        mine = "".join(MY_SEAT_RE.findall(frame))
        assert_no_foreign_identity(
            MY_SEAT_RE.sub("", frame), mine, phone.identity, f"{phone.name} (ws frame)"
        )


# ---------------------------------------------------------------------------------------------
# A new table


def open_new_table(page: Page) -> None:
    """Open a new table from the start page: `page` becomes its host console."""
    page.goto("/")
    page.locator("form[action='/new/'] button").click()
    expect(page).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))


def new_table_console(context: BrowserContext) -> str:
    """Open a new table in a page of its own; the address of its host console."""
    setup = context.new_page()
    open_new_table(setup)
    url = setup.url
    setup.close()
    return url
