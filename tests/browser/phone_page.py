"""A table of phones at 390x844 for the phone-page tests (test_phone_*.py): names of
every length, the alert stub (vibration, tones and the wake lock recorded), each phone's seat
and page, the table in play order, the lord, the host's damage and a player brought down, and
whether an element is in view without scrolling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import ContextFactory
from tests.browser.game_steps import join_by_http

# Names of every length a table has (16 characters at most), Chinese and Latin.
NAMES = [
    "阿明",
    "小红",
    "Alexandra Long",
    "老王",
    "诸葛孔明先生",
    "Kai",
    "司马仲达",
    "Bartholomew",
    "小乔",
    "王五六",
]
VIEWPORT = {"width": 390, "height": 844}

# An init script: record navigator.vibrate calls, and the tones started through WebAudio.
ALERT_STUB = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, 'vibrate', {
  configurable: true,
  value: function (pattern) { window.__vibrations.push(pattern); return true; },
});
window.__tones = 0;
if (window.AudioContext) {
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.__tones += 1;
    return create.call(this);
  };
}
window.__wakeLocks = 0;
Object.defineProperty(Navigator.prototype, 'wakeLock', {
  configurable: true,
  get: function () {
    return { request: function () {
      window.__wakeLocks += 1;
      const lock = new EventTarget();
      lock.release = function () { lock.dispatchEvent(new Event('release')); return Promise.resolve(); };
      window.__lastLock = lock;
      return Promise.resolve(lock);
    } };
  },
});
"""


@dataclass
class PhoneSeat:
    name: str
    context: BrowserContext
    url: str
    seat: str = ""
    page: Page | None = None

    def open(self) -> Page:
        if self.page is None:
            self.page = self.context.new_page()
            self.page.goto(self.url)
            expect(self.page.locator("#conn")).to_have_attribute("data-state", "open")
            self.seat = self.page.locator("#my-seat").get_attribute("data-seat") or ""
        return self.page


@dataclass
class PhoneTable:
    host: Page
    phones: list[PhoneSeat] = field(default_factory=list)

    def by_seat(self, seat: str) -> PhoneSeat:
        return next(p for p in self.phones if p.seat == seat)

    def order(self) -> list[str]:
        """Seat ids in play order, as the host console shows them."""
        return [
            s.get_attribute("data-seat") or ""
            for s in self.host.locator("#table-state .ring > .seat").all()
        ]


def phone_table(
    display_context: BrowserContext,
    new_phone: ContextFactory,
    count: int,
    *,
    play: bool = True,
    maneuvering: bool = False,
    locales: dict[int, str] | None = None,
    alerts: bool = False,
) -> PhoneTable:
    """A host console and `count` seated phones (pages not yet open); in play (first-game mode:
    no hero picks) unless `play` is False."""
    host = display_context.new_page()
    host.goto("/")
    host.locator("form[action='/new/'] button").click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    join_url = host.locator(".join-url").inner_text().strip()
    table = PhoneTable(host)
    for i, name in enumerate(NAMES[:count]):
        context = new_phone(locale=(locales or {}).get(i, "zh-CN"))
        if alerts:
            context.add_init_script(ALERT_STUB)
        table.phones.append(PhoneSeat(name, context, join_by_http(context, join_url, name)))
    expect(host.locator("#table-state .seat")).to_have_count(count)
    ids = table.order()
    for phone, seat in zip(table.phones, ids, strict=True):
        phone.seat = seat
    if not play:
        return table
    options = [("first_game_mode", True), ("maneuvering", maneuvering)]
    for name, on in options:
        if on:
            host.locator(f"#host-panel input[name={name}]").check()
            expect(host.locator(f"#host-panel input[name={name}]")).to_be_checked()
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    return table


def lord_seat(table: PhoneTable) -> str:
    return table.host.locator("#table-state .seat.is-lord").get_attribute("data-seat") or ""


def host_damage(host: Page, seat: str, amount: int, source: str = "") -> None:
    """The host taps a seat, the amount and the source: one change."""
    host.bring_to_front()
    host.locator(f"#table-state .seat[data-seat='{seat}'] .seat-open").click()
    dialog = host.locator("#dialog .dialog")
    dialog.locator("label", has=host.locator(f"input[name=delta][value='-{amount}']")).click()
    dialog.locator(f".damage-form .source-grid button[value='{source}']").click()
    expect(dialog).to_have_count(0)


def bring_down(table: PhoneTable, seat: str) -> None:
    """Damage a seat (4 HP, first-game mode, not the lord) to 0: dying."""
    host_damage(table.host, seat, 3)
    host_damage(table.host, seat, 1)
    expect(table.host.locator(f"#table-state .seat[data-seat='{seat}']")).to_have_class(
        re.compile(r"\bdying\b")
    )


def in_viewport(page: Page, selector: str) -> dict[str, float]:
    """The element's box in the viewport; fails unless it is visible and wholly inside."""
    el = page.locator(selector)
    expect(el).to_be_visible()
    box = box_of(el)
    assert box, selector
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= VIEWPORT["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= VIEWPORT["height"] + 0.5, (selector, box)
    return box


def not_scrolled(page: Page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate("() => window.scrollY") == 0
