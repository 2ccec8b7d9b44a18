"""Steps of a 4-player game in a real browser, for the browser tests: the four players, a phone's
seat and the table as every screen shows them, picking heroes, tapping, opening a seat, the
host's damage, a confirmation dialog, dealing four seats, and a table whose seats were taken
with plain requests (quicker where only the seats are needed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import BrowserContext, Dialog, Page, expect

from companion.rules.heroes import STANDARD_HEROES
from tests.browser.conftest import ContextFactory
from tests.browser.screens import ZH, Phone, expect_screens_agree

# No player is named like a hero, so a hero name on a page is always a hero.
NAMES = ["阿明", "小红", "老王", "Kai"]
HEROES = {hero.id: hero for hero in STANDARD_HEROES}
VERSION_RE = re.compile(r'data-version="(\d+)"')

SEATS_JS = """() => Array.from(document.querySelectorAll('#table-state .ring > .seat')).map(s => {
    const text = sel => { const el = s.querySelector(sel); return el ? el.textContent.trim() : ''; };
    const idn = s.querySelector('.idn');
    const found = idn && idn.className.match(/\\bidn-(lord|loyalist|rebel|renegade)\\b/);
    return {
        id: s.getAttribute('data-seat'),
        name: text('.seat-name'),
        identity: found ? found[1] : '',
        identity_text: text('.idn'),
        hero: text('.seat-hero [lang="zh-CN"]'),
        hp: text('.hp-num'),
        jades: s.querySelectorAll('.seat-hp .jade').length,
        lit: s.querySelectorAll('.seat-hp .jade.on').length,
        dying: s.classList.contains('dying') && !!s.querySelector('.dying-mark'),
        dead: s.classList.contains('dead'),
        fate: text('.dead-mark'),
    };
})"""


@dataclass
class Seat:
    """What the test expects of one seat; every screen must show exactly this."""

    id: str
    name: str
    phone: Phone
    identity: str = ""
    hero: str = ""
    hp: int = 0
    max_hp: int = 0
    alive: bool = True
    dying: bool = False
    killer: str = ""

    def shown(self, *, over: bool) -> dict[str, Any]:
        public = self.identity == "lord" or not self.alive or over
        return {
            "id": self.id,
            "name": self.name,
            "identity": self.identity if public else "",
            "identity_text": ZH[self.identity] if public else "?",
            "hero": HEROES[self.hero].name_zh if self.hero else "",
            # HP shows never below 0, and a dead seat shows none.
            "hp": f"{max(self.hp, 0)}/{self.max_hp}" if self.max_hp and self.alive else "",
            "jades": self.max_hp if self.alive else 0,
            "lit": max(self.hp, 0) if self.alive else 0,
            "dying": self.dying,
            "dead": not self.alive,
            "fate": "" if self.alive else self.killer,  # named in the seat's dead mark
        }


class Table:
    """The screens and the expected state, with the agreement check after every step."""

    def __init__(self, host: Page, display: Page, seats: list[Seat], version: int) -> None:
        self.host = host
        self.display = display
        self.seats = seats
        self.version = version

    @property
    def screens(self) -> list[Page]:
        return [self.host, self.display, *(s.phone.page for s in self.seats)]

    def by_identity(self, identity: str) -> Seat:
        return next(s for s in self.seats if s.identity == identity)

    def agree(self, steps: int, status: str, *, heroes: bool = True) -> int:
        """After `steps` more changes every screen shows the same version, status and seats."""
        self.version += steps
        over = status == "finished"
        expected = [s.shown(over=over) for s in self.seats]
        if not heroes:
            for row in expected:
                row.update(hero="", hp="", jades=0, lit=0)
        for page in self.screens:
            state = page.locator("#table-state")
            expect(state).to_have_attribute("data-version", str(self.version))
            expect(state).to_have_attribute("data-status", status)
            shown = page.evaluate(SEATS_JS)
            assert len(shown) == len(expected), f"{page.url}: {len(shown)} seats"
            for row, want in zip(shown, expected, strict=True):
                fate = row["fate"]
                # Dead: a mark naming the killer ("被 X 击杀"), or saying "dead" when no source.
                assert bool(fate) == want["dead"] and want["fate"] in fate, (page.url, row)
                row["fate"] = want["fate"]
            assert shown == expected, f"{page.url}: seats differ"
            expect(state.locator(".banner-dying")).to_have_count(
                sum(1 for s in self.seats if s.dying)
            )
        # Private fragments go only to the seats a change touches: check their content.
        for seat in self.seats:
            mine = seat.phone.page.locator("#my-seat")
            if heroes and seat.max_hp and seat.alive:
                expect(mine.locator(".hp-big")).to_have_text(f"{max(seat.hp, 0)}/{seat.max_hp}")
                expect(mine.locator(".hp-tracker .jade")).to_have_count(seat.max_hp)
                expect(mine.locator(".hp-tracker .jade.on")).to_have_count(max(seat.hp, 0))
            expect(mine.locator(".dying-panel")).to_have_count(1 if seat.dying else 0)
        return self.version


def hero_names(page: Page, scope: str) -> list[str]:
    # The text, not what is painted: a hero candidate's card is folded in its list line
    # (big tables on small phones) until tapped.
    return page.locator(f"{scope} .hero-card header .hero-name [lang='zh-CN']").all_text_contents()


def candidate_ids(page: Page) -> list[str]:
    return [
        v or ""
        for v in page.locator("#my-seat .hero-choices input[name=hero]").evaluate_all(
            "inputs => inputs.map(i => i.value)"
        )
    ]


def assert_no_foreign_heroes(html: str, allowed: set[str], where: str) -> None:
    """No hero but the allowed ones (ids) is named in `html`, by id or Chinese name."""
    for hero in STANDARD_HEROES:
        if hero.id in allowed:
            continue
        assert hero.id not in html, f"{where}: hero {hero.id} ({hero.name_zh}) leaked"
        assert hero.name_zh not in html, f"{where}: hero {hero.name_zh} leaked"


def frames_between(phone: Phone, first: int, end: int) -> list[str]:
    """The frames this screen received that show a version in first..end-1."""
    kept = []
    for frame in phone.received:
        found = VERSION_RE.search(frame)
        if found and first <= int(found.group(1)) < end:
            kept.append(frame)
    return kept


def page_html(page: Page) -> str:
    return str(page.evaluate("() => document.documentElement.outerHTML"))


def expect_pick_count(display: Page, picked: int, of: int) -> None:
    """The display's banner says how many have picked, in either word order."""
    a, b = (picked, of)
    expect(display.locator("#table-state .banner")).to_have_text(
        re.compile(rf"(^|\D){a}\D+{b}(\D|$)|(^|\D){b}\D+{a}(\D|$)")
    )


def pick(page: Page, hero_id: str) -> None:
    choice = page.locator(f"#my-seat .hero-choices .choice:has(input[value='{hero_id}'])")
    choice.locator("button").click()


def tap(page: Page, selector: str) -> None:
    """Click on a page of the shared display context: in front first, as a hidden tab makes
    Playwright's stability checks crawl."""
    page.bring_to_front()
    page.locator(selector).click()


def open_seat(page: Page, seat: Seat) -> Any:
    page.bring_to_front()
    page.locator(f"#table-state .seat[data-seat='{seat.id}'] .seat-open").click()
    dialog = page.locator("#dialog .dialog")
    expect(dialog.locator("#seat-dialog-title")).to_contain_text(seat.name)
    return dialog


def host_damage(host: Page, target: Seat, amount: int, source: Seat | None) -> None:
    """The host taps a seat in the ring, the amount, then the source: one change."""
    dialog = open_seat(host, target)
    dialog.locator("label", has=host.locator(f"input[name=delta][value='-{amount}']")).click()
    value = source.id if source else ""
    dialog.locator(f".damage-form .source-grid button[value='{value}']").click()
    expect(dialog).to_have_count(0)
    target.hp -= amount
    if target.hp <= 0:
        target.dying = True
        target.killer = source.name if source else ""


def accept_next_dialog(page: Page, seen: list[str]) -> None:
    def accept(dialog: Dialog) -> None:
        seen.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)


# ---------------------------------------------------------------------------------------------


def deal_four(display_context: BrowserContext, new_phone: ContextFactory) -> tuple[Table, Phone]:
    """A host console, the display and four phones seated; identities dealt and checked.
    Returns the table and the display's socket recorder."""
    host = display_context.new_page()
    host.goto("/")
    host.locator("form[action='/new/'] button").click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    join_url = host.locator(".join-url").inner_text().strip()
    code = join_url.rstrip("/").rsplit("/", 1)[-1]
    display = display_context.new_page()
    watcher = Phone(name="display", context=display_context, page=display)
    display.on("websocket", watcher.listen)
    display.goto(f"/t/{code}/")
    expect(display.locator("#conn")).to_have_attribute("data-state", "open")

    # The seats are taken with plain requests (joining by tapping the form is
    # tests/browser/test_table_flow_whole.py's); each phone then opens its own seat's page.
    phones: list[Phone] = []
    for name in NAMES:
        context = new_phone()
        url = join_by_http(context, join_url, name)
        page = context.new_page()
        phone = Phone(name=name, context=context, page=page)
        page.on("websocket", phone.listen)
        page.goto(url)
        phone.url = page.url
        phone.seat = page.locator("#my-seat").get_attribute("data-seat") or ""
        assert phone.seat, name
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        phones.append(phone)
    pages = [p.page for p in phones]
    version = expect_screens_agree([host, display, *pages], NAMES, "lobby")

    # The host deals identities: one of each in a 4-player game.
    tap(host, "#host-panel form[hx-post='act/deal'] button")
    seats = [Seat(id=p.seat, name=p.name, phone=p) for p in phones]
    table = Table(host, display, seats, version)
    for seat in seats:
        card = seat.phone.page.locator("#my-seat .identity-card")
        expect(card).to_have_class(re.compile(r"\bidn-(lord|loyalist|rebel|renegade)\b"))
        found = re.search(r"\bidn-(\w+)\b", card.get_attribute("class") or "")
        assert found
        seat.identity = seat.phone.identity = found.group(1)
    assert sorted(s.identity for s in seats) == ["lord", "loyalist", "rebel", "renegade"]
    table.agree(1, "dealt", heroes=False)
    return table, watcher


def join_by_http(context: BrowserContext, join_url: str, name: str) -> str:
    """Take a seat with plain requests (no page): quicker where only the seat is needed."""
    form = context.request.get(join_url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text())
    assert token, form.text()[:500]
    seated = context.request.post(
        join_url, form={"csrfmiddlewaretoken": token.group(1), "name": name}
    )
    assert seated.ok and re.search(r"/p/[A-Za-z0-9_-]{22,}/$", seated.url), seated.url
    return seated.url


def seated_table(
    display_context: BrowserContext, new_phone: ContextFactory
) -> tuple[Page, list[tuple[BrowserContext, str]], list[str]]:
    """A new table on the host console with the four NAMES seated by plain requests: the host
    page, each phone's (context, name) and each phone's own address."""
    host = display_context.new_page()
    host.goto("/")
    host.locator("form[action='/new/'] button").click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    join_url = host.locator(".join-url").inner_text().strip()
    seats = [(new_phone(), name) for name in NAMES]
    urls = [join_by_http(context, join_url, name) for context, name in seats]
    expect(host.locator("#table-state .seat")).to_have_count(4)
    return host, seats, urls


def place_heroes(page: Page, order: list[int] | None = None) -> None:
    """On a 3 vs 3 commander's or a 1 vs 1 player's phone, tap a place under three hero cards:
    the card at `order[k]` (default: the k-th card) takes place k. The confirm is left to the
    caller."""
    cards = page.locator("form.placement .place-card")
    for place, card in enumerate(order or [0, 1, 2]):
        cards.nth(card).locator(".place-tap").nth(place).click()


def lang_context(
    new_context: ContextFactory, base_url: str, lang: str, kind: str
) -> BrowserContext:
    """A device in this language ("zh" or "en": the English UI's cookie set)."""
    context = new_context(kind=kind, locale="zh-CN" if lang == "zh" else "en-US")
    if lang == "en":
        cookie = {"name": "django_language", "value": "en", "url": base_url}
        context.add_cookies([cookie])  # type: ignore[list-item]
    return context
