"""The phone page at 390x844 (issue 11, items 1-4): the "now" strip at the top of every phone
(whose turn, which phase, who is dying, with the Peach right there), the alerts (vibration, an
optional tone, the wake lock), the first screen (identity, HP, the moment's actions; the hero
card folded away; a dead player's page) and the seats as a ring seen from one's own seat.

Tables are set up by plain requests where only a seat is needed; screenshots for a human go to
test-artifacts/phone-*.png.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import BrowserContext, Dialog, Page, expect

from tests.browser.conftest import ARTIFACTS, ContextFactory, screenshot
from tests.browser.game_steps import join_by_http

pytestmark = [pytest.mark.browser]

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

BOXES_JS = """() => Array.from(document.querySelectorAll('#table-state .ring > .seat')).map(s => {
    const r = s.getBoundingClientRect();
    return {id: s.getAttribute('data-seat'), x: r.x, y: r.y + window.scrollY, w: r.width,
            h: r.height, me: s.classList.contains('me')};
})"""


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
    box = el.bounding_box()
    assert box, selector
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= VIEWPORT["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= VIEWPORT["height"] + 0.5, (selector, box)
    return box


def not_scrolled(page: Page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate("() => window.scrollY") == 0


# ---------------------------------------------------------------------------------------------
# 1. The strip


def test_the_strip_shows_the_turn_and_a_dying_player_with_a_peach_on_another_phone(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 5, maneuvering=True)
    lord = lord_seat(table)
    order = table.order()
    # The dying player: the seat after the lord's (not the lord, so 4 HP); the saviour: another.
    victim = table.by_seat(order[(order.index(lord) + 1) % 5])
    saviour = table.by_seat(order[(order.index(lord) + 2) % 5])
    lord_phone = table.by_seat(lord)
    pages = [p.open() for p in (victim, saviour, lord_phone)]
    for page in pages:
        not_scrolled(page)
        box = in_viewport(page, "#now-strip")
        assert box["y"] < 120, box
        expect(page.locator("#now-strip .now-phase")).to_have_text("回合开始")
    lord_name = lord_phone.name
    expect(saviour.page.locator("#now-strip .now-who")).to_have_text(
        f"{lord_name} 的回合", use_inner_text=True
    )
    expect(lord_phone.page.locator("#now-strip .now-who")).to_have_text(
        "轮到你了！", use_inner_text=True
    )

    bring_down(table, victim.seat)
    strip = saviour.page.locator("#now-strip")
    expect(strip.locator(".now-dying")).to_have_count(1)
    expect(strip.locator(".now-dying-name")).to_have_text(victim.name)
    peach = strip.locator(".now-dying .strip-peach button")
    expect(peach).to_have_text("桃")
    # Another phone: the Peach, not the dying player's Wine; all on the first screen.
    not_scrolled(saviour.page)
    in_viewport(saviour.page, "#now-strip .strip-peach button")
    expect(strip.locator(".strip-wine")).to_be_hidden()
    # The dying player's own phone: Peach and Wine in the strip, "I die" in the dying panel.
    mine = victim.page.locator("#now-strip")
    not_scrolled(victim.page)
    in_viewport(victim.page, "#now-strip .strip-peach button")
    in_viewport(victim.page, "#now-strip .strip-wine button")
    expect(mine.locator(".now-dying .for-me")).to_be_visible()
    in_viewport(victim.page, "#my-seat .dying-panel form[hx-post='act/die'] button")
    expect(victim.page.locator("#my-seat .dying-panel .self-rescue").first).to_be_hidden()
    # The old banner further down is gone from phones (the strip says it), not from the console.
    expect(saviour.page.locator("#table-state .banner-dying")).to_be_hidden()
    expect(table.host.locator("#table-state .banner-dying")).to_be_visible()
    expect(table.host.locator("#now-strip")).to_be_hidden()
    # Scrolled to the bottom of the page, the strip is still there, under the top bar.
    saviour.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert saviour.page.evaluate("() => window.scrollY") > 300
    box = in_viewport(saviour.page, "#now-strip")
    bar = saviour.page.locator(".topbar").bounding_box()
    assert bar and abs(box["y"] - (bar["y"] + bar["height"])) < 2, (box, bar)
    screenshot(saviour.page, "phone-zh-strip-dying-scrolled")
    not_scrolled(saviour.page)
    screenshot(saviour.page, "phone-zh-strip-dying-other")
    screenshot(victim.page, "phone-zh-strip-dying-self")

    # In English (the phone switches language: the page reloads, same seat): the same strip,
    # the Chinese card name beside the English one.
    saviour.page.locator(".lang button").click()
    expect(saviour.page.locator("html")).to_have_attribute("lang", "en")
    expect(saviour.page.locator("#conn")).to_have_attribute("data-state", "open")
    strip = saviour.page.locator("#now-strip")
    peach = strip.locator(".now-dying .strip-peach button")
    expect(peach).to_have_text("Peach 桃")
    expect(strip.locator(".now-who")).to_have_text(f"{lord_name}'s turn", use_inner_text=True)
    not_scrolled(saviour.page)
    in_viewport(saviour.page, "#now-strip .strip-peach button")
    screenshot(saviour.page, "phone-en-strip-dying-other")

    # One tap on the other phone saves the dying player: 0 + 1 = 1 HP, no longer dying.
    peach.click()
    for page in pages:
        expect(page.locator("#now-strip .now-dying")).to_have_count(0)
    victim_seat = table.host.locator(f"#table-state .seat[data-seat='{victim.seat}']")
    expect(victim_seat.locator(".hp-num")).to_have_text("1/4")
    expect(victim_seat).not_to_have_class(re.compile(r"\bdying\b"))
    expect(table.host.locator("#table-state .events li").first).to_contain_text(saviour.name)


def test_a_dead_player_cannot_give_a_peach_from_the_strip(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4)
    lord = lord_seat(table)
    order = table.order()
    dead, dying = (table.by_seat(order[(order.index(lord) + k) % 4]) for k in (1, 2))
    page = dead.open()
    bring_down(table, dead.seat)
    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.locator("#my-seat .dying-panel form[hx-post='act/die'] button").click()
    expect(page.locator("#table-state .seat.me")).to_have_class(re.compile(r"\bdead\b"))
    bring_down(table, dying.seat)
    expect(page.locator("#now-strip .now-dying")).to_have_count(1)
    expect(page.locator("#now-strip .strip-peach")).to_be_hidden()


# ---------------------------------------------------------------------------------------------
# 2. Alerts


def test_alerts_vibrate_on_my_turn_my_dying_and_a_save_and_sound_is_opt_in(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4, alerts=True)
    lord = lord_seat(table)
    order = table.order()
    nxt = table.by_seat(order[(order.index(lord) + 1) % 4])
    other = table.by_seat(order[(order.index(lord) + 2) % 4])
    page = nxt.open()
    other_page = other.open()
    vibrations = "() => window.__vibrations"
    assert page.evaluate(vibrations) == [], "no alert on opening the page"
    assert page.evaluate("() => localStorage.getItem('sgs-sound')") is None
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    in_viewport(page, "#sound-toggle")

    # The host passes the turn to this phone: one vibration, no tone (sound is off).
    host = table.host
    host.bring_to_front()
    host.locator("#host-panel .turn-fix select[name=seat]").select_option(nxt.seat)
    host.locator("#host-panel .turn-fix button").click()
    expect(page.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))
    page.wait_for_function("() => window.__vibrations.length === 1")
    assert page.evaluate("() => window.__tones") == 0
    assert other_page.evaluate(vibrations) == []

    # Sound on (kept on this phone): a tone at once, and from now on with each alert.
    page.locator("#sound-toggle").click()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('sgs-sound')") == "1"
    page.wait_for_function("() => window.__tones > 0")
    tones = page.evaluate("() => window.__tones")

    # Someone else is dying: this phone (alive) may save them: a vibration and a tone; the
    # dying player's own phone vibrates (its own, longer pattern).
    bring_down(table, other.seat)
    page.wait_for_function("() => window.__vibrations.length === 2")
    page.wait_for_function(f"() => window.__tones > {tones}")
    other_page.wait_for_function("() => window.__vibrations.length === 1")
    dying_pattern = other_page.evaluate(vibrations)[0]
    save_pattern = page.evaluate(vibrations)[1]
    assert dying_pattern != save_pattern and sum(dying_pattern) > sum(save_pattern)
    # A change that is none of these (an HP change elsewhere) does not buzz again.
    host_damage(host, lord, 1)
    expect(page.locator(f"#table-state .seat[data-seat='{lord}'] .hp-num")).to_have_text("3/4")
    assert len(page.evaluate(vibrations)) == 2

    # After a reload the switch is still on.
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")


def test_the_wake_lock_is_taken_again_when_the_page_comes_back(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4, alerts=True)
    phone = table.phones[0]
    page = phone.open()
    page.wait_for_function("() => window.__wakeLocks === 1")
    # Hidden: the browser releases the lock; visible again: taken again at once.
    taken = page.evaluate(
        """() => {
            window.__lastLock.release();
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
            document.dispatchEvent(new Event('visibilitychange'));
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'visible'});
            WebSocket.prototype.send = function () {};  // no answer to the wake-up's sync
            document.dispatchEvent(new Event('visibilitychange'));
            return window.__wakeLocks;
        }"""
    )
    assert taken == 2, "the lock is asked for again as soon as the page is visible"


# ---------------------------------------------------------------------------------------------
# 3. The first screen


FIRST_SCREEN = [
    "#now-strip",
    "#my-seat .identity-card",
    "#my-seat .hp-minus",
    "#my-seat .hp-plus",
    "#my-seat .hp-big",
    "#my-seat button[hx-get^='equip/']",
    "#my-seat button[hx-get^='judge/']",
    "#my-seat form[hx-post='act/undo'] button",
]


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_the_first_screen_holds_what_a_player_uses_every_turn(
    display_context: BrowserContext, new_phone: ContextFactory, locale: str
) -> None:
    table = phone_table(display_context, new_phone, 5, locales={i: locale for i in range(5)})
    lord = lord_seat(table)
    order = table.order()
    lang = "zh" if locale == "zh-CN" else "en"
    for who, seat in (("lord", lord), ("other", order[(order.index(lord) + 1) % 5])):
        page = table.by_seat(seat).open()
        not_scrolled(page)
        for selector in FIRST_SCREEN:
            in_viewport(page, selector)
        if who == "lord":
            # The current player's Next phase is on the first screen too.
            in_viewport(page, "#table-state .turn-bar form[hx-post='act/next'] button")
        assert page.evaluate("() => window.scrollY") == 0
        screenshot(page, f"phone-{lang}-first-screen-{who}")
    # No hero in first-game mode: a game with heroes shows the fold (checked below).


def test_the_hero_card_folds_away_in_play(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4, play=False)
    host = table.host
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "heroes")
    pages = [p.open() for p in table.phones]
    # The lord picks first, then the others; each takes its first candidate.
    lord = table.by_seat(lord_seat(table)).open()
    lord.locator("#my-seat .hero-choices .choice button").first.click()
    others = [p for p in pages if p is not lord]
    for i, page in enumerate(others):
        page.locator("#my-seat .hero-choices .choice button").first.click()
        if i < len(others) - 1:
            expect(page.locator("#my-seat .hero-choices .choice.picked")).to_have_count(1)
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    for page in pages:
        fold = page.locator("#my-seat details.hero-fold")
        expect(fold).to_have_count(1)
        expect(fold).not_to_have_attribute("open", "")
        expect(fold.locator(".hero-card")).to_be_hidden()
        expect(fold.locator("summary .hero-name")).to_be_visible()
        not_scrolled(page)
        for selector in FIRST_SCREEN:
            in_viewport(page, selector)
    page = pages[0]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#my-seat").screenshot(path=str(ARTIFACTS / "phone-zh-hero-folded.png"))
    page.locator("#my-seat details.hero-fold > summary").click()
    expect(page.locator("#my-seat .hero-fold .hero-card")).to_be_visible()
    expect(page.locator("#my-seat .hero-fold .take-hero")).to_be_visible()
    page.locator("#my-seat").screenshot(path=str(ARTIFACTS / "phone-zh-hero-open.png"))
    # Opened, it stays open when the seat's part is sent again (here: the whole state, which
    # a phone asks for when it wakes up).
    before = page.locator("#my-seat").evaluate("el => { el.dataset.old = '1'; return 1; }")
    assert before == 1
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#my-seat[data-old]")).to_have_count(0)
    expect(page.locator("#my-seat .hero-fold .hero-card")).to_be_visible()


def test_a_dead_players_page_shows_what_is_left_to_do(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 5)
    lord = lord_seat(table)
    order = table.order()
    dead = table.by_seat(order[(order.index(lord) + 1) % 5])
    page = dead.open()
    bring_down(table, dead.seat)
    page.once("dialog", lambda d: d.accept())
    page.locator("#my-seat .dying-panel form[hx-post='act/die'] button").click()
    expect(page.locator("#my-seat .dead-mark")).to_be_visible()
    # No HP tracker, no HP or equipment buttons; the identity (public now) and the watch link.
    expect(page.locator("#my-seat .hp-tracker")).to_be_hidden()
    expect(page.locator("#my-seat .hp-btn")).to_have_count(0)
    expect(page.locator("#my-seat button[hx-get^='equip/']")).to_have_count(0)
    not_scrolled(page)
    in_viewport(page, "#my-seat .identity-card.open")
    in_viewport(page, "#my-seat .dead-watch a[href='#table-state']")
    in_viewport(page, "#now-strip")
    screenshot(page, "phone-zh-dead")
    page.locator("#my-seat .dead-watch a").click()
    assert page.evaluate("() => window.scrollY") > 100


# ---------------------------------------------------------------------------------------------
# 4. The ring


def _angle(box: dict[str, float], cx: float, cy: float) -> float:
    """Counterclockwise on the screen from the bottom, in degrees [0, 360)."""
    x = box["x"] + box["w"] / 2 - cx
    y = box["y"] + box["h"] / 2 - cy
    return (90 - math.degrees(math.atan2(y, x))) % 360


@pytest.mark.parametrize("count", [4, 7, 10])
def test_the_ring_shows_the_seats_in_play_order_from_my_seat(
    display_context: BrowserContext, new_phone: ContextFactory, count: int
) -> None:
    locales = {2: "en-US"} if count == 10 else None
    table = phone_table(display_context, new_phone, count, locales=locales)
    order = table.order()
    if count == 10:
        # A dying seat (its mark makes the card taller) among them.
        lord = lord_seat(table)
        bring_down(table, order[(order.index(lord) + 4) % count])
    for me in (table.phones[2], table.phones[-1]):
        page = me.open()
        page.locator("#table-state .ring").evaluate("el => el.scrollIntoView({block: 'center'})")
        boxes = page.evaluate(BOXES_JS)
        assert [b["id"] for b in boxes] == order
        # No two seats overlap, all fit the screen's width, each a large target.
        for i, a in enumerate(boxes):
            assert a["x"] >= 0 and a["x"] + a["w"] <= VIEWPORT["width"], a
            assert a["w"] >= 100 and a["h"] >= 56, a
            for b in boxes[i + 1 :]:
                apart = (
                    a["x"] + a["w"] <= b["x"] + 0.5
                    or b["x"] + b["w"] <= a["x"] + 0.5
                    or a["y"] + a["h"] <= b["y"] + 0.5
                    or b["y"] + b["h"] <= a["y"] + 0.5
                )
                assert apart, (count, a, b)
        # My seat at the bottom, in the middle; going counterclockwise from it (the next seat
        # at the bottom right), the seats come in play order.
        mine = next(b for b in boxes if b["me"])
        assert mine["id"] == me.seat
        assert all(mine["y"] >= b["y"] + b["h"] - 0.5 for b in boxes if b is not mine)
        left = min(b["x"] for b in boxes)
        right = max(b["x"] + b["w"] for b in boxes)
        top = min(b["y"] for b in boxes)
        bottom = max(b["y"] + b["h"] for b in boxes)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        assert abs(mine["x"] + mine["w"] / 2 - cx) < 2
        around = sorted(boxes, key=lambda b: _angle(b, cx, cy))
        start = order.index(me.seat)
        assert [b["id"] for b in around] == [order[(start + k) % count] for k in range(count)]
        angles = [_angle(b, cx, cy) for b in around]
        assert len(set(round(a, 3) for a in angles)) == count, angles
        # Next seat to the right of mine, the previous one to the left.
        nxt = next(b for b in boxes if b["id"] == order[(start + 1) % count])
        prev = next(b for b in boxes if b["id"] == order[(start - 1) % count])
        assert nxt["x"] > mine["x"] and prev["x"] < mine["x"]
        # Each seat still opens its dialog.
        page.locator(f"#table-state .seat[data-seat='{nxt['id']}'] .seat-open").click()
        expect(page.locator("#dialog .dialog")).to_have_count(1)
        page.locator("#dialog [data-close-dialog]").first.click()
        expect(page.locator("#dialog .dialog")).to_have_count(0)
        lang = "en" if me is table.phones[2] and count == 10 else "zh"
        ARTIFACTS.mkdir(exist_ok=True)
        name = f"phone-{lang}-ring-{count}-seat{table.phones.index(me)}.png"
        page.locator("#table-state .ring").screenshot(path=str(ARTIFACTS / name))
