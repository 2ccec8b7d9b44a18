"""A whole game in a real browser with English and Chinese screens side by side: the
join page of a locked table, hero cards and their kingdoms, the equipment
dialog, delayed tricks, a judgement, the end screen and the session scores. Every English screen
shows no Chinese word without its English name beside it; the Chinese screens keep the Chinese
names alone. Phones are 390x844, the display and the host console 1280x800; screenshots go to
test-artifacts/lang-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.boxes import said
from tests.browser.conftest import ContextFactory, screenshot
from tests.support.langscan import stray_cjk

pytestmark = [pytest.mark.browser]

NAMES = ["Ann", "Bo", "Cy", "Dee"]
IDN_RE = re.compile(r"\bidn-(lord|loyalist|rebel|renegade)\b")

# What a person sees: the rendered text, and the words shown in tooltips and confirmations.
SEEN_JS = """() => {
    const words = [document.body.innerText];
    for (const el of document.querySelectorAll('[title], [aria-label], [hx-confirm], [placeholder]')) {
        if (!el.checkVisibility()) continue;
        for (const a of ['title', 'aria-label', 'hx-confirm', 'placeholder']) {
            if (el.getAttribute(a)) words.push(el.getAttribute(a));
        }
    }
    return words.join(' \\n ').replace(/\\s+/g, ' ');
}"""


def seen(page: Page) -> str:
    return str(page.evaluate(SEEN_JS))


def no_stray_chinese(page: Page, where: str) -> None:
    stray = stray_cjk(seen(page))
    assert stray == [], f"{where}: Chinese without its English name: {stray}"


def shoot(page: Page, target: str, name: str) -> None:
    """Scroll `target` under the top bar, hide the announcement toast, take a screenshot."""
    page.locator(target).first.evaluate(
        "el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 64)"
    )
    page.evaluate(
        "() => { const t = document.getElementById('toast'); if (t) t.classList.remove('show'); }"
    )
    screenshot(page, name)


def open_seat(page: Page, seat: str) -> Locator:
    page.locator(f"#table-state .ring .seat[data-seat='{seat}'] .seat-open").click()
    dialog = page.locator("#dialog [role=dialog]")
    expect(dialog).to_be_visible()
    return dialog


def closed(page: Page) -> None:
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)


def test_a_game_in_english_and_chinese(
    display_context: BrowserContext, new_context: ContextFactory, new_phone: ContextFactory
) -> None:
    host = display_context.new_page()  # the host console, in Chinese
    host.on("dialog", lambda d: d.accept())
    host.goto("/")
    host.locator("form[action='/new/'] button").click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    join_url = host.locator(".join-url").inner_text().strip()
    code = join_url.rstrip("/").rsplit("/", 1)[-1]
    display = new_context(kind="display", locale="en-US").new_page()
    display.goto(f"/t/{code}/")
    expect(display.locator("html")).to_have_attribute("lang", "en")

    pages: dict[str, Page] = {}
    seats: dict[str, str] = {}
    for i, name in enumerate(NAMES):
        page = new_phone(locale="en-US" if i % 2 == 0 else "zh-CN").new_page()
        page.on("dialog", lambda d: d.accept())
        page.goto(join_url)
        page.locator("#name").fill(name)
        page.locator("form:has(#name) button[type=submit]").click()
        expect(page.locator("#my-seat .me-name")).to_have_text(name)
        pages[name] = page
        seats[name] = page.locator("#my-seat").get_attribute("data-seat") or ""
    english = [pages[n] for n in NAMES[0::2]]
    chinese = [pages[n] for n in NAMES[1::2]]
    for page in pages.values():
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")

    # A locked table says so before anyone types a name, in both languages.
    locked = host.locator("#host-panel form[hx-post='act/lock'] input[name=locked]")
    expect(locked).to_have_value("1")
    expect(host.locator("#conn")).to_have_attribute("data-state", "open")
    host.locator("#host-panel form[hx-post='act/lock'] button").click()
    expect(host.locator("#table-state .pill-warn")).to_be_visible()
    expect(locked).to_have_value("0")
    expect(display.locator("#table-state .pill-warn")).to_be_visible()
    for locale, label in (("en-US", "en"), ("zh-CN", "zh")):
        late = new_phone(locale=locale).new_page()
        late.goto(join_url)
        expect(late.locator(".join-closed")).to_be_visible()
        expect(late.locator("#name")).to_have_count(0)
        if label == "en":
            expect(late.locator(".join-closed")).to_have_text("The host has locked this table.")
        screenshot(late, f"lang-{label}-phone-join-locked")
    host.locator("#host-panel form[hx-post='act/lock'] button").click()
    expect(locked).to_have_value("1")
    expect(display.locator("#table-state .pill-warn")).to_have_count(0)

    # Deal identities and heroes; everyone takes a candidate.
    host.locator("#host-panel input[name=maneuvering]").check()
    expect(host.locator("#host-panel input[name=maneuvering]")).to_be_checked()
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "heroes")
    identity: dict[str, str] = {}
    for name, page in pages.items():
        card = page.locator("#my-seat .identity-card")
        expect(card).to_have_class(IDN_RE)
        found = IDN_RE.search(card.get_attribute("class") or "")
        assert found
        identity[name] = found.group(1)
    lord = next(n for n, i in identity.items() if i == "lord")
    choose = pages[lord].locator("#my-seat .hero-choices form button").first
    expect(choose).to_be_visible()
    choose.click()
    for name, page in pages.items():
        if name != lord:
            button = page.locator("#my-seat .hero-choices form button").first
            expect(button).to_be_visible()
            button.click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    for page in pages.values():
        expect(page.locator("#table-state")).to_have_attribute("data-status", "playing")
        expect(page.locator("#my-seat .hero-choices")).to_have_count(0)

    # Kingdom badges: "Wei 魏" on an English phone, "魏" alone on a Chinese one; the identity
    # word is not letter-spaced in English ("L o r d").
    for page in english:
        badge = page.locator("#my-seat article.hero-card .kingdom-badge")
        expect(badge).to_have_text(re.compile(r"^(Wei 魏|Shu 蜀|Wu 吴|Qun 群)$"))
    for page in chinese:
        badge = page.locator("#my-seat article.hero-card .kingdom-badge")
        expect(badge).to_have_text(re.compile(r"^[魏蜀吴群]$"))
    lord_page = pages[lord]
    lord_en = lord in NAMES[0::2]
    spacing = lord_page.locator("#my-seat .idn-big").evaluate(
        "e => getComputedStyle(e).letterSpacing"
    )
    assert (spacing == "normal") == lord_en, f"letter-spacing {spacing} on the Lord's phone"

    # The Lord equips a Qilin Bow and a −1 horse through the equipment dialog; Indulgence goes
    # on the next seat and Lightning on the Lord.
    lord_page.locator("#my-seat button[hx-get^='equip/']").click()
    dialog = lord_page.locator("#dialog [role=dialog]")
    expect(dialog).to_be_visible()
    bow = dialog.locator("form[hx-post='act/equip']:has(input[value='麒麟弓']) button")
    expect(bow).to_have_text(re.compile(r"Qilin Bow 麒麟弓" if lord_en else r"^麒麟弓"))
    if lord_en:
        no_stray_chinese(lord_page, "equipment dialog")
    screenshot(lord_page, f"lang-{'en' if lord_en else 'zh'}-phone-equip-dialog")
    bow.click()
    closed(lord_page)
    lord_page.locator("#my-seat button[hx-get^='equip/']").click()
    dialog.locator("form[hx-post='act/equip']:has(input[value='赤兔']) button").click()
    closed(lord_page)
    order = [
        s.get_attribute("data-seat") for s in display.locator("#table-state .ring > .seat").all()
    ]
    after_lord = order[(order.index(seats[lord]) + 1) % len(order)] or ""
    # The host records them (a player places a trick only in their own play phase).
    dialog = open_seat(host, after_lord)
    dialog.locator("form[hx-post='act/trick']:has(input[value='乐不思蜀']) button").click()
    closed(host)
    dialog = open_seat(host, seats[lord])
    dialog.locator("form[hx-post='act/trick']:has(input[value='闪电']) button").click()
    closed(host)

    lord_ring = display.locator(f"#table-state .ring .seat[data-seat='{seats[lord]}']")
    expect(lord_ring.locator(".equip")).to_contain_text("Qilin Bow 麒麟弓5")
    expect(lord_ring.locator(".equip")).to_contain_text("Chitu 赤兔")
    expect(lord_ring.locator(".zone")).to_have_text("Lightning 闪电")
    next_ring = display.locator(f"#table-state .ring .seat[data-seat='{after_lord}']")
    expect(next_ring.locator(".zone")).to_have_text("Indulgence 乐不思蜀")
    for page in chinese:
        ring = page.locator(f"#table-state .ring .seat[data-seat='{seats[lord]}']")
        expect(ring.locator(".equip")).to_contain_text("麒麟弓5")
        expect(ring.locator(".equip")).not_to_contain_text("Qilin")

    # An English phone's own equipment and judgement dialogs, and a seat's dialog.
    phone = english[0]
    for opener, name in (
        ("#my-seat button[hx-get^='equip/']", "equip-dialog"),
        ("#my-seat button[hx-get^='judge/']", "judge-dialog"),
        (f"#table-state .ring .seat[data-seat='{seats[lord]}'] .seat-open", "seat-dialog"),
    ):
        phone.locator(opener).click()
        box = phone.locator("#dialog [role=dialog]")
        expect(box).to_be_visible()
        if name == "equip-dialog":
            expect(box).to_contain_text("Qilin Bow 麒麟弓")
        elif name == "judge-dialog":
            expect(box).to_contain_text("Lightning 闪电")
            expect(box).to_contain_text("Indulgence 乐不思蜀")
        else:
            expect(box.locator(".chip.trick")).to_have_text("Lightning 闪电")
        no_stray_chinese(phone, name)
        screenshot(phone, f"lang-en-phone-{name}")
        box.locator("[data-close-dialog]").first.dispatch_event("click")
        closed(phone)

    # The Lord's judgement phase: judge the Lightning (♠10: no strike, it moves on).
    lord_page.locator("#table-state .turn-bar form[hx-post='act/next'] button").click()
    judge = lord_page.locator("#table-state .turn-bar .turn-only button[hx-get^='judge/']")
    expect(judge).to_be_visible()
    expect(judge).to_have_text("Judge Lightning 闪电" if lord_en else "判定闪电")
    for page in english:
        expect(page.locator("#table-state .turn-bar .phase-note")).to_contain_text("Lightning 闪电")
        no_stray_chinese(page, "judgement phase, " + page.url)
    no_stray_chinese(display, "display, judgement phase")
    shoot(display, "#table-state", "lang-en-display-judgement-phase")
    for page, label in ((english[0], "en"), (chinese[0], "zh")):
        shoot(page, "#table-state .turn-bar", f"lang-{label}-phone-judgement-phase")
    judge.click()
    form = lord_page.locator("#dialog .judge-form")
    expect(form).to_be_visible()
    if lord_en:
        no_stray_chinese(lord_page, "judgement dialog")
    form.locator(".suits label:has(input[value='spade'])").click()
    form.locator(".ranks label:has(input[value='10'])").click()
    form.locator("button.btn-primary").click()
    closed(lord_page)
    if lord_page.locator("#table-state .banner-judge").count():
        # 司马懿 is at the table: 鬼才 may replace the card first; only 司马懿 lets it take
        # effect, and the judged player's turn bar waits for him.
        no_stray_chinese(display, "display, 鬼才 banner")
        for page in english:
            no_stray_chinese(page, "phone, 鬼才 banner")
        expect(lord_page.locator("#table-state .turn-bar .judge-wait")).to_be_disabled()
        sima_seat = lord_page.locator("#table-state .banner-judge").get_attribute("data-guicai")
        sima_page = next(p for n, p in pages.items() if seats[n] == sima_seat)
        # His phone asks him in the strip at the top, #now-strip, outside #table-state (the
        # banner's copy is hidden there).
        confirm = sima_page.locator("#now-strip .now-wait form[hx-post='act/confirm'] button")
        expect(confirm).to_be_visible()
        expect(sima_page.locator("#table-state .banner-judge .guicai-ask")).to_be_hidden()
        confirm.click()
    line = display.locator("#table-state > .history .events li").first
    expect(line).to_contain_text("Lightning 闪电")
    expect(line).to_contain_text("no strike")
    expect(line).not_to_contain_text("#")

    # The Lord dies at the hands of a rebel: the rebels win; the end screen and the scores.
    rebel = next(n for n, i in identity.items() if i == "rebel")
    ring = host.locator(f"#table-state .ring .seat[data-seat='{seats[lord]}']")
    for _blow in range(4):
        if "dying" in (ring.get_attribute("class") or "").split():
            break
        version = host.locator("#table-state").get_attribute("data-version")
        dialog = open_seat(host, seats[lord])
        dialog.locator(".damage-form label:has(input[name=delta][value='-3'])").click()
        dialog.locator(f".damage-form button[name=source][value='{seats[rebel]}']").click()
        expect(host.locator("#table-state")).not_to_have_attribute("data-version", str(version))
        closed(host)
    expect(ring).to_have_class(re.compile(r"\bdying\b"))
    dialog = open_seat(host, seats[lord])
    dialog.locator("form[hx-post='act/die'] button").click()
    closed(host)
    for page in [display, *pages.values()]:
        expect(page.locator("#table-state")).to_have_attribute("data-status", "finished")
        # (The display may fold the breakdown away to fit a TV: present, not always shown.)
        expect(page.locator("#table-state .score-result")).to_have_count(1)
    rebels_line = re.compile(r"1 rebel alive × 3 points|2 rebels alive × 3 points")
    expect(display.locator(".score-result")).to_contain_text(rebels_line)
    expect(chinese[0].locator(".score-result")).to_contain_text(re.compile(r"\d 名存活反贼 × 3 分"))
    for page, words in (
        (english[0], "Game over"),
        (chinese[0], "游戏结束"),
        (display, "Game over"),
    ):
        assert said(page, words) == 1, words  # the status line's; a phone's strip says nothing
    no_stray_chinese(display, "display, end screen")
    for page in english:
        no_stray_chinese(page, "phone, end screen")
    shoot(display, "#table-state .result", "lang-en-display-end")
    shoot(host, "#table-state .result", "lang-zh-console-end")
    shoot(display, "#session-panel", "lang-en-display-session")
    for page, label in ((english[0], "en"), (chinese[0], "zh")):
        shoot(page, "#table-state .score-result", f"lang-{label}-phone-scores")
        shoot(page, "#session-panel", f"lang-{label}-phone-session")

    # The session history: the games list is a list, not a count.
    chinese[0].locator("#session-panel button[hx-get='session/']").click()
    expect(chinese[0].locator("#dialog .session-dialog h3").first).to_have_text("对局记录")
    english[0].locator("#session-panel button[hx-get='session/']").click()
    expect(english[0].locator("#dialog .session-dialog")).to_be_visible()
    no_stray_chinese(english[0], "session history")
    screenshot(english[0], "lang-en-phone-session-history")
