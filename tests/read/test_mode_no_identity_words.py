"""3 vs 3 and 1 vs 1 speak their own words: no screen of either mode, at any stage and in either
language, names a lord, loyalist, rebel or renegade (their seats are sides and places: warm and
cold, commander and vanguards; the first and the second player)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client

from companion import actions
from companion.models import Seat, Table
from tests.support.langscan import visible_text
from tests.support.modeplay import (
    draft_all,
    drafter,
    mode_table,
    place_all,
    registered,
    threes_lobby,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]

IDENTITY_WORDS = {
    "zh-hans": re.compile(r"主公|忠臣|反贼|内奸"),
    "en": re.compile(r"\b(lords?|loyalists?|rebels?|renegades?)\b", re.IGNORECASE),
}


def _page(url: str, lang: str) -> str:
    client = Client()
    client.cookies["sgs_lang"] = lang
    response = client.get(url, HTTP_HX_REQUEST="true" if "/seat/" in url else "")
    assert response.status_code == 200, url
    return response.content.decode()


def _screens(table: Table) -> Iterator[str]:
    table.refresh_from_db()
    seats = list(table.seats.order_by("position"))
    yield f"/t/{table.code}/"
    yield f"/h/{table.host_token}/"
    for seat in seats:
        yield f"/p/{seat.token}/"
    if table.status != Table.Status.LOBBY:
        for seat in seats:
            yield f"/p/{seats[0].token}/seat/{seat.pk}"
    if table.status == Table.Status.FINISHED:
        yield f"/p/{seats[0].token}/session/"


def _stages(key: str) -> Iterator[Table]:
    """The table of this mode at every stage: lobby, dealt, the draft, placing, in play, a fallen
    hero (1 vs 1), the end."""
    if key == "threes":
        table, _seats = threes_lobby()
    else:
        table, _seats = mode_table("duel", 2)
    yield table
    actions.identities_deal(token=table.host_token)
    yield table
    actions.game_start(token=table.host_token)
    yield table
    draft_all(table)
    yield table
    place_all(table)
    yield table
    table.refresh_from_db()
    loser = drafter(table, "cold" if key == "threes" else "lord")
    for _ in range(3 if key == "duel" else 1):
        loser = Seat.objects.get(pk=loser.pk)
        actions.seat_change_hp(token=table.host_token, seat_id=loser.pk, delta=-loser.hp)
        actions.seat_die(token=loser.token, seat_id=loser.pk)
        yield table
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


@pytest.mark.parametrize("key", ["threes", "duel"])
def test_no_screen_of_the_mode_names_an_identity_it_does_not_have(key: str) -> None:
    found: dict[str, set[str]] = {}
    for table in _stages(key):
        for url in _screens(table):
            for lang, words in IDENTITY_WORDS.items():
                text = visible_text(_page(url, lang))
                for match in words.finditer(text):
                    context = text[max(0, match.start() - 40) : match.end() + 40]
                    found.setdefault(f"{table.status} {lang}", set()).add(context)
    assert not found, found
