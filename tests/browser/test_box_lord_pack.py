"""The hero box and the lord pack on real screens, in both
languages: the host adds 汉献帝 and 袁绍 as lord heroes on the box page (a refused
hero first, its reason under its field), switches the lord pack on and deals; the lord's phone
(390×844) is offered 3 non-lord heroes and one of the box's lord heroes (dealt again until an
added one shows), picks the added one, whose typed skill text one tap opens; the display
(1280×800) names him. Then the box is exported and imported into a new table.
While the game runs, the box page says it is locked and offers no change.
Screenshots: test-artifacts/box-{page,error,locked,offer,help,display,imported}-{zh,en}.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot, wait_until
from tests.browser.tables import HERO_RE, HttpTable, deal, open_table, seated

pytestmark = [pytest.mark.browser]

STANDARD_LORDS = {"WEI001", "SHU001", "WU001"}
LORD_PACK_ON = re.compile(r'<input[^>]*name="lord_pack"[^>]*checked')
ADDED = {"ADD001": "汉献帝", "ADD002": "袁绍"}
XIANDI_SKILL = "锁定技，你的手牌上限+2；当你成为杀的目标后，你可以令一名其他角色摸一张牌。"
YUANSHAO_SKILL = "出牌阶段，你可以将两张花色相同的手牌当万箭齐发使用。"
WORDS = {
    "zh": {
        "error": "请用中文写名字",
        "note": "修改从下一次发牌起生效",
        "lords": "主公武将",
        "locked": "游戏进行中武将盒已锁定",
    },
    "en": {
        "error": "Write the name in Chinese",
        "note": "Changes apply from the next deal",
        "lords": "Lord heroes",
        "locked": "The box is locked while a game runs",
    },
}


def add_hero(page: Page, name_zh: str, name_en: str, hp: str, skill: str, text: str) -> None:
    form = page.locator("form.box-form")
    form.locator("input[name=name_zh]").fill(name_zh)
    form.locator("input[name=name_en]").fill(name_en)
    form.locator("select[name=kingdom]").select_option("qun")
    form.locator("select[name=hp]").select_option(hp)
    form.locator("select[name=gender]").select_option("male")
    form.locator("input[name=lord]").check()
    form.locator("input[name=skill_name_0]").fill(skill)
    form.locator("textarea[name=skill_text_0]").fill(text)
    form.locator("button").click()


def lord_offer(table: HttpTable) -> list[str]:
    """The lord's offer, dealt again (bounded) until it holds an added lord hero."""
    lord = table.seat_by_identity("lord")
    for _ in range(40):
        offer = HERO_RE.findall(lord.device.page())
        if offer[-1] in ADDED:
            return offer
        table.host.act("heroredeal", confirm="1")
    pytest.fail("no added lord hero was offered in 40 deals")


@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh"), ("en-US", "en")])
def test_added_lord_heroes_offered_by_the_lord_pack_and_the_box_file(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str, tmp_path: Path
) -> None:
    words = WORDS[lang]
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee", "Eve"])

    # The host's phone, without the tests' referrer work-around: the box page's plain forms
    # must pass the CSRF check in a real browser.
    host = new_context(kind="phone", locale=locale, workaround=False).new_page()
    host.goto(table.host.url)
    host.locator("a.box-link").click()
    expect(host.locator("h1")).to_have_text("武将盒" if lang == "zh" else "Hero box")
    expect(host.locator("[data-box-note]")).to_contain_text(words["note"])
    # A refused hero: the reason under its field, what was typed kept.
    add_hero(host, "Xian", "Emperor Xian", "3", "天命", XIANDI_SKILL)
    expect(host.locator(".field-error")).to_contain_text(words["error"])
    expect(host.locator("input[name=name_en]")).to_have_value("Emperor Xian")
    screenshot(host, f"box-error-{lang}")
    add_hero(host, "汉献帝", "Emperor Xian", "3", "天命", XIANDI_SKILL)
    expect(host.locator(".box-hero")).to_have_count(1)
    add_hero(host, "袁绍", "Yuan Shao", "4", "乱击", YUANSHAO_SKILL)
    expect(host.locator(".box-hero")).to_have_count(2)
    expect(host.locator(".box-lords")).to_contain_text("汉献帝")
    expect(host.locator(".box-lords")).to_contain_text("袁绍")
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(host, f"box-page-{lang}")

    # The lord pack on (the host's own checkbox), then the deal.
    host.goto(table.host.url)
    host.locator("input[name=lord_pack]").check()
    expect(host.locator("input[name=lord_pack]")).to_be_checked()
    # The deal goes by another connection: wait for the server to have taken the option (its own
    # page shows it on), or the deal can come first and offer the identity game's lords.
    wait_until(
        host, lambda: bool(LORD_PACK_ON.search(table.host.page())), "the server takes the lord pack"
    )
    deal(table)
    table.host.act("start")
    # While a game runs the box is locked: the page says so, and offers no change.
    host.goto(table.host.url + "box/")
    expect(host.locator("[data-box-locked]")).to_contain_text(words["locked"])
    expect(host.locator("form")).to_have_count(1)  # the language switch only
    screenshot(host, f"box-locked-{lang}")
    offer = lord_offer(table)
    assert len(offer) == 4
    assert not set(offer[:3]) & (STANDARD_LORDS | set(ADDED)), "3 non-lord heroes"
    added = offer[-1]

    lord = table.seat_by_identity("lord")
    phone = new_context(kind="phone", locale=locale).new_page()
    phone.goto(lord.device.url)
    choices = phone.locator(".hero-choices form.choice")
    expect(choices).to_have_count(4)
    expect(choices.last).to_contain_text(ADDED[added])
    screenshot(phone, f"box-offer-{lang}")
    choices.last.locator("button.btn-wide").click()
    expect(phone.locator(".hero-choices")).to_have_count(0)

    for seat in table.seats:
        if seat is not lord:
            seat.device.act("pick", hero=HERO_RE.findall(seat.device.page())[0])

    # The lord's card names the added hero; one tap opens his entry with the typed text.
    fold = phone.locator("#my-seat .hero-fold")
    expect(fold.locator("summary")).to_contain_text(ADDED[added])
    fold.locator("summary").click()
    card = fold.locator(".hero-card")
    expect(card).to_contain_text(ADDED[added])
    text = XIANDI_SKILL if added == "ADD001" else YUANSHAO_SKILL
    expect(card).to_contain_text(text)
    card.locator(f'[data-help="added:{table.code}.{added}"]').click()
    pop = phone.locator("#help-pop")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text(text)
    screenshot(phone, f"box-help-{lang}")

    display = new_context(kind="display", locale=locale).new_page()
    display.goto(table.display_path)
    seat_hero = display.locator(f'li[data-seat="{lord.id}"] .seat-hero')
    expect(seat_hero).to_contain_text(ADDED[added])
    if lang == "en":
        expect(seat_hero).to_contain_text("Emperor Xian" if added == "ADD001" else "Yuan Shao")
    box = box_of(seat_hero)
    assert box is not None and box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= 800
    screenshot(display, f"box-display-{lang}")

    # Export, then import into a new table's box.
    host.goto(table.host.url + "box/")
    with host.expect_download() as download:
        host.locator("a.box-export").click()
    saved = tmp_path / "box.json"
    download.value.save_as(saved)
    assert re.search(r'"name_zh": "袁绍"', saved.read_text(encoding="utf-8"))
    other = open_table(app_server.base_url)
    second = new_context(kind="phone", locale=locale, workaround=False).new_page()
    second.goto(other.host.url + "box/")
    expect(second.locator(".box-hero")).to_have_count(0)
    second.locator("input[type=file]").set_input_files(str(saved))
    second.locator("form.box-import button").click()
    expect(second.locator(".box-hero")).to_have_count(2)
    expect(second.locator(".box-added")).to_contain_text("汉献帝")
    expect(second.locator(".box-added")).to_contain_text("袁绍")
    screenshot(second, f"box-imported-{lang}")
