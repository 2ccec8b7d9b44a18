"""The host's lobby form for the variants and house rules in a real browser (docs/rules.md §9.6,
docs/variants.md), in both languages: a tick switches an option on for every screen, an option
that excludes one on is disabled with the reason, and the reason a variant will not deal to
four players is shown. Screenshots: test-artifacts/variants-lobby-{zh,en}.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.tables import seated

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize(
    ("locale", "lang", "clash", "players"),
    [
        (
            "zh-CN",
            "zh",
            "转世与暗魂都规定阵亡者之后的去向，只能选其一。",
            "反贼互认至少需要两名反贼，本局只有一名。",
        ),
        (
            "en-US",
            "en",
            "Rebirth and dark souls both decide what becomes of the dead: choose one.",
            "Rebels who know each other need two rebels or more; this deal has one.",
        ),
    ],
)
def test_the_variants_in_the_lobby(
    app_server: AppServer,
    new_phone: ContextFactory,
    locale: str,
    lang: str,
    clash: str,
    players: str,
) -> None:
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee"])
    table.host.act("options", fields="rebels_know_each_other", rebels_know_each_other="1")
    page = new_phone(locale=locale).new_page()
    page.goto(table.host.url)
    form = page.locator("form.variants")
    expect(form).to_be_visible()
    expect(form).to_contain_text(players)
    form.locator("input[name=rebirth]").check()
    expect(form.locator("input[name=dark_souls]")).to_be_disabled()
    expect(form).to_contain_text(clash)
    expect(form.locator("input[name=rebirth]")).to_be_checked()
    form.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 64)")
    screenshot(page, f"variants-lobby-{lang}")
    # Switched off again, dark souls may be ticked.
    form.locator("input[name=rebirth]").uncheck()
    expect(form.locator("input[name=dark_souls]")).to_be_enabled()
