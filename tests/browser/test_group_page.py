"""The group page in a real browser: a host imports a group's file (the 12 evenings of
tests/groups/support.py, 8 players) into the real server, and the page is read on a phone
(390x844) in both languages and on a laptop (1280x800): nothing wider than the screen, every
player's whole name in the rating chart's key in their colour, the one sentence on the rating.
Screenshots go to test-artifacts/group-*.png."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from companion.actions.scoring import score_results
from companion.rules import modes
from companion.rules.identities import Identity
from tests.browser.conftest import ContextFactory, screenshot
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


@pytest.mark.parametrize(("locale", "title"), [("zh-CN", "等级分"), ("en-US", "Rating")])
def test_group_page_on_a_phone_and_a_laptop(
    app_server, new_phone: ContextFactory, new_context: ContextFactory, locale: str, title: str
) -> None:
    table = open_table(app_server.base_url)
    csrf = HEADER_CSRF_RE.search(table.host.page())
    assert csrf
    content = json.dumps(group_file(), ensure_ascii=False).encode()
    _url, html = table.host.post_file(
        table.host.url + "group/import", "file", content, csrf.group(1)
    )
    link = re.search(r'href="(/g/[A-Za-z0-9_-]+/)"', html)
    assert link, html[:600]
    lang = "zh" if locale == "zh-CN" else "en"
    for kind, context, width in (
        ("phone", new_phone(locale=locale), 390),
        ("laptop", new_context(kind="display", locale=locale), 1280),
    ):
        page = context.new_page()
        page.goto(link.group(1))
        expect(page.locator(".group-ratings h2")).to_have_text(title)
        legend = page.locator(".group-ratings svg.chart").text_content() or ""
        for name in NAMES.values():
            assert name in legend  # whole names in the chart's key
        _fits(page, width)
        # One colour per player across the page: the swatches of 张三 are all one colour.
        fills = page.eval_on_selector_all(
            ".person",
            "els => els.filter(e => e.innerText.trim() === '张三')"
            ".map(e => e.querySelector('rect').getAttribute('fill'))",
        )
        assert len(fills) > 3 and len(set(fills)) == 1
        screenshot(page, f"group-{kind}-{lang}", full_page=True)
