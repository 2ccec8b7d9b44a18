"""3 vs 3 at a real table, in a real browser, both languages: the draft seen from across the
table (the 16 heroes as cards in the middle of the 1280x800 display, each taken one marked with
the side that took it), the commanders' placement by tapping hero cards (HP and skills shown,
nothing chosen beforehand, a confirm), "every hero draws 4" on every screen until the first turn
ends, and a card that has acted lying turned sideways. The table is brought to each step by
plain HTTP taps; only what is checked is looked at in the pages. Screenshots go to
test-artifacts/modecards-<lang>-*.png (390x844 phones, the 1280x800 display).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import APIRequestContext, BrowserContext, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.game_steps import join_by_http, lang_context

pytestmark = [pytest.mark.browser]


def _csrf(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "sgs_csrf")


def _tap(context: BrowserContext, path: str, name: str, form: dict | None = None) -> None:
    """One tap over HTTP, as a page sends it (the CSRF token of the cookie in the header)."""
    request: APIRequestContext = context.request
    response = request.post(
        f"{path}act/{name}",
        form={**(form or {}), "repeat": "1"},
        headers={"X-CSRFToken": _csrf(context), "HX-Request": "true"},
    )
    assert response.status < 300, (name, form, response.status, response.text()[:300])


def _html(context: BrowserContext, path: str) -> str:
    return context.request.get(path).text()


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def _threes_table(context: BrowserContext) -> tuple[str, str, list[str]]:
    """A 3 vs 3 table with six seats in two teams (the second of each commands), dealt and its
    draft started: the host's path, the table code and each phone's path."""
    home = context.request.get("/").text()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', home)
    assert token
    made = context.request.post(
        "/new/", form={"csrfmiddlewaretoken": token.group(1), "mode": "threes"}
    )
    host = _path(made.url)
    code = re.search(r'class="big-code"[^>]*>([A-Z0-9]+)<', made.text())
    join = re.search(r'class="muted small join-url">([^<]+)<', made.text().replace("<wbr>", ""))
    assert code and join
    phones = []
    for i in range(6):
        context.clear_cookies()  # a new device: the same one would come back to its seat
        phones.append(_path(join_by_http(context, join.group(1).strip(), f"P{i + 1}")))
    context.request.get("/")
    for i, phone in enumerate(phones):
        _tap(context, phone, "team", {"team": str(i // 3)})
    _tap(context, phones[1], "commander")
    _tap(context, phones[4], "commander")
    _tap(context, host, "deal")
    _tap(context, host, "start")
    return host, code.group(1), phones


def _drafter(context: BrowserContext, phones: list[str], form: str) -> str:
    """The phone that is asked: a question every page carries in its strip counts on the phone
    its data-for-seats names (live.js shows it there alone)."""
    for phone in phones:
        html = _html(context, phone)
        if f'hx-post="act/{form}"' not in html:
            continue
        me = re.search(r'data-my-seat="(\d+)"', html)
        asked = re.findall(r'class="now-wait" data-for-seats="([\d ]+)"', html)
        if not asked or (me and any(me.group(1) in seats.split() for seats in asked)):
            return phone
    raise AssertionError(f"no phone is asked to {form}")


def _pick(context: BrowserContext, phones: list[str]) -> None:
    picker = _drafter(context, phones, "draftpick")
    position = re.search(r'name="position" value="(\d+)"', _html(context, picker))
    assert position
    _tap(context, picker, "draftpick", {"position": position.group(1)})


def _draft_rest(context: BrowserContext, phones: list[str]) -> None:
    while any('hx-post="act/draftpick"' in _html(context, p) for p in phones):
        _pick(context, phones)


def _draft(context: BrowserContext, phones: list[str], picks: int) -> None:
    """The warm side picks first; then `picks` heroes, each by the side whose pick it is."""
    warm = _drafter(context, phones, "draftfirst")
    _tap(context, warm, "draftfirst", {"side": "warm"})
    for _ in range(picks):
        _pick(context, phones)


ROTATED = """el => {
  const m = getComputedStyle(el).transform.match(/matrix\\(([^,]+), ([^,]+)/);
  return m ? Math.round(Math.atan2(parseFloat(m[2]), parseFloat(m[1])) * 180 / Math.PI) : 0;
}"""
COLOUR = "el => getComputedStyle(el).color"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_threes_draft_placement_and_play_seen_at_the_table(
    lang: str, app_server: AppServer, new_context: ContextFactory
) -> None:
    def device(kind: str) -> BrowserContext:
        return lang_context(new_context, app_server.base_url, lang, kind)

    setup = device("display")
    host, code, phones = _threes_table(setup)
    _draft(setup, phones, 5)

    # The display: the 16 heroes as cards in the middle of the table, large enough to read
    # from across it; the five taken ones marked with the side that took them.
    display = device("display").new_page()
    display.goto(f"/t/{code}/")
    cards = display.locator("#mode-board .draft-pool .pool-card")
    expect(cards).to_have_count(16)
    expect(display.locator("#mode-board .pool-card.taken .pool-side")).to_have_count(5)
    screenshot(display, f"modecards-{lang}-display-draft")
    ring = box_of(display.locator("#table-state .ring"))
    board = box_of(display.locator("#mode-board"))
    assert ring and board
    middle = (ring["x"] + ring["width"] * 0.25, ring["x"] + ring["width"] * 0.75)
    for i in range(16):
        box = box_of(cards.nth(i))
        assert box and middle[0] <= box["x"] + box["width"] / 2 <= middle[1], (i, box, ring)
        # Whole, not scrolled out of the board.
        assert board["y"] <= box["y"] and box["y"] + box["height"] <= board["y"] + board["height"]
    name_size = cards.first.locator(".pool-name").evaluate("el => getComputedStyle(el).fontSize")
    assert float(name_size.removesuffix("px")) >= 20, name_size
    _draft_rest(setup, phones)

    # A commander's phone: every held hero a card with its HP and skills, nothing chosen, one
    # button per place; three taps and the confirm place them.
    commander = _drafter(setup, phones, "draftplace")
    phone = device("phone").new_page()
    phone.goto(commander)
    form = phone.locator("form.placement")
    held = form.locator(".place-card")
    expect(held).to_have_count(8)
    expect(form.locator("input:checked")).to_have_count(0)
    expect(form.locator("select")).to_have_count(0)
    expect(held.first.locator("summary .hero-hp")).to_be_visible()
    expect(held.first.locator(".choice-skills .tag").first).to_be_visible()
    for k in range(3):
        held.nth(k).locator(".place-tap").nth(k).click()
    expect(form.locator("input:checked")).to_have_count(3)
    held.nth(2).scroll_into_view_if_needed()
    screenshot(phone, f"modecards-{lang}-phone-placement")
    form.locator(".place-confirm").click()
    expect(form).to_have_count(0)
    other = _drafter(setup, phones, "draftplace")
    held_ids = re.findall(r'data-hero="([A-Za-z0-9_]+)"', _html(setup, other))[:3]
    _tap(setup, other, "draftplace", dict(zip(("first", "second", "third"), held_ids, strict=True)))

    # In play: every screen says every hero draws 4, on its first screen (the display in the
    # middle of the table, off the seats; a phone at the top).
    draw = display.locator("#mode-board .draw-four")
    expect(draw).to_be_visible()
    drawn = box_of(draw)
    assert drawn and drawn["y"] + drawn["height"] <= 800, drawn
    for seat in display.locator("#table-state .ring .seat").all():
        box = box_of(seat)
        assert box and (
            box["y"] >= drawn["y"] + drawn["height"]
            or box["y"] + box["height"] <= drawn["y"]
            or box["x"] >= drawn["x"] + drawn["width"]
            or box["x"] + box["width"] <= drawn["x"]
        ), (box, drawn)
    phone.evaluate("window.scrollTo(0, 0)")
    mine = phone.locator("#draw-notice .draw-four")
    expect(mine).to_be_visible()
    box = box_of(mine)
    assert box and box["y"] + box["height"] <= 844, box
    screenshot(phone, f"modecards-{lang}-phone-draw4")
    screenshot(display, f"modecards-{lang}-display-draw4")

    # The cold commander lets his side act first: his card lies turned on the display, and
    # each side is one colour on the ring whatever the role, the heroes' names another.
    cold = _drafter(setup, phones, "answer")
    _tap(setup, cold, "answer", {"answer": "cold"})
    turned = display.locator("#table-state .ring .seat.sideways .card-sideways")
    expect(turned).to_have_count(1)
    assert abs(turned.evaluate(ROTATED)) == 90
    colours: dict[str, set[str]] = {}
    for place in display.locator("#table-state .ring .seat .idn").all():
        word = place.inner_text()
        side = "warm" if ("暖" in word or "warm" in word) else "cold"
        colours.setdefault(side, set()).add(place.evaluate(COLOUR))
    assert len(colours["warm"]) == 1 and len(colours["cold"]) == 1, colours
    assert colours["warm"] != colours["cold"]
    names = {n.evaluate(COLOUR) for n in display.locator(".ring .seat-hero .hero-name").all()}
    assert len(names) == 1 and not names & (colours["warm"] | colours["cold"]), names
    screenshot(display, f"modecards-{lang}-display-play")

    # The first turn ends: the draw is no longer announced.
    _tap(setup, cold, "endturn")
    expect(draw).to_have_count(0)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_refused_option_does_not_stay_ticked(
    lang: str, app_server: AppServer, new_context: ContextFactory
) -> None:
    """A box ticked on a page that did not yet know it is refused (rebirth while dark souls is
    on, both deciding what becomes of the dead) goes back to unticked, with the reason."""
    host = lang_context(new_context, app_server.base_url, lang, "display").new_page()
    host.goto("/")
    host.locator("form[action='/new/'] button").last.click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    expect(host.locator("#conn")).to_have_attribute("data-state", "open")
    host.locator("input[name=dark_souls]").check()
    rebirth = host.locator("input[name=rebirth]")
    expect(rebirth).to_be_disabled()
    # The page as a stale one would have it: the box still open.
    rebirth.evaluate("el => { el.disabled = false; }")
    rebirth.click()
    expect(host.locator("#toast")).to_be_visible()
    expect(rebirth).not_to_be_checked()
    expect(host.locator("input[name=dark_souls]")).to_be_checked()
