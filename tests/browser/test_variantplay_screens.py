"""The variants and house rules on a real screen (docs/variants.md), in both
languages: the display's header lists the options on (1280×800) and a phone's rules panel
explains each (390×844). Screenshots: test-artifacts/variantplay-{display,phone}-{zh,en}.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.tables import deal, pick_heroes, seated

pytestmark = [pytest.mark.browser]

WORDS = {
    "zh": (
        "转世",
        "主公起始 5 张手牌",
        "变体与自定规则：开启 2 项",
        "满 4 张（4–5 人局 3 张）即转世",
    ),
    "en": (
        "Rebirth",
        "The lord starts with 5 cards",
        "Variants and house rules: 2 on",
        "at 4 cards (3 with 4–5 players)",
    ),
}


@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh"), ("en-US", "en")])
def test_the_options_on_in_the_header_and_the_rules_panel(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str
) -> None:
    rebirth, five, summary, line = WORDS[lang]
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee", "Eve"])
    table.host.act("options", fields="rebirth", rebirth="1")
    table.host.act("options", fields="lord_five_cards", lord_five_cards="1")
    deal(table)
    pick_heroes(table)

    display = new_context(kind="display", locale=locale).new_page()
    display.goto(table.display_path)
    header = display.locator(".status-line")
    expect(header.locator(".pill-variant")).to_have_count(2)
    expect(header).to_contain_text(rebirth)
    expect(header).to_contain_text(five)
    expect(display.locator(".rules-panel")).to_be_hidden()
    # The lord's five cards: the start guide, beside the distances (not over them).
    expect(display.locator(".start-guide")).to_be_visible()
    expect(display.locator(".distances")).to_be_visible()
    guide = box_of(display.locator(".start-guide"))
    assert guide is not None and guide["x"] + guide["width"] <= 1280
    assert guide["y"] + guide["height"] <= 800, "the guide is on the screen"
    box = box_of(header.locator(".pill-variant").last)
    assert box is not None and box["x"] + box["width"] <= 1280 and box["y"] >= 0
    screenshot(display, f"variantplay-display-{lang}")

    seat = table.seats[1]
    phone = new_context(kind="phone", locale=locale).new_page()
    phone.goto(seat.device.url)
    panel = phone.locator("details.rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("summary")).to_have_text(summary)
    panel.locator("summary").click()
    expect(panel.locator("li")).to_have_count(2)
    expect(panel).to_contain_text(line)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the panel fits the phone's width"
    panel.evaluate(
        "el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 160)"
    )
    screenshot(phone, f"variantplay-phone-{lang}")


FELLOWS = {"zh": "你的反贼同伴：", "en": "Your fellow rebels: "}
FIVE = {"zh": "你的起始手牌为 5 张", "en": "You start with 5 cards"}


@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh"), ("en-US", "en")])
def test_rebels_know_each_other_and_the_lord_starts_with_five(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str
) -> None:
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
    table = seated(app_server.base_url, names)
    table.host.act("options", fields="rebels_know_each_other", rebels_know_each_other="1")
    table.host.act("options", fields="lord_five_cards", lord_five_cards="1")
    deal(table)
    rebels = [s for s in table.seats if s.identity == "rebel"]
    assert len(rebels) >= 2

    phone = new_context(kind="phone", locale=locale).new_page()
    phone.goto(rebels[0].device.url)
    card = phone.locator("button.identity-card.holdable")
    fellows = card.locator(".idn-fellows")
    expect(fellows).to_be_hidden()
    box = box_of(card)
    assert box is not None
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.down()
    expect(fellows).to_be_visible()
    text = fellows.inner_text().strip()
    assert text.startswith(FELLOWS[lang].strip())
    for other in rebels[1:]:
        assert other.name in text
    for seat in table.seats:
        if seat.identity != "rebel":
            assert seat.name not in text
    screenshot(phone, f"variantplay-rebel-{lang}")
    phone.mouse.up()

    loyal = next(s for s in table.seats if s.identity not in ("rebel", "lord"))
    other_phone = new_context(kind="phone", locale=locale).new_page()
    other_phone.goto(loyal.device.url)
    other_card = other_phone.locator("button.identity-card.holdable")
    box = box_of(other_card)
    assert box is not None
    other_phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    other_phone.mouse.down()
    expect(other_card.locator(".idn-big")).to_be_visible()
    assert other_card.locator(".idn-fellows").inner_text().strip() == ""
    other_phone.mouse.up()

    lord = table.seat_by_identity("lord")
    lord_phone = new_context(kind="phone", locale=locale).new_page()
    lord_phone.goto(lord.device.url)
    expect(lord_phone.locator(".start-cards")).to_contain_text(FIVE[lang])
    expect(lord_phone.locator(".start-guide")).to_be_visible()
    screenshot(lord_phone, f"variantplay-lord-five-{lang}")


LORD_HEROES = {"zh": ("曹操", "刘备", "孙权"), "en": ("Cao Cao", "Liu Bei", "Sun Quan")}


@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh"), ("en-US", "en")])
def test_the_lord_pack_on_the_lords_phone(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str
) -> None:
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee", "Eve"])
    table.host.act("options", fields="lord_pack", lord_pack="1")
    deal(table)
    table.host.act("start")
    lord = table.seat_by_identity("lord")
    phone = new_context(kind="phone", locale=locale).new_page()
    phone.goto(lord.device.url)
    choices = phone.locator(".hero-choices form.choice")
    expect(choices).to_have_count(4)
    last = choices.nth(3).locator(".hero-card header").text_content() or ""
    assert any(name in last for name in LORD_HEROES[lang]), last
    for i in range(3):
        head = choices.nth(i).locator(".hero-card header").inner_text()
        assert not any(name in head for name in LORD_HEROES[lang]), head
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, f"variantplay-lord-pack-{lang}")
