"""A whole 3 vs 3 game in a real browser, in Chinese and in English: the create form's
mode, six seats and a seventh refused, teams and commanders tapped on the phones, the draft and
the face-down placement on the commanders' phones, the cold commander's choice of the first side,
the warm commander's "commander acts / vanguards act", the sideways cards, a commander's death
(by the host's HTTP taps, to reach the end quickly), the end screen naming the winning side and
its players, and the session's standings. Phones 390x844, the display 1280x800; screenshots go
to test-artifacts/threes-<lang>-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot, wait_until
from tests.browser.game_steps import join_by_http, lang_context, place_heroes
from tests.browser.tables import Device

pytestmark = [pytest.mark.browser]

NAMES = {
    "zh": ["甲一", "乙二", "丙三", "丁四", "戊五", "己六"],
    "en": ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"],
}
WORDS = {
    "zh": {
        "six": "6",
        "start": "开始选将",
        "team1": "加入第1队",
        "warm": "暖色方",
        "cold": "冷色方",
        "wins": "暖色方获胜",
        "acted": "已行动",
        "commander_acts": "主帅行动",
        "vanguards_act": "前锋行动",
        "draw3": "摸三张牌",
    },
    "en": {
        "six": "6",
        "start": "Start the draft",
        "team1": "Join team 1",
        "warm": "warm",
        "cold": "cold",
        "wins": "The warm side wins",
        "acted": "acted",
        "commander_acts": "The commander acts",
        "vanguards_act": "The vanguards act",
        "draw3": "draws 3 cards",
    },
}

# docs/rules.md §9.7: round the table, cold vanguard A, cold commander, cold vanguard B, warm vanguard B,
# warm commander, warm vanguard A (the first seat is either team's first).
PLACES = {
    "zh": [
        "冷色方前锋甲",
        "冷色方主帅",
        "冷色方前锋乙",
        "暖色方前锋乙",
        "暖色方主帅",
        "暖色方前锋甲",
    ],
    "en": [
        "The cold side: vanguard A",
        "The cold side: commander",
        "The cold side: vanguard B",
        "The warm side: vanguard B",
        "The warm side: commander",
        "The warm side: vanguard A",
    ],
}


def tap_in_view(page: Page, target: Locator) -> None:
    """A finger's tap on `target` once it is in the middle of the screen, clear of the sticky
    strip at the top and the turn's buttons at the bottom (a phone that shows its screen-lock
    note has the helper lower down)."""
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = box_of(target)
    assert box, "not on the screen"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def settle(page: Page, version_before: int) -> int:
    """Wait until this page shows a later table version than `version_before`."""
    state = page.locator("#mode-board")
    expect(state).not_to_have_attribute("data-version", str(version_before))
    return int(state.get_attribute("data-version") or 0)


def version(page: Page) -> int:
    return int(page.locator("#mode-board").get_attribute("data-version") or 0)


SYNCED_JS = """() => {
    const board = document.querySelector('#mode-board');
    const controls = document.querySelector('#mode-controls');
    return board && controls && board.dataset.version === controls.dataset.version;
}"""


def tap(page: Page, selector: str, *, synced: bool = False) -> None:
    """Click a button on this page and wait for the next version. `synced`: first wait until
    the page's own controls show the board's version (a pick button of an older version may
    name a hero just taken)."""
    if synced:
        page.wait_for_function(SYNCED_JS)
    before = version(page)
    page.locator(selector).first.click()
    settle(page, before)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_threes_game_in_the_browser(
    lang: str, app_server: AppServer, new_context: ContextFactory
) -> None:
    words = WORDS[lang]
    names = NAMES[lang]

    def device(kind: str) -> BrowserContext:
        return lang_context(new_context, app_server.base_url, lang, kind)

    console_context = device("display")

    # The host opens a 3 vs 3 table from the create form.
    host = console_context.new_page()
    host.goto("/")
    host.locator("input[name=mode][value=threes]").check()
    host.locator(
        "form[action='/new/'] button[type=submit], form[action='/new/'] button"
    ).last.click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    host_path = re.sub(r"^https?://[^/]+", "", host.url)
    join_url = host.locator(".join-url").inner_text().strip()
    code = host.locator(".big-code").inner_text().strip()
    display = console_context.new_page()
    display.goto(f"/t/{code}/")

    # The join page says the table has six seats; six players join, the seventh is refused.
    first_phone = device("phone")
    join_page = first_phone.new_page()
    join_page.goto(join_url)
    expect(join_page.locator(".join-mode")).to_contain_text(words["six"])
    screenshot(join_page, f"threes-{lang}-join")
    phones: list[Page] = []
    for i, name in enumerate(names):
        context = first_phone if i == 0 else device("phone")
        url = join_by_http(context, join_url, name)
        page = join_page if i == 0 else context.new_page()
        page.goto(url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        phones.append(page)
    late = device("phone").new_page()
    late.goto(join_url)
    expect(late.locator(".join-closed")).to_be_visible()
    expect(late.locator("#name")).to_have_count(0)
    screenshot(late, f"threes-{lang}-join-full")
    expect(display.locator("#table-state .ring .seat")).to_have_count(6)

    # Each player picks a team on the phone; the second of each team commands it.
    for i, page in enumerate(phones):
        tap(page, f"form[hx-post='act/team']:has(input[value='{i // 3}']) button")
    tap(phones[1], "form[hx-post='act/commander'] button")
    tap(phones[4], "form[hx-post='act/commander'] button")
    expect(display.locator("#mode-board .teams .pill-warn")).to_have_count(2)
    expect(phones[0].locator(".my-team")).to_contain_text("1")
    expect(phones[4].locator(".my-team")).to_contain_text("2")
    screenshot(phones[0], f"threes-{lang}-phone-teams")

    # The host deals (the commanders' draw) and starts the draft.
    host.locator("form[hx-post='act/deal'] button").first.click()
    start = host.locator("form[hx-post='act/start'] button").first
    expect(start).to_have_text(words["start"])
    start.click()
    expect(display.locator("#mode-board .draft-pool .pool-card")).to_have_count(16)
    commanders = [phones[1], phones[4]]

    # The warm commander's phone gets the choice of the first picker; its controls may arrive
    # a moment after the display's board, so the two phones are asked until one has it.
    def asked() -> Page | None:
        return next(
            (p for p in commanders if p.locator("form[hx-post='act/draftfirst']").count()), None
        )

    wait_until(commanders[0], lambda: asked() is not None, "a commander asked who picks first")
    warm = asked()
    assert warm is not None
    cold = commanders[1] if warm is commanders[0] else commanders[0]
    expect(warm.locator("form[hx-post='act/draftfirst']")).to_have_count(2)
    expect(cold.locator("form[hx-post='act/draftfirst']")).to_have_count(0)
    # The warm commander lets the warm side pick first.
    tap(warm, "form[hx-post='act/draftfirst']:has(input[value='warm']) button")

    # Picks alternate 1-2-2-2-2-2-2-2-1, each on the picking commander's phone; a hero taken
    # by mistake is taken back (undo) and picked again.
    steps = [1, 2, 2, 2, 2, 2, 2, 2, 1]
    taken = 0
    for step, count in enumerate(steps):
        picker, waiter = (warm, cold) if step % 2 == 0 else (cold, warm)
        expect(waiter.locator(".hero-choices")).to_have_count(0)
        for n in range(count):
            if step == 3 and n == 1:
                screenshot(display, f"threes-{lang}-display-draft")
                screenshot(picker, f"threes-{lang}-phone-draft")
            tap(picker, ".hero-choices form button", synced=True)
            taken += 1
            expect(display.locator("#mode-board .pool-card.taken")).to_have_count(taken)
        if step == 3:
            # Undo: the last pick goes back to the pool; the cold side picks again, another
            # hero (the same one again would be the same tap as the undone pick: arriving
            # within TAP_REPEAT_WINDOW_MS of it, as on a loaded server it may, it is merged).
            tap(picker, "form[hx-post='act/draftundo'] button")
            expect(display.locator("#mode-board .pool-card.taken")).to_have_count(taken - 1)
            tap(picker, ".hero-choices form button >> nth=-1", synced=True)
            expect(display.locator("#mode-board .pool-card.taken")).to_have_count(taken)
    expect(display.locator("#mode-board .pool-card.taken")).to_have_count(16)

    # Each commander places three of its eight face down; nobody else sees a place.
    expect(warm.locator("form.placement")).to_be_visible()
    place_heroes(warm)
    tap(warm, "form.placement .place-confirm")
    # The warm commander's phone sees its places; the display, the console, his own vanguards
    # and the cold side's phones see only that the warm side has placed.
    others = [p for p in phones if p is not warm]
    places = "text=" + ("你方位置" if lang == "zh" else "Your places")
    expect(warm.locator(places)).to_have_count(1)
    for page in [display, host, *others]:
        expect(page.locator("#mode-board")).to_contain_text(words["warm"])
        expect(page.locator(places)).to_have_count(0)
    expect(cold.locator("form.placement")).to_be_visible()
    place_heroes(cold)
    tap(cold, "form.placement .place-confirm")

    # All six are revealed: the game starts, the cold commander chooses the first side.
    # The ring names each seat's place, in the order of docs/rules.md §9.7.
    places = display.locator("#table-state .ring .seat .idn")
    expect(places).to_have_count(6)
    shown = [t.strip() for t in places.all_inner_texts()]
    ring = PLACES[lang]
    start = ring.index(shown[0])
    assert shown == ring[start:] + ring[:start], shown
    expect(display.locator("#table-state .ring .seat .seat-hero")).to_have_count(6)
    # The question and its answers are in the asked commander's strip, on his first screen.
    answer = cold.locator("#now-strip .now-wait form[hx-post='act/answer']")
    expect(answer).to_have_count(2)
    expect(answer.last).to_be_in_viewport(ratio=1)
    expect(warm.locator("#now-strip .now-wait")).to_be_hidden()
    screenshot(cold, f"threes-{lang}-phone-who-first")
    tap(cold, "#now-strip form[hx-post='act/answer']:has(input[value='cold']) button")
    cold_id = cold.locator("#my-seat").get_attribute("data-seat")
    warm_id = warm.locator("#my-seat").get_attribute("data-seat")
    expect(cold.locator(".end-turn button")).to_be_visible()
    tap(cold, ".end-turn button")

    # The warm commander's go: "commander acts" or "vanguards act".
    choice = warm.locator("#now-strip .now-wait form[hx-post='act/answer']")
    expect(choice).to_have_count(2)
    expect(choice.last).to_be_in_viewport(ratio=1)
    expect(choice.nth(0)).to_contain_text(words["commander_acts"])
    expect(choice.nth(1)).to_contain_text(words["vanguards_act"])
    screenshot(warm, f"threes-{lang}-phone-who-acts")
    tap(warm, "#now-strip form[hx-post='act/answer']:has(input[value='vanguards']) button")

    # The cold commander and the first warm vanguard are sideways on every screen.
    for page in [display, *phones]:
        sideways = page.locator("#table-state .ring .seat.sideways")
        expect(sideways).to_have_count(2)
        expect(sideways.locator(".sideways-mark")).to_have_text([words["acted"]] * 2)
    expect(
        display.locator(f"#table-state .ring .seat.sideways[data-seat='{cold_id}']")
    ).to_have_count(1)
    screenshot(display, f"threes-{lang}-display-sideways")

    # The area-trick helper on the player in turn: which way, then the targets in order.
    in_turn = display.locator("#table-state .ring .seat.has-turn").get_attribute("data-seat")
    vanguard = next(
        p for p in phones if p.locator("#my-seat").get_attribute("data-seat") == in_turn
    )
    user = vanguard.locator("#my-seat .me-name").inner_text().strip()
    ring = display.locator("#table-state .ring .seat .seat-name").all_inner_texts()
    at = ring.index(user)
    turn_order = ring[at + 1 :] + ring[:at]
    helper = vanguard.locator("details.area-helper")
    tap_in_view(vanguard, helper.locator("summary").first)
    savage = helper.locator("details.area-trick[data-card='南蛮入侵']")
    tap_in_view(vanguard, savage.locator("summary").first)
    ways = savage.locator("details.area-way")
    expect(ways).to_have_count(2)
    tap_in_view(vanguard, ways.nth(0).locator("summary"))
    tap_in_view(vanguard, ways.nth(1).locator("summary"))
    first = ways.nth(0).locator(".area-order li").all_inner_texts()
    second = ways.nth(1).locator(".area-order li").all_inner_texts()
    assert first == turn_order and second == first[::-1], (first, second, turn_order)
    savage.scroll_into_view_if_needed()
    screenshot(vanguard, f"threes-{lang}-phone-area-helper")

    # The host (HTTP taps) brings the cold commander down: the warm side wins.
    console = Device(app_server.base_url)
    console.url = host_path
    hp_text = display.locator(f"#table-state .ring .seat[data-seat='{cold_id}'] .hp-num")
    hp = int(hp_text.inner_text().split("/")[0])
    console.act("hp", seat=str(cold_id), delta=str(-hp), source=str(warm_id))
    console.act("die", seat=str(cold_id))
    result = display.locator(".result h2.winner")
    expect(result).to_contain_text(words["wins"])
    for i in (0, 1, 2) if warm is phones[1] else (3, 4, 5):
        expect(result).to_contain_text(names[i])
    # Any kill draws 3: the history says so.
    expect(display.locator("#table-state .events").first).to_contain_text(words["draw3"])
    screenshot(display, f"threes-{lang}-display-end")
    screenshot(warm, f"threes-{lang}-phone-end")

    # The session's standings: the warm players have a win, the cold ones none.
    rows = display.locator("#session-panel table.standings:not(.team-standings) tbody tr")
    expect(rows).to_have_count(6)
    warm_names = names[:3] if warm is phones[1] else names[3:]
    for row in range(6):
        line = rows.nth(row)
        if line.locator(".pname").inner_text().strip() in warm_names:
            expect(line.locator(".win-chip")).to_have_text(re.compile(words["warm"] + r".*1"))
        else:
            expect(line.locator(".win-chip")).to_have_count(0)
    teams = display.locator("#session-panel table.team-standings tbody tr")
    expect(teams).to_have_count(2)
    expect(teams.first).to_contain_text(warm_names[0])
    expect(teams.first.locator(".win-chip")).to_contain_text(words["warm"])
    shoot_panel = display.locator("#session-panel")
    shoot_panel.scroll_into_view_if_needed()
    screenshot(display, f"threes-{lang}-display-standings")

    # A next game at the same table swaps the colours: the warm commander is now cold.
    host.locator("form[hx-post='act/deal'] button").first.click()
    expect(warm.locator("#my-seat .identity-card")).to_contain_text(words["cold"])
    expect(cold.locator("#my-seat .identity-card")).to_contain_text(words["warm"])
