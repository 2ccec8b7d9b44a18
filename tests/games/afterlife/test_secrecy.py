"""Rebirth 转世 and dark souls 暗魂 keep every secret: the dead, the
gifts, the reborn and the souls are public (a dead player's identity is public anyway, and so is
a soul and whom it haunts), and no screen shows a living non-lord's identity because of them.
Every screen of a table with a death, a gift and a haunting is checked in both languages; the
public block is the same on every screen."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion.games.afterlife import actions as afterlife
from companion.models import Seat, Table
from tests.read.test_secrecy_screens import leaks
from tests.support.game import by_identity, fresh, kill, picked_all

pytestmark = pytest.mark.django_db

BLOCK = re.compile(r"<div class=\"afterlife\" data-afterlife>.*?</section>\s*</div>", re.S)


def screens(table: Table, seat: Seat | None) -> list[str]:
    found = []
    for lang in ("zh-hans", "en"):
        client = Client()
        client.cookies["sgs_lang"] = lang
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            url = f"/p/{seat.token}/" if seat else f"/t/{table.code}/"
            found.append(client.get(url, **headers).content.decode())
    return found


def forbidden(table: Table, viewer: Seat | None) -> set[str]:
    """The living non-lords' identities the viewer may not see, less those a dead seat has
    (shown on its seat by right: the words cannot tell one seat's from another's)."""
    seats = list(table.seats.all())
    public = {s.identity for s in seats if not s.alive}
    return {
        s.identity
        for s in seats
        if s.alive and s.identity != "lord" and (viewer is None or s.pk != viewer.pk)
    } - public


def check_every_screen(table: Table) -> None:
    blocks: dict[str, set[str]] = {}
    seats = list(table.seats.all())
    assert any(forbidden(table, s) for s in seats), "secrets must exist for this to mean anything"
    for viewer in [*seats, None]:
        for i, page in enumerate(screens(table, viewer)):
            assert "data-afterlife" in page, "the block is on every screen"
            assert not leaks(page, forbidden(table, viewer)), (viewer, i)
            # The block itself names no identity at all, and is the same for every viewer
            # (per language and kind of page).
            block = BLOCK.search(page).group(0)
            assert not leaks(block, {"loyalist", "rebel", "renegade"}), block
            blocks.setdefault(str(i), set()).add(block)
    assert all(len(v) == 1 for v in blocks.values()), "the public block differs between screens"


def test_rebirth_gifts_and_a_rebirth_leak_nothing() -> None:
    table, _seats = picked_all(6, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    loyalist = by_identity(table, "loyalist")[0]
    kill(table, rebel, lord)
    afterlife.rebirth_give(token=loyalist.token, seat_id=rebel.pk)
    table.refresh_from_db()
    check_every_screen(table)


def test_dark_souls_haunting_leaks_nothing() -> None:
    table, _seats = picked_all(6, dark_souls=True)
    lord = by_identity(table, "lord")[0]
    rebel, other = by_identity(table, "rebel")[:2]
    kill(table, rebel, lord)
    afterlife.soul_haunt(token=fresh(rebel).token, seat_id=other.pk)
    loyalist = by_identity(table, "loyalist")[0]
    kill(table, loyalist, other)  # still choosing: shown on every screen
    table.refresh_from_db()
    check_every_screen(table)
