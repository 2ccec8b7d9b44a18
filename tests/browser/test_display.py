"""The public table display holds every table size.

Tables of 4 to 10 players with long names (eight Chinese characters, sixteen Latin ones: the join
form's limit) are built with plain HTTP requests (tests/browser/tables.py), then the display
(`/t/<code>/`) is opened at the three sizes it is put on: a laptop (1280x800), a TV (1920x1080) and
a portrait tablet (800x1280). Every seat card is measured: no two overlap, none leaves the screen,
no text is cut (scrollWidth > clientWidth) and no name breaks inside a word; the distance table is
in large type, clear of the seats, rows named in full or by the seat-number badges the seats
carry. Banners and toasts keep off the seats, the end of a game fits a TV without scrolling, the
QR code folds once the game has started, and the display (and a host console on the table)
survives the host role passing to a player. Screenshots go to test-artifacts/display-*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import tables
from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot

pytestmark = [pytest.mark.browser]

SIZES = {"laptop": (1280, 800), "tv": (1920, 1080), "tablet": (800, 1280)}
LANDSCAPE = ("laptop", "tv")
MIN_MATRIX_PX = 18  # the distance table's figures, read from across the table
SHOTS = (4, 7, 10)

# Everything measured on one screen. Rectangles are [left, top, right, bottom].
LAYOUT_JS = """() => {
  const rect = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const cut = el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  const shown = el => !!el && el.checkVisibility();
  const state = document.getElementById('table-state');
  const seats = Array.from(state.querySelectorAll('.ring > .seat')).filter(shown);
  const words = el => {
    // A word the browser broke across two lines has two client rects.
    const broken = [];
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return broken;
    const re = /[A-Za-z]+/g;
    let m;
    while ((m = re.exec(text.data))) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
    return broken;
  };
  const parts = '.seat-name, .seat-hero, .idn, .seat-hp, .equip, .zone, .dead-mark, .dying-mark';
  const matrix = state.querySelector('.matrix');
  const box = state.querySelector('.distances');
  const join = document.querySelector('.join-box');
  const overlay = sel => Array.from(document.querySelectorAll(sel)).filter(shown).map(rect);
  return {
    viewport: [innerWidth, innerHeight],
    scrollWidth: document.documentElement.scrollWidth,
    seats: seats.map(s => ({
      rect: rect(s),
      name: s.querySelector('.seat-name').textContent,
      nameCut: cut(s.querySelector('.seat-name')),
      overflow: cut(s) || cut(s.querySelector('.seat-open')),
      cutParts: Array.from(s.querySelectorAll(parts)).filter(shown).filter(cut).map(e => e.className),
      brokenWords: words(s.querySelector('.seat-name')),
    })),
    matrix: shown(matrix) ? {
      rect: rect(matrix),
      box: rect(box),
      boxCut: cut(box) || cut(state.querySelector('.matrix-box')),
      figurePx: parseFloat(getComputedStyle(matrix.querySelector('td')).fontSize),
      labelsPx: Array.from(matrix.querySelectorAll('th .mx-no, th .mx-name')).filter(shown)
        .map(e => parseFloat(getComputedStyle(e).fontSize)),
      rows: Array.from(matrix.querySelectorAll('tbody th')).map(th => ({
        text: th.textContent,
        number: th.querySelector('.mx-no').textContent,
        name: shown(th.querySelector('.mx-name')) ? th.querySelector('.mx-name').textContent : null,
        cut: cut(th) || (shown(th.querySelector('.mx-name')) && cut(th.querySelector('.mx-name'))),
      })),
      legend: shown(state.querySelector('.mx-legend')),
    } : null,
    badges: seats.map(s => s.querySelector('.seat-no').textContent),
    banners: overlay('#table-state > .banner'),
    toast: overlay('#toast.show'),
    note: overlay('#awake-note'),
    join: join ? rect(join) : null,
  };
}"""


def _overlap(a: list[float], b: list[float], slack: float = 1.0) -> bool:
    return (
        a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack
    )


def layout(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(LAYOUT_JS))


def open_display(browser: Browser, server: AppServer, code: str, size: str, lang: str) -> Page:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale="zh-CN" if lang == "zh" else "en-US",
        base_url=server.base_url,
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": server.base_url}])
    # As on the LAN's plain http (not a secure context): no Screen Wake Lock, and nobody taps a
    # display to start the video, so it says all game that the screen may lock (#awake-note).
    context.add_init_script("delete Navigator.prototype.wakeLock")
    page = context.new_page()
    page.goto(f"/t/{code}/")
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page


def check_seats(got: dict[str, Any], names: list[str], where: str) -> None:
    """Every seat on the screen, whole, apart from the others, its name not cut or broken."""
    width, height = got["viewport"]
    seats = got["seats"]
    assert [s["name"] for s in seats] == names, where
    assert got["badges"] == [str(i + 1) for i in range(len(names))], where
    for i, seat in enumerate(seats):
        left, top, right, bottom = seat["rect"]
        assert left >= 0 and right <= width, f"{where}: seat {i + 1} leaves the screen {seat}"
        assert top >= 0, f"{where}: seat {i + 1} above the screen"
        if height < width:
            assert bottom <= height, f"{where}: seat {i + 1} below the fold {seat['rect']}"
        assert not seat["nameCut"], f"{where}: the name of seat {i + 1} is cut"
        assert not seat["overflow"], f"{where}: seat {i + 1}'s content overflows its card"
        assert not seat["cutParts"], f"{where}: seat {i + 1}: text cut in {seat['cutParts']}"
        assert not seat["brokenWords"], f"{where}: {seat['name']!r} broken inside a word"
        for j in range(i):
            assert not _overlap(seat["rect"], seats[j]["rect"]), f"{where}: seats {j + 1}, {i + 1}"
    assert got["scrollWidth"] <= width, f"{where}: the page scrolls sideways"
    for note in got["note"]:
        assert note[1] >= 0 and note[3] <= height, (
            f"{where}: the screen-lock note is off the screen"
        )
        for i, seat in enumerate(seats):
            assert not _overlap(note, seat["rect"]), (
                f"{where}: the screen-lock note over seat {i + 1}"
            )


def check_matrix(got: dict[str, Any], alive: list[str], where: str, *, landscape: bool) -> None:
    """The distance table: large figures, every row named whole or by its seat's badge."""
    matrix = got["matrix"]
    assert matrix, f"{where}: no distance table"
    assert matrix["figurePx"] >= MIN_MATRIX_PX, f"{where}: figures at {matrix['figurePx']} px"
    # The seat numbers and names heading the rows and columns too.
    small = min(matrix["labelsPx"])
    assert small >= MIN_MATRIX_PX, f"{where}: seat numbers or names at {small} px"
    assert not matrix["boxCut"], f"{where}: the distance table overflows its place"
    for row, name in zip(matrix["rows"], alive, strict=True):
        assert not row["cut"], f"{where}: row {row['text']!r} cut"
        assert row["text"].endswith(name), where  # the whole name is in the row (for readers)
        assert row["number"] in got["badges"], f"{where}: row {row['number']} has no seat"
        if row["name"] is None:
            # Numbers only: the seats are the legend, and the table says so.
            assert matrix["legend"], f"{where}: seat numbers without a legend"
        else:
            assert row["name"] == name, where
    if landscape:
        for seat in got["seats"]:
            assert not _overlap(matrix["box"], seat["rect"]), f"{where}: matrix over {seat}"
    else:
        assert all(row["name"] for row in matrix["rows"]), f"{where}: rows without names"


def heavy_play(
    base_url: str, names: list[str], *, box: dict[str, Any] | None = None
) -> tuple[tables.HttpTable, list[str]]:
    """In play with heroes (from this hero box file, if given); every seat has all four kinds of
    equipment (the longest names) and a 乐不思蜀 and a 闪电 waiting, and from five players one
    player (not the lord, not the last seat: a seat of the sides) is dead. Returns the table and
    the names of the dead."""
    table = tables.playing(base_url, names, box=box)
    for seat in table.seats:
        for card in ("麒麟弓", "八卦阵", "的卢", "赤兔"):
            table.host.act("equip", seat=str(seat.id), name=card, replace="1")
        # The host may put a delayed trick anywhere (a correction); the current player only in
        # their play phase.
        table.host.act("trick", seat=str(seat.id), name="乐不思蜀")
        table.host.act("trick", seat=str(seat.id), name="闪电")
    dead: list[str] = []
    if len(names) >= 5:
        lord = table.seat_by_identity("lord")
        victim = next(s for s in table.seats[1:] if s is not lord)
        tables.kill(table, victim, lord)
        dead.append(victim.name)
    return table, dead


# What the deal leaves to chance, made the widest it can be on every living seat: the longest
# hero name (孙尚香, Sun Shangxiang), five jades (a lord's 4 + 1), the longest identity word.
WORST_JS = """([heroZh, heroEn, identity]) => {
  document.querySelectorAll('#table-state .ring > .seat:not(.dead)').forEach(seat => {
    const hero = seat.querySelector('.seat-hero .hero-name');
    if (hero) {
      hero.querySelector('[lang="zh-CN"]').textContent = heroZh;
      const en = hero.querySelector('.en');
      if (en) en.textContent = heroEn;
    }
    const idn = seat.querySelector('.idn');
    if (idn) idn.textContent = identity;
    const jades = seat.querySelector('.jades');
    if (jades) {
      while (jades.children.length < 5) jades.appendChild(jades.firstElementChild.cloneNode(true));
      Array.from(jades.children).forEach(j => j.classList.add('on'));
    }
    const hp = seat.querySelector('.hp-num');
    if (hp) hp.textContent = '5/5';
  });
}"""
WORST = {"zh": ["孙尚香", "", "内奸"], "en": ["孙尚香", "Sun Shangxiang", "Renegade"]}


RESULT_WORST_JS = """([heroZh, heroEn]) => {
  document.querySelectorAll('#table-state .results .hero-name').forEach(hero => {
    hero.querySelector('[lang="zh-CN"]').textContent = heroZh;
    const en = hero.querySelector('.en');
    if (en) en.textContent = heroEn;
  });
}"""


def worst_case(page: Page, lang: str) -> None:
    """Every living seat's card at its widest (WORST_JS); the seats must still fit."""
    assert page.locator("#table-state .ring > .seat .seat-hero").count(), "no heroes"
    page.evaluate(WORST_JS, WORST[lang])
    # The display lays its seats out again when its content or size changes (live.js fitSeats).
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")


@pytest.mark.parametrize("count", range(4, 11))
def test_seats_and_distances_fit_every_table_size(
    browser: Browser, app_server: AppServer, count: int
) -> None:
    for lang, pool in (("zh", tables.NAMES_ZH), ("en", tables.NAMES_EN)):
        names = pool[:count]
        table, dead = heavy_play(app_server.base_url, names)
        alive = [n for n in names if n not in dead]
        # One display, set to each size in turn: it lays its seats out again on every resize
        # (display.js fitSeats, from scratch), as a laptop's window resized or a TV turned on.
        page = open_display(browser, app_server, table.code, next(iter(SIZES)), lang)
        worst_case(page, lang)
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => window.dispatchEvent(new Event('resize'))")
            where = f"{lang} {count} players {size}"
            got = layout(page)
            assert got["viewport"] == [width, height], where
            assert got["note"], f"{where}: no screen-lock note without a wake lock"
            if count in SHOTS:
                screenshot(page, f"display-{lang}-{count}-{size}")
            check_seats(got, names, where)
            check_matrix(got, alive, where, landscape=size in LANDSCAPE)
            if size == "tablet":
                # Nobody joins once the game is on: the QR code is a small box, not half the screen.
                assert got["join"][3] - got["join"][1] <= 0.16 * got["viewport"][1], where
        page.context.close()


def test_lobby_of_ten_with_the_qr_code_large(browser: Browser, app_server: AppServer) -> None:
    """Before the deal the QR code is the big thing; ten long names still fit."""
    for lang, pool in (("zh", tables.NAMES_ZH), ("en", tables.NAMES_EN)):
        table = tables.seated(app_server.base_url, pool)
        for size in SIZES:
            page = open_display(browser, app_server, table.code, size, lang)
            got = layout(page)
            check_seats(got, pool, f"lobby {lang} {size}")
            qr = box_of(page.locator(".join-box .qr-box"))
            assert qr and qr["width"] >= 250, f"lobby {lang} {size}: QR {qr}"
            screenshot(page, f"display-lobby-{lang}-10-{size}")
            page.context.close()


def test_banners_and_toasts_keep_off_the_seats(browser: Browser, app_server: AppServer) -> None:
    names = tables.NAMES_EN
    table = tables.playing(app_server.base_url, names)
    lord = table.seat_by_identity("lord")
    one, two = [s for s in table.seats if s is not lord][:2]
    pages = {size: open_display(browser, app_server, table.code, size, "en") for size in SIZES}
    for page in pages.values():
        worst_case(page, "en")
    # Two players dying at once: two banners in the middle of the table.
    for victim in (one, two):
        while True:
            table.host.act("hp", seat=str(victim.id), delta="-3", source=str(lord.id))
            if re.search(
                rf'class="[^"]*\bdying\b[^"]*" data-seat="{victim.id}"', table.host.page()
            ):
                break
    for size, page in pages.items():
        expect(page.locator("#table-state > .banner-dying")).to_have_count(2)
        got = layout(page)
        assert len(got["banners"]) == 2, size
        for banner in got["banners"]:
            for seat in got["seats"]:
                assert not _overlap(banner, seat["rect"]), f"{size}: banner {banner} over {seat}"
        assert not _overlap(got["banners"][0], got["banners"][1]), f"{size}: banners overlap"
        screenshot(pages[size], f"display-dying-en-10-{size}")
    # A death is announced by a toast on every screen.
    table.host.act("die", seat=str(one.id))
    for size, page in pages.items():
        expect(page.locator("#toast.show")).to_be_visible()
        got = layout(page)
        assert got["toast"], size
        for seat in got["seats"]:
            assert not _overlap(got["toast"][0], seat["rect"]), f"{size}: toast over {seat}"
        screenshot(page, f"display-toast-en-10-{size}")
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_end_of_a_game_fits_a_tv(browser: Browser, app_server: AppServer, lang: str) -> None:
    names = tables.NAMES_ZH if lang == "zh" else tables.NAMES_EN
    table = tables.playing(app_server.base_url, names)
    lord = table.seat_by_identity("lord")
    rebels = [s for s in table.seats if s.identity == "rebel"]
    loyal = next(s for s in table.seats if s.identity == "loyalist")
    tables.kill(table, loyal, rebels[0])
    tables.kill(table, lord, rebels[1])
    for size in SIZES:
        page = open_display(browser, app_server, table.code, size, lang)
        result = page.locator("#table-state .result")
        expect(result).to_be_visible()
        # Whatever heroes were dealt: every hero cell holds the longest hero name.
        page.evaluate(RESULT_WORST_JS, WORST[lang])
        rows = result.locator(".results tbody tr")
        expect(rows).to_have_count(10)
        screenshot(page, f"display-end-{lang}-10-{size}")
        if size not in LANDSCAPE:
            page.context.close()
            continue
        # Every player's identity, hero, fate and score on the first screen, nothing to scroll.
        fit = result.evaluate(
            """el => ({bottom: el.getBoundingClientRect().bottom, height: innerHeight,
                       inner: el.scrollHeight - el.clientHeight,
                       scores: Array.from(el.querySelectorAll('.results tbody td.res-score'))
                         .filter(td => td.checkVisibility())
                         .map(td => td.querySelector('strong').textContent)})"""
        )
        assert fit["bottom"] <= fit["height"], f"{lang} {size}: the result runs below the screen"
        assert fit["inner"] <= 1, f"{lang} {size}: the result scrolls inside"
        assert len(fit["scores"]) == 10 and all(re.fullmatch(r"-?\d+", s) for s in fit["scores"])
        assert any(int(s) > 0 for s in fit["scores"]), fit["scores"]
        page.context.close()


def test_the_display_survives_a_host_pass(
    display_context: Any, new_phone: ContextFactory, app_server: AppServer
) -> None:
    """The console links to the public display; passing the host role leaves the display
    updating, and turns a console left on the table into the public display."""
    console = display_context.new_page()
    console.goto("/")
    console.locator("form[action='/new/'] button").click()
    expect(console).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    expect(console.locator("#conn")).to_have_attribute("data-state", "open")
    code = console.locator("#table-state").get_attribute("data-code")
    link = console.locator(".join-box a.display-link")
    expect(link).to_have_attribute("href", f"/t/{code}/")
    with display_context.expect_page() as opened:
        link.click()
    display = opened.value
    expect(display).to_have_url(re.compile(rf"/t/{code}/$"))
    expect(display.locator("#conn")).to_have_attribute("data-state", "open")
    table = tables.HttpTable(app_server.base_url, tables.Device(app_server.base_url), str(code))
    for name in tables.NAMES_ZH[:4]:
        tables.join(table, name)
    for page in (console, display):
        expect(page.locator("#table-state .ring > .seat")).to_have_count(4)

    # The console passes the host role to the first player.
    console.bring_to_front()
    console.once("dialog", lambda dialog: dialog.accept())
    console.locator("#host-panel .host-seats li").first.locator("summary").click()
    console.locator("#host-panel .host-seats li").first.locator(
        "form[hx-post='act/host'] button"
    ).click()
    # The console becomes the public display: no dead page, no host controls.
    expect(console).to_have_url(re.compile(rf"/t/{code}/$"), timeout=15_000)
    expect(console.locator("#conn")).to_have_attribute("data-state", "open")
    expect(console.locator("#host-panel")).to_have_count(0)
    expect(console.locator("body")).not_to_have_class(re.compile(r"link-gone"))
    # Both keep following the table: the new host (a phone) deals.
    new_host = table.seats[0].device
    assert "host-panel" in new_host.page()
    new_host.act("deal")
    for page in (console, display):
        expect(page.locator("#table-state")).to_have_attribute("data-status", "dealt")
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        expect(page.locator("body")).not_to_have_class(re.compile(r"link-gone"))
    screenshot(console, "display-after-host-pass")
