"""What a phone must show on its first screen, without scrolling, in both languages: at 360×640
(and 390×844 where named) the lord's five candidates, the judgement dialog's J, Q, K and its
button, the first-game guide's Next, a rebirth gift's button, the host console's hero box link,
and the start page's first game and rules help. A Chinese hero name never breaks inside its
Choose button. Before play the stage is said once, in the strip at the top (the status line
under it said it again). The tables are made by HTTP (tests/browser/screen_tables.py); screenshots:
test-artifacts/first-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import tables
from tests.browser.boxes import box_of, said
from tests.browser.conftest import AppServer, screenshot
from tests.browser.screen_tables import heroes, lobby, playing
from tests.browser.test_phone_fit import phone_page, settled

pytestmark = [pytest.mark.browser]

LANGS = ["zh", "en"]
SMALL = (360, 640)
TALL = (390, 844)
# The lines a CJK run of a button's text is laid out on (1: not broken).
CJK_LINES = """(button) => {
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  let worst = 1;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/[\\u3400-\\u9fff]+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      worst = Math.max(worst, tops.size);
    }
  }
  return worst;
}"""


def opened(
    browser: Browser, server: AppServer, lang: str, size: tuple[int, int], path: str
) -> Page:
    """A phone of this size and language with this page open and settled."""
    page = phone_page(browser, server, lang, *size)
    settled(page, path)
    return page


def on_first_screen(page: Page, selector: str, size: tuple[int, int]) -> None:
    """Every element the selector names is visible, wholly inside the viewport, unscrolled."""
    assert page.evaluate("() => window.scrollY") == 0
    found = page.locator(selector)
    expect(found.first).to_be_visible()
    for i in range(found.count()):
        box = box_of(found.nth(i))
        assert box, (selector, i)
        assert 0 <= box["x"] and box["x"] + box["width"] <= size[0] + 0.5, (selector, i, box)
        assert 0 <= box["y"] and box["y"] + box["height"] <= size[1] + 0.5, (selector, i, box)


@pytest.mark.parametrize("lang", LANGS)
def test_the_lords_five_candidates_fit_and_names_stay_whole(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = heroes(app_server.base_url)
    page = opened(browser, app_server, lang, SMALL, table.seat_by_identity("lord").device.url)
    choices = page.locator("#my-seat .hero-choices form.choice")
    expect(choices).to_have_count(5)
    on_first_screen(page, "#my-seat .hero-choices form.choice", SMALL)
    screenshot(page, f"first-lord-five-{lang}")
    for button in page.locator("#my-seat .hero-choices form.choice > .btn").all():
        assert button.evaluate(CJK_LINES) == 1, button.inner_text()
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_judgement_dialog_keeps_its_ranks_and_button_above_the_fold(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = playing(app_server.base_url)
    page = opened(browser, app_server, lang, SMALL, table.seat_by_identity("lord").device.url)
    page.locator("#my-seat button[hx-get^='judge/']").click()
    form = page.locator("#dialog .judge-form")
    expect(form).to_be_visible()
    assert page.locator("#dialog .dialog").evaluate("el => el.scrollTop") == 0
    # A judgement the suit alone decides (八卦阵): its suit buttons are the last tap, on screen.
    form.locator("label.check-choice:has(input[value=eight_trigrams])").click()
    on_first_screen(page, "#dialog .judge-form .suit-taps button[value=club]", SMALL)
    screenshot(page, f"first-judge-suit-{lang}")
    # 闪电 asks the rank too: J, Q, K and the button that shows the result stay on screen.
    form.locator("label.check-choice:has(input[value=lightning])").click()
    expect(form.locator("fieldset.ranks")).to_be_visible()
    assert page.locator("#dialog .dialog").evaluate("el => el.scrollTop") == 0
    ranks = ", ".join(f"#dialog .ranks label:has(input[value='{r}'])" for r in (11, 12, 13))
    on_first_screen(page, ranks, SMALL)
    on_first_screen(page, "#dialog .judge-form .rank-asked button.btn-primary", SMALL)
    screenshot(page, f"first-judge-{lang}")
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_first_game_guides_next_is_on_the_first_screen(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    page = opened(browser, app_server, lang, SMALL, "/first-game/?n=5")
    assert page.evaluate("() => document.documentElement.scrollHeight") > 2 * SMALL[1]
    on_first_screen(page, ".fg-next", SMALL)
    screenshot(page, f"first-guide-{lang}")
    page.locator(".fg-next").click()
    expect(page).to_have_url(re.compile(r"step=1"))
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_rebirth_gift_is_on_the_givers_first_screen(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_EN[:5])
    table.host.act("options", fields="rebirth", rebirth="1")
    tables.deal(table)
    tables.pick_heroes(table)
    lord = table.seat_by_identity("lord")
    rebel = table.seat_by_identity("rebel")
    tables.kill(table, rebel, lord)
    giver = table.seat_by_identity("loyalist")
    for size in (TALL, SMALL):
        page = opened(browser, app_server, lang, size, giver.device.url)
        on_first_screen(page, f".gift-form:has(input[value='{rebel.id}']) button", size)
        screenshot(page, f"first-gift-{lang}-{size[0]}")
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_hero_box_and_the_start_pages_guides_are_on_the_first_screen(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = lobby(app_server.base_url)
    page = opened(browser, app_server, lang, SMALL, table.host.url)
    on_first_screen(page, "a.box-top", SMALL)
    screenshot(page, f"first-console-{lang}")
    page.locator("a.box-top").click()
    expect(page.locator("body.page-box, .box-form").first).to_be_visible()
    page.context.close()
    for size in (SMALL, TALL):
        page = opened(browser, app_server, lang, size, "/")
        on_first_screen(page, "a.fg-start, a.btn[href='/help/']", size)
        on_first_screen(page, "form[action='/new/'] button", size)
        screenshot(page, f"first-start-{lang}-{size[0]}")
        page.context.close()


# The stage before play: in the lobby, while heroes are chosen.
STAGES = {
    "zh": ("等待玩家", "选将中"),
    "en": ("Waiting for players", "Choosing heroes"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_phone_says_the_stage_once_at_the_top_before_play(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    waiting, choosing = STAGES[lang]
    table = lobby(app_server.base_url)
    page = opened(browser, app_server, lang, SMALL, table.seats[1].device.url)
    console = opened(browser, app_server, lang, SMALL, table.host.url)
    strip = page.locator("#now-strip .now-turn")
    expect(strip).to_have_text(waiting)
    on_first_screen(page, "#now-strip .now-turn", SMALL)
    assert said(page, waiting) == 1
    screenshot(page, f"first-stage-lobby-{lang}")
    # The host's console has no strip: its status line says it.
    assert said(console, waiting) == 1
    tables.deal(table)
    table.host.act("start")
    expect(strip).to_have_text(choosing)  # the same page, live
    assert said(page, choosing) == 1
    expect(console.locator("#table-state .status-line .stage")).to_have_text(choosing)
    assert said(console, choosing) == 1
    screenshot(page, f"first-stage-heroes-{lang}")
    page.context.close()
    console.context.close()
