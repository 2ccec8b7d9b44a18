"""Rebels know each other (docs/rules.md §9.6, seed 003): from the deal, each rebel's phone
shows the other rebels, and nobody else learns anything.

With the option on, each rebel's covered card names exactly the other rebels; every other
seat's phone (fragment, socket snapshot, page with and without htmx, host console), and the
table display, are byte for byte what they are with the option off, apart from the public list
of the options on (the header's pills and the rules panel, the same on every screen); and a
phone's size still does not tell a rebel from a loyalist or a renegade (test_secrets_sizes.py).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion.live import broadcast
from companion.models import Seat, Table
from tests.read.test_secrecy_permuted import normalise
from tests.read.test_secrets_sizes import assert_same_sizes
from tests.support.factories import make_table

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bo", "Cyrus", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
LANGS = ("en", "zh-hans")
FELLOWS = re.compile(r'<span class="idn-fellows">(.*?)</span>', re.S)


def dealt(players: int) -> tuple[Table, list[Seat]]:
    table, seats = make_table(players, deal=True, rebels_know_each_other=True)
    for seat, name in zip(seats, NAMES, strict=False):
        Seat.objects.filter(pk=seat.pk).update(name=name)
    table.refresh_from_db()
    return table, list(table.seats.order_by("position", "slot"))


def set_option(table: Table, on: bool) -> None:
    Table.objects.filter(pk=table.pk).update(
        options={**table.opts.stored(), "rebels_know_each_other": on}
    )
    # The same version for both settings: no cached snapshot of the other setting.
    broadcast._PUBLIC_SNAPSHOTS.clear()
    table.refresh_from_db()


def fellows_shown(seat: Seat, lang: str) -> list[str]:
    """The names in the seat's covered card's fellows slot (none: only padding)."""
    seat = Seat.objects.select_related("table").get(pk=seat.pk)
    found = FELLOWS.findall(broadcast.render_private(seat, lang, "tap12345"))
    assert len(found) == 1, "a living non-lord's covered card has the slot"
    text = found[0].strip()
    if not text:
        return []
    names = re.split(r"[：:]", text, maxsplit=1)[1]
    return [n.strip() for n in re.split(r"[,、]", names)]


def without_public_options(text: str) -> str:
    """A screen less the public list of the options on (the same on every screen)."""
    text = re.sub(r'<span class="variants-on".*?</span></span>', "", text, flags=re.S)
    text = re.sub(r'<details class="rules-panel.*?</details>', "", text, flags=re.S)
    return normalise(text)


def everything(table: Table, seat: Seat | None) -> dict[str, str]:
    """Every screen this viewer (None: the display) can observe, in both languages."""
    seen: dict[str, str] = {}
    for lang in LANGS:
        client = Client()
        client.cookies["sgs_lang"] = lang
        for htmx in (False, True):
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            url = f"/p/{seat.token}/" if seat else f"/t/{table.code}/"
            seen[f"page-{lang}-{htmx}"] = client.get(url, **headers).content.decode()
            if seat is not None and seat.is_host:
                seen[f"host-{lang}-{htmx}"] = client.get(
                    f"/h/{table.host_token}/", **headers
                ).content.decode()
        if seat is None:
            seen[f"display-{lang}"] = broadcast.snapshot(table, seat=None, is_host=False, lang=lang)
            continue
        fresh = Seat.objects.select_related("table").get(pk=seat.pk)
        seen[f"frame-{lang}"] = broadcast.render_private(fresh, lang, "tap12345")
        seen[f"snapshot-{lang}"] = broadcast.snapshot(
            fresh.table, seat=fresh, is_host=fresh.is_host, lang=lang
        )
    return {key: without_public_options(text) for key, text in seen.items()}


@pytest.mark.parametrize("players", [5, 10])
def test_each_rebel_sees_exactly_the_other_rebels_and_nobody_else_sees_any(players: int) -> None:
    table, seats = dealt(players)
    rebels = [s.name for s in seats if s.identity == "rebel"]
    assert len(rebels) >= 2
    for seat in seats:
        for lang in LANGS:
            if seat.identity == "lord":
                assert not FELLOWS.search(
                    broadcast.render_private(Seat.objects.get(pk=seat.pk), lang)
                )
                continue
            shown = fellows_shown(seat, lang)
            if seat.identity == "rebel":
                assert shown == [n for n in rebels if n != seat.name], (seat.name, lang)
            else:
                assert shown == [], (seat.name, seat.identity, lang)
    # The display and the table's public state name no rebel as a rebel.
    display = Client().get(f"/t/{table.code}/").content.decode()
    assert "idn-fellows" not in display and "fellow rebels" not in display.lower()


@pytest.mark.parametrize("players", [6, 10])
def test_no_non_rebel_screen_and_not_the_display_change_with_the_option(players: int) -> None:
    table, seats = dealt(players)
    viewers: list[Seat | None] = [s for s in seats if s.identity != "rebel"] + [None]
    set_option(table, True)
    on = {getattr(v, "pk", None): everything(table, v) for v in viewers}
    set_option(table, False)
    off = {getattr(v, "pk", None): everything(table, v) for v in viewers}
    for viewer in viewers:
        key = getattr(viewer, "pk", None)
        for screen, text in on[key].items():
            assert text == off[key][screen], (getattr(viewer, "identity", "display"), screen)
    # The rebels' own phones do change: the option is on for them.
    rebel = next(s for s in seats if s.identity == "rebel")
    set_option(table, True)
    assert fellows_shown(rebel, "en")
    set_option(table, False)
    assert fellows_shown(rebel, "en") == []


def test_a_phones_size_does_not_tell_a_rebel_with_the_option_on() -> None:
    table, seats = dealt(6)
    # Long names, and one with characters the page escapes.
    for seat, name in zip(
        seats, ("Alexandrina", "<b>&'\"", "Bo", "Чебурашка", "司马懿粉丝", "X"), strict=True
    ):
        Seat.objects.filter(pk=seat.pk).update(name=name)
    # Each rebel's phone measured as each secret identity in turn. (A loyalist measured as a
    # rebel would make a table with one rebel too many, whose rebel sees more fellows than any
    # real table: the deal's counts are what the padding is for.)
    rebels = [s for s in seats if s.identity == "rebel"]
    assert len(rebels) > 1
    for rebel in rebels:
        assert_same_sizes(rebel)
    set_option(table, False)
    for rebel in rebels:
        assert_same_sizes(rebel)
