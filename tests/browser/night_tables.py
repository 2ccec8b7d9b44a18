"""Tables at the end of an evening, built with plain HTTP requests (tests/browser/tables.py), and
the end screens opened at the sizes they are read at.

A finished tournament: every player lord once, in first-game mode (no heroes), the games won in
turn by the rebels (the lord killed by a rebel) and by the lord (the rebels and renegades killed
by the lord), so every player has scores and wins of several identities. Nothing here depends on
which seat is dealt what: the killers and victims are found by identity.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser import tables
from tests.browser.conftest import AppServer


def new_session(table: tables.HttpTable, *, tournament: bool) -> None:
    """The host starts a new session (a tournament: the first seat is the first lord)."""
    html = table.host.page()
    found = tables.HEADER_CSRF_RE.search(html)
    assert found, html[:300]
    table.host.post(
        table.host.url + "session/new",
        {"mode": "tournament" if tournament else "plain", "first_lord": str(table.seats[0].id)},
        found.group(1),
    )


def _identities(table: tables.HttpTable) -> None:
    for seat in table.seats:
        found = tables.IDENTITY_RE.search(seat.device.page())
        assert found, seat.name
        seat.identity = found.group(1)


def deaths(table: tables.HttpTable, game: int) -> list[tuple[tables.HttpSeat, tables.HttpSeat]]:
    """(victim, killer) in order for this game: even games the rebels win, odd ones the lord."""
    lord = table.seat_by_identity("lord")
    rebels = [s for s in table.seats if s.identity == "rebel"]
    if game % 2 == 0:
        killer = rebels[(game // 2) % len(rebels)]
        loyal = [s for s in table.seats if s.identity == "loyalist"][:1]
        return [(s, killer) for s in loyal] + [(lord, killer)]
    renegades = [s for s in table.seats if s.identity == "renegade"]
    return [(s, lord) for s in renegades + rebels]


def start_game(table: tables.HttpTable, game: int) -> list[tuple[tables.HttpSeat, tables.HttpSeat]]:
    """Deal and start game `game` (0-based); returns its deaths, still to happen."""
    if game == 0:
        table.host.act("options", fields="first_game_mode", first_game_mode="1")
    table.host.act("deal")
    _identities(table)
    table.host.act("start")
    return deaths(table, game)


def finish(
    table: tables.HttpTable,
    game_deaths: list[tuple[tables.HttpSeat, tables.HttpSeat]],
    *,
    over: bool = True,
) -> None:
    """These deaths, in order; the game is then over (or not yet, with over=False)."""
    for victim, killer in game_deaths:
        tables.kill(table, victim, killer)
    assert bool(re.search(r'data-status="finished"', table.host.page())) == over


def tournament(
    base_url: str, names: list[str]
) -> tuple[tables.HttpTable, list[tuple[tables.HttpSeat, tables.HttpSeat]]]:
    """A tournament of these players with every game over but the last, whose final death is
    returned (so screens opened now see the end arrive)."""
    table = tables.seated(base_url, names)
    new_session(table, tournament=True)
    for game in range(len(names) - 1):
        finish(table, start_game(table, game))
    last = start_game(table, len(names) - 1)
    finish(table, last[:-1], over=False)
    return table, last[-1:]


def open_page(
    browser: Browser,
    server: AppServer,
    path: str,
    size: tuple[int, int],
    lang: str,
    *,
    phone: bool = False,
) -> Page:
    """A page of the table at this viewport, in this language."""
    options: dict = {"viewport": {"width": size[0], "height": size[1]}}
    if phone:
        options.update(device_scale_factor=2, is_mobile=True, has_touch=True)
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US", base_url=server.base_url, **options
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": server.base_url}])
    page = context.new_page()
    page.clock.install()
    page.goto(path)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page


def pause_clock(page: Page) -> None:
    """Stop the page's clock at about now: its timers stand still until `page.clock.resume()`.

    Playwright pauses at a given time, and refuses one already past; on a loaded machine more
    than the second allowed here may pass between reading the page's time and pausing it, so
    the page's time is read again and the pause tried again."""
    for _attempt in range(5):
        try:
            page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
            return
        except PlaywrightError as exc:
            if "past" not in str(exc):
                raise
    raise AssertionError("the page's clock could not be paused")
