"""Every screen of every way to play, each reached by plain HTTP requests (tests/browser/
tables.py), for the tests that open them all at phone sizes (test_phone_fit.py): the identity
game's lobby, deal, hero choice, play, dying and end; 3 vs 3 and 1 vs 1 at the draft and in
play; the host console, the table display and the pages away from the table.
"""

from __future__ import annotations

import re

from tests.browser import tables
from tests.browser.tables import HttpSeat, HttpTable

POSITION_RE = re.compile(r'name="position" value="(\d+)"')
SIDE_RE = re.compile(r'hx-post="act/draftfirst".*?name="side" value="([^"]+)"', re.S)
PLACE_RE = re.compile(r'<form hx-post="act/draftplace".*?</form>', re.S)
VALUE_RE = re.compile(r'(?:<option|<input)[^>]*\bvalue="([^"]+)"')


def _page(seat: HttpSeat) -> str:
    return seat.device.page()


def lobby(base: str) -> HttpTable:
    return tables.seated(base, tables.NAMES_EN[:5])


def dealt(base: str) -> HttpTable:
    table = lobby(base)
    tables.deal(table)
    return table


def heroes(base: str) -> HttpTable:
    """Dealt, hero candidates offered: the lord's five are on his phone."""
    table = dealt(base)
    table.host.act("start")
    return table


def playing(base: str) -> HttpTable:
    return tables.playing(base, tables.NAMES_EN[:5])


def dying(base: str) -> tuple[HttpTable, HttpSeat]:
    """In play, a player (not the lord) at 0 HP, dying."""
    table = playing(base)
    victim = next(s for s in table.seats if s.identity != "lord")
    for _tap in range(8):
        classes = re.search(rf'<li class="([^"]*)" data-seat="{victim.id}"', table.host.page())
        assert classes
        if "dying" in classes.group(1).split():
            return table, victim
        table.host.act("hp", seat=str(victim.id), delta="-1", source="", repeat="1")
    raise AssertionError("never dying")


def finished(base: str) -> HttpTable:
    """A game over: the lord killed by a rebel."""
    table = playing(base)
    rebel = table.seat_by_identity("rebel")
    tables.kill(table, table.seat_by_identity("lord"), rebel)
    return table


def _draft(table: HttpTable, drafters: list[HttpSeat], *, until_placed: bool) -> None:
    """The drafters take the first free heroes until the pool is shared, then (until_placed)
    each places its first heroes in the order held."""
    for _step in range(40):
        moved = False
        for seat in drafters:
            html = _page(seat)
            side = SIDE_RE.search(html)
            if side:
                seat.device.act("draftfirst", side=side.group(1))
                moved = True
                continue
            position = POSITION_RE.search(html)
            if position and 'hx-post="act/draftpick"' in html:
                seat.device.act("draftpick", position=position.group(1))
                moved = True
        if not moved:
            break
    if not until_placed:
        return
    for seat in drafters:
        form = PLACE_RE.search(_page(seat))
        assert form, seat.name
        held = list(dict.fromkeys(v for v in VALUE_RE.findall(form.group(0)) if v))
        seat.device.act("draftplace", first=held[0], second=held[1], third=held[2])


def threes(base: str, *, draft_only: bool = False) -> tuple[HttpTable, list[HttpSeat]]:
    """3 vs 3: six players in two teams (the second of each commands it), dealt, the draft
    started (its first picks made: draft_only) or over and placed (in play). Returns the table
    and the two commanders."""
    table = tables.open_table(base, "threes")
    for name in tables.NAMES_EN[:6]:
        tables.join(table, name)
    for i, seat in enumerate(table.seats):
        seat.device.act("team", team=str(i // 3))
    commanders = [table.seats[1], table.seats[4]]
    for seat in commanders:
        seat.device.act("commander")
    table.host.act("deal")
    table.host.act("start")
    if draft_only:
        first = next((s for s in commanders if SIDE_RE.search(_page(s))), None)
        if first is not None:
            first.device.act("draftfirst", side=SIDE_RE.search(_page(first)).group(1))  # type: ignore[union-attr]
    else:
        _draft(table, commanders, until_placed=True)
    return table, commanders


def duel(base: str, *, draft_only: bool = False) -> HttpTable:
    """1 vs 1: two players dealt, the draft begun (draft_only) or over and ordered (in play)."""
    table = tables.open_table(base, "duel")
    for name in tables.NAMES_EN[:2]:
        tables.join(table, name)
    tables.deal(table)
    table.host.act("start")
    if not draft_only:
        _draft(table, table.seats, until_placed=True)
    return table


Screens = list[tuple[str, str]]


def every_screen(base: str) -> Screens:
    """(name, path) of every screen to check, the tables made now."""
    screens: Screens = [("start", "/"), ("help", "/help/"), ("first-game", "/first-game/")]
    table = lobby(base)
    screens += [
        ("join", f"/j/{table.code}/"),
        ("lobby-host", table.host.url),
        ("lobby-seat", table.seats[0].device.url),
        ("box", table.host.url + "box/"),
    ]
    table = dealt(base)
    screens += [("dealt-host", table.host.url), ("dealt-seat", table.seats[1].device.url)]
    table = heroes(base)
    lord = table.seat_by_identity("lord")
    other = next(s for s in table.seats if s is not lord)
    screens += [("heroes-lord", lord.device.url), ("heroes-other", other.device.url)]
    table = playing(base)
    lord = table.seat_by_identity("lord")
    other = next(s for s in table.seats if s is not lord)
    screens += [
        ("play-turn", lord.device.url),
        ("play-other", other.device.url),
        ("play-host", table.host.url),
        ("play-display", table.display_path),
        ("session", table.host.url + "session/"),
    ]
    table, victim = dying(base)
    other = next(s for s in table.seats if s is not victim)
    screens += [("dying-self", victim.device.url), ("dying-other", other.device.url)]
    table = finished(base)
    screens += [
        ("end-seat", table.seats[0].device.url),
        ("end-host", table.host.url),
        ("end-display", table.display_path),
    ]
    table, commanders = threes(base, draft_only=True)
    screens += [
        ("threes-draft-commander", commanders[0].device.url),
        ("threes-draft-commander2", commanders[1].device.url),
        ("threes-draft-vanguard", table.seats[0].device.url),
        ("threes-draft-host", table.host.url),
    ]
    table, commanders = threes(base)
    screens += [
        ("threes-play-commander", commanders[0].device.url),
        ("threes-play-vanguard", table.seats[3].device.url),
        ("threes-play-display", table.display_path),
    ]
    table = duel(base, draft_only=True)
    screens += [(f"duel-draft-{i}", s.device.url) for i, s in enumerate(table.seats)]
    table = duel(base)
    screens += [(f"duel-play-{i}", s.device.url) for i, s in enumerate(table.seats)]
    screens += [("duel-play-host", table.host.url)]
    return screens
