"""The standings fit a 360 px phone whatever the numbers in them.

The scores of a real tournament depend on the random deal, so the widths of its numbers differ
from run to run. Here a ten-player tournament (tests/browser/night_tables.py) is played to its
last game and the phone (360x640, English: the longest headers and names) is shown the standings
twice: in the session panel before the last game ends, and in the end card's final ranking after.
Each time every row's numbers are set to the widest a tournament plausibly gives (a tenth rank, a
three-digit or a negative total, ten games, ten wins, ten kills) before the table is measured, so
the test does not depend on the deal. Screenshots: test-artifacts/standings-fit-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import tables
from tests.browser.conftest import ARTIFACTS, AppServer
from tests.browser.night_tables import finish, open_page, tournament

pytestmark = [pytest.mark.browser]

# Per row: rank, total, games, wins, kills (the row's columns, the name aside).
WIDEST = [("10", "108", "10", "10", "10"), ("10", "-12", "10", "10", "10")]

# Sets the widest numbers in every shown standings table, then measures each table against the
# box it sits in (rectangles' right edges, as test_end_of_night measures them).
WIDEN_AND_MEASURE_JS = """(widest) => {
  const shown = el => !!el && el.checkVisibility();
  const tables = Array.from(document.querySelectorAll('table.standings:not(.team-standings)')).filter(shown);
  tables.forEach(t => t.querySelectorAll('tbody tr').forEach((tr, i) => {
    const [rank, total, games, wins, kills] = widest[i % widest.length];
    const td = tr.children;
    td[0].textContent = rank;
    td[2].textContent = total;
    td[3].textContent = games;
    td[4].querySelector('.num').textContent = wins;
    td[5].textContent = kills;
  }));
  return {
    viewport: innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    tables: tables.map(t => ({
      where: t.closest('.final-ranking') ? 'end card' : 'session panel',
      rows: t.querySelectorAll('tbody tr').length,
      right: t.getBoundingClientRect().right,
      room: t.parentElement.getBoundingClientRect().right + 1,
    })),
  };
}"""


def widest_standings(page: Page, name: str) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(WIDEN_AND_MEASURE_JS, [list(row) for row in WIDEST])
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("table.standings:visible").first.screenshot(
        path=str(ARTIFACTS / f"standings-fit-{name}.png"), animations="disabled"
    )
    return got


def check(got: dict[str, Any], where: str) -> None:
    assert len(got["tables"]) == 1, f"{where}: standings shown {got['tables']}"
    for t in got["tables"]:
        assert t["rows"] == 10, f"{where}: {t}"
        assert t["right"] <= t["room"], f"{where}: a table runs out of its box {t}"
    assert got["scrollWidth"] <= got["viewport"], f"{where}: the page scrolls sideways"


def test_the_widest_standings_fit_a_360_px_phone(browser: Browser, app_server: AppServer) -> None:
    table, last = tournament(app_server.base_url, tables.NAMES_EN)
    page = open_page(browser, app_server, table.seats[0].device.url, (360, 640), "en", phone=True)
    panel = page.locator(".session-panel table.standings")
    panel.scroll_into_view_if_needed()
    expect(panel.locator("tbody tr")).to_have_count(10)
    check(widest_standings(page, "panel"), "session panel")

    finish(table, last)
    ranking = page.locator("#table-state .result .final-ranking table.standings")
    expect(ranking.locator("tbody tr")).to_have_count(10)
    ranking.scroll_into_view_if_needed()
    check(widest_standings(page, "end-card"), "end card")
    page.context.close()
