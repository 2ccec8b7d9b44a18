"""What a phone receives has the same size whatever its secret identity.

A living non-lord seat's private fragment, its socket snapshot and its page must not tell a
loyalist from a rebel or a renegade by their length (a neighbour's laptop on the Wi-Fi sees the
sizes of frames, not their contents). Each check takes one seat in one state and swaps only its
identity.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from companion import actions
from companion.live import broadcast
from companion.models import Seat, Table
from companion.read.private import private_state
from tests.support.factories import make_table

pytestmark = pytest.mark.django_db

SECRET_IDENTITIES = ("loyalist", "rebel", "renegade")
# English first: the test client leaves the last request's language active in this thread.
LANGS = ("en", "zh-hans")


def sizes(seat: Seat, identity: str) -> dict[str, int]:
    """Every size this seat's phone can observe, with `identity` as its identity (bytes)."""
    Seat.objects.filter(pk=seat.pk).update(identity=identity)
    seat = Seat.objects.select_related("table").get(pk=seat.pk)
    found: dict[str, int] = {}
    for lang in LANGS:
        found[f"frame-{lang}"] = len(broadcast.render_private(seat, lang, "tap12345").encode())
        snapshot = broadcast.snapshot(seat.table, seat=seat, is_host=False, lang=lang)
        found[f"snapshot-{lang}"] = len(snapshot.encode())
        client = Client()
        client.cookies["sgs_lang"] = lang
        for htmx in (False, True):
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            page = client.get(f"/p/{seat.token}/", **headers)
            assert page.status_code == 200
            # The CSRF token in the page is random per response, of one fixed length.
            found[f"page-{lang}-{htmx}"] = len(page.content)
    return found


def assert_same_sizes(seat: Seat) -> None:
    original = Seat.objects.get(pk=seat.pk).identity
    measured = {identity: sizes(seat, identity) for identity in SECRET_IDENTITIES}
    Seat.objects.filter(pk=seat.pk).update(identity=original)
    first = measured[SECRET_IDENTITIES[0]]
    for identity in SECRET_IDENTITIES[1:]:
        assert measured[identity] == first, (identity, measured)


def non_lord(table: Table) -> Seat:
    return Seat.objects.filter(table=table).exclude(identity="lord").order_by("position").first()


def step_all(table: Table, steps: list[Callable[[], object]]) -> None:
    for step in steps:
        step()
    table.refresh_from_db()


def test_private_sizes_do_not_depend_on_the_identity_through_a_game() -> None:
    table, _seats = make_table(6, deal=True)
    seat = non_lord(table)
    # At the deal.
    assert_same_sizes(seat)
    # Choosing heroes: the lord picks, then this seat has its candidates.
    actions.game_start(token=table.host_token)
    lord = Seat.objects.get(table=table, identity="lord")
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    assert_same_sizes(seat)
    # This seat has picked (its pick stays private until all have).
    seat = Seat.objects.get(pk=seat.pk)
    actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[0])
    assert_same_sizes(seat)
    # Everyone has picked: play, with HP changes.
    for other in Seat.objects.filter(table=table, hero_pick="").exclude(identity="lord"):
        actions.hero_pick(token=other.token, hero_id=other.hero_candidates[0])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert_same_sizes(seat)
    seat = Seat.objects.get(pk=seat.pk)
    actions.seat_change_hp(token=seat.token, seat_id=seat.pk, delta=-1)
    assert_same_sizes(seat)
    actions.seat_change_hp(token=seat.token, seat_id=seat.pk, delta=1)
    assert_same_sizes(seat)


def test_private_sizes_in_first_game_mode() -> None:
    table, _seats = make_table(5, deal=True, first_game_mode=True)
    seat = non_lord(table)
    actions.game_start(token=table.host_token)
    assert_same_sizes(seat)


def test_the_size_check_would_see_a_difference() -> None:
    """The measure itself: a different name on the same seat changes the sizes."""
    table, _seats = make_table(4, deal=True)
    seat = non_lord(table)
    before = sizes(seat, seat.identity)
    Seat.objects.filter(pk=seat.pk).update(name="Somebody else")
    assert sizes(seat, seat.identity) != before


# Every version of a played game, every table size, both languages ----------


def _frame_sizes(seat: Seat, seen: set[str]) -> dict[str, set[int]]:
    """The size of this seat's private frame in each language, for each secret identity it
    could hold (set in memory only). A state measured already (`seen`, the version aside)
    is not measured again."""
    me = private_state(seat)
    key = repr((replace(me, version=0, identity=None), len(str(me.version))))
    if key in seen:
        return {}
    seen.add(key)
    found: dict[str, set[int]] = {}
    for lang in LANGS:
        with translation.override(lang):
            for identity in SECRET_IDENTITIES:
                frame = render_to_string(
                    "companion/live/private.html#private",
                    {"me": replace(me, identity=identity), "action_id": "tap12345", "oob": True},
                )
                found.setdefault(f"frame-{lang}", set()).add(len(frame.encode()))
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("players", range(4, 11))
def test_private_frames_have_one_size_at_every_version(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scripted game (tests/support/scripted.py): at every version, each living non-lord seat's
    private frame has one size whatever its identity; at a few moments its page and snapshot
    too."""
    from tests.support import scripted

    scripted.pin(monkeypatch, scripted.identities_for(players))
    versions = 0
    seen: set[str] = set()
    for played in scripted.play(players, until_death=True):
        table = Table.objects.get()
        if table.status == Table.Status.LOBBY:
            continue
        versions += 1
        seats = Seat.objects.select_related("table").filter(alive=True).exclude(identity="lord")
        for seat in seats:
            for key, found in _frame_sizes(seat, seen).items():
                assert len(found) == 1, (played.label, table.version, seat.position, key, found)
        if played.label in ("lord picks", "flip"):
            assert_same_sizes(seats[0])
    assert versions > 50
    assert len(seen) > 4 * (players - 1)
