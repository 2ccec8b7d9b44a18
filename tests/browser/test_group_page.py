"""The group page in a real browser: a host imports a group's file (the 12 evenings of
tests/groups/support.py, 8 players) into the real server, and the page is read on phones
(360x640 and 390x844) in both languages and on a laptop (1280x800): no element wider than the
screen (the standings' tables fit whole, no sideways scrolling), every player's whole name in the
rating chart's key in their colour, the one sentence on the rating; on a small phone every
filter and every folded table's heading is a thumb's size (44px tall). Screenshots go to
test-artifacts/group-*.png."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from companion.actions.scoring import score_results
from companion.rules import modes
from companion.rules.identities import Identity
from tests.browser.conftest import ARTIFACTS, ContextFactory, screenshot
from tests.browser.tables import HEADER_CSRF_RE, open_table
from tests.groups.support import EVENINGS, NAMES

pytestmark = [pytest.mark.browser]


def group_file() -> dict:
    """The app's group export of the 12 evenings, made without a database."""
    games = []
    for n, (start, mode, minutes, winner, seats) in enumerate(EVENINGS):
        results = [
            {
                "seat": i,
                "identity": x.identity,
                "alive": x.alive,
                "final_duel": x.duel,
                "kill_identities": [next(y.identity for y in seats if y.who == v) for v in x.kills],
            }
            for i, x in enumerate(seats)
        ]
        the_mode = modes.get(mode)
        scores = score_results(the_mode, results, winner)
        games.append(
            {
                "uid": f"game{n}",
                "mode": mode,
                "started_at": start.isoformat(),
                "ended_at": start.replace(minute=minutes % 60, hour=20 + minutes // 60).isoformat(),
                "winner": winner,
                "results": [
                    {
                        "player": x.who,
                        "name": NAMES[x.who],
                        "position": i,
                        "identity": x.identity,
                        "role": the_mode.role(Identity(x.identity)) or "",
                        "team": the_mode.rating_team(Identity(x.identity), i),
                        "leader": the_mode.is_leader(Identity(x.identity)),
                        "hero": x.hero,
                        "alive": x.alive,
                        "won": scores[str(i)]["won"],
                        "kills": len(x.kills),
                        "points": scores[str(i)]["total"],
                    }
                    for i, x in enumerate(seats)
                ],
            }
        )
    return {
        "format": "sgs-companion-group/1",
        "group": {"uid": "friday", "name": "周五三国杀"},
        "players": [{"uid": k, "name": v} for k, v in NAMES.items()],
        "games": games,
    }


def _fits(page: Page, width: int) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide}px wide on a {width}px screen"
    # No element reaches past the screen's edge, and no table needs scrolling sideways.
    over = page.evaluate(
        """(w) => [...document.querySelectorAll('main *')]
        .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 0.5)
        .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 20))""",
        width,
    )
    assert over == [], f"wider than {width}px: {over[:5]}"
    hidden = page.evaluate(
        """() => [...document.querySelectorAll('.scroll-x')]
        .filter(e => e.scrollWidth > e.clientWidth + 0.5).length"""
    )
    assert hidden == 0, f"{hidden} tables scroll sideways at {width}px"


def imported_group(base_url: str) -> str:
    """The group page's address, once a host imported the group's file."""
    table = open_table(base_url)
    csrf = HEADER_CSRF_RE.search(table.host.page())
    assert csrf
    content = json.dumps(group_file(), ensure_ascii=False).encode()
    _url, html = table.host.post_file(
        table.host.url + "group/import", "file", content, csrf.group(1)
    )
    link = re.search(r'href="(/g/[A-Za-z0-9_-]+/)"', html)
    assert link, html[:600]
    return link.group(1)


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_the_group_page_controls_take_a_thumb_on_a_small_phone(
    app_server, new_phone: ContextFactory, locale: str
) -> None:
    page = new_phone(locale=locale).new_page()
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(imported_group(app_server.base_url))
    controls = page.locator(".group-filters :is(select, button), details > summary")
    expect(controls.first).to_be_visible()
    heights = controls.evaluate_all(
        "els => els.map(e => [e.textContent.trim().slice(0, 12), e.getBoundingClientRect().height])"
    )
    assert len(heights) >= 4
    small = [(text, round(h)) for text, h in heights if h < 44]
    assert small == [], f"under 44px tall: {small}"


@pytest.mark.parametrize(("locale", "title"), [("zh-CN", "等级分"), ("en-US", "Rating")])
def test_group_page_on_a_phone_and_a_laptop(
    app_server, new_phone: ContextFactory, new_context: ContextFactory, locale: str, title: str
) -> None:
    link = imported_group(app_server.base_url)
    lang = "zh" if locale == "zh-CN" else "en"
    for kind, context, (width, height) in (
        ("phone360", new_phone(locale=locale), (360, 640)),
        ("phone", new_phone(locale=locale), (390, 844)),
        ("laptop", new_context(kind="display", locale=locale), (1280, 800)),
    ):
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.goto(link)
        expect(page.locator(".group-ratings h2")).to_have_text(title)
        legend = page.locator(".group-ratings svg.chart").text_content() or ""
        for name in NAMES.values():
            assert name in legend  # whole names in the chart's key
        # Every standings table shows its last column (as leader) whole.
        for last in page.locator(".group-table > .scroll-x th:last-child").all():
            assert last.is_visible()
        page.eval_on_selector_all("details", "els => els.forEach(e => { e.open = true; })")
        screenshot(page, f"group-{kind}-{lang}", full_page=True)
        # The ratings and the first standings on their own, to look at the colours and the fit.
        page.locator(".group-ratings").screenshot(
            path=ARTIFACTS / f"group-{kind}-{lang}-ratings.png"
        )
        page.locator(".group-table").first.screenshot(
            path=ARTIFACTS / f"group-{kind}-{lang}-standings.png"
        )
        _fits(page, width)
        # One colour per player across the page: the swatches of 张三 are all one colour.
        fills = page.eval_on_selector_all(
            ".person",
            "els => els.filter(e => e.innerText.trim() === '张三')"
            ".map(e => e.querySelector('rect').getAttribute('fill'))",
        )
        assert len(fills) > 3 and len(set(fills)) == 1
