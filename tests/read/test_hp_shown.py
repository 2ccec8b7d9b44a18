"""HP as the screens read it: a hero at HP below 0 shows 0 and the 桃 it needs
(1 - HP) on the display's ring, the seat's own phone, the now strip and in the history; a dead
seat shows no HP at all. Both languages."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from companion import actions
from companion.live.broadcast import render_private, render_public
from companion.models import Seat, Table
from companion.read.state import public_state
from tests.support.game import fresh, picked_all

pytestmark = pytest.mark.django_db


def _seat_li(html: str, seat: Seat) -> str:
    start = html.index(f'data-seat="{seat.pk}" data-i=')
    return html[start : html.index("</li>", start)]


def _at_minus_two() -> tuple[Table, Seat, Seat]:
    """A non-lord seat taken from its HP to -2 by the lord (dying, 3 桃 needed)."""
    table, seats = picked_all(5)
    lord = next(s for s in seats if s.identity == "lord")
    victim = next(fresh(s) for s in seats if s.identity != "lord")
    actions.seat_change_hp(
        token=table.host_token, seat_id=victim.pk, delta=-(victim.hp - 1), source=lord.pk
    )
    actions.seat_change_hp(token=table.host_token, seat_id=victim.pk, delta=-3, source=lord.pk)
    victim = fresh(victim)
    assert victim.hp == -2 and victim.dying
    table.refresh_from_db()
    return table, victim, lord


@pytest.mark.parametrize(("lang", "need"), [("en", "needs 3 Peaches"), ("zh-hans", "需 3 桃")])
def test_dying_below_zero_shows_zero_and_the_peaches_needed(lang: str, need: str) -> None:
    table, victim, _lord = _at_minus_two()
    with translation.override(lang):
        public = render_public(public_state(table), lang)
        private = render_private(victim, lang)
    assert not re.search(r"[-−]\d+/\d", public + private)
    seat = _seat_li(public, victim)
    assert f">0/{victim.max_hp}<" in seat and need in seat and 'data-peaches="3"' in seat
    strip = public[public.index('id="now-strip"') : public.index('id="table-state"')]
    assert need in strip
    tracker = private[private.index('id="my-hp"') :]
    assert '<span class="hp-big">0<small>' in tracker and need in tracker
    # The history: the damage line says HP 0 and the 桃 needed, never HP -2.
    # (A skill name in the line is a help link: its words are read without the markup.)
    lines = [re.sub(r"<[^>]+>", "", li) for li in re.findall(r"<li[^>]*>(.*?)</li>", public)]
    damage = next(
        line for line in lines if victim.name in line and "-2" not in line and need in line
    )
    assert "-2" not in damage and "−2" not in damage


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_a_dead_seat_shows_no_hp(lang: str) -> None:
    table, victim, _lord = _at_minus_two()
    actions.seat_die(token=table.host_token, seat_id=victim.pk)
    table.refresh_from_db()
    victim = fresh(victim)
    assert not victim.alive and victim.hp == -2
    with translation.override(lang):
        public = render_public(public_state(table), lang)
        private = render_private(victim, lang)
    seat = _seat_li(public, victim)
    assert "seat-hp" not in seat and "hp-num" not in seat and "/" + str(victim.max_hp) not in seat
    tracker = private[private.index('id="my-hp"') :]
    assert "hp-big" not in tracker.split("</div>")[0]
    assert not re.search(r"[-−]\d+/\d", public + private)
    assert not re.search(r"HP -\d|体力 ?-\d", public + private)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "is dying. A Peach or the death first."), ("zh-hans", "濒死，先用桃救或判定阵亡")],
)
def test_the_turn_bar_waits_while_someone_is_dying(lang: str, words: str) -> None:
    """Next phase and End turn give way to a waiting button with the reason."""
    table, victim, _lord = _at_minus_two()
    with translation.override(lang):
        html = render_public(public_state(table), lang)
    bar = html[html.index('class="turn-bar"') : html.index('class="ring')]
    assert 'hx-post="act/next"' not in bar and 'hx-post="act/endturn"' not in bar
    wait = re.search(r'<button[^>]*class="btn btn-wide dying-wait" disabled>([^<]*)</button>', bar)
    assert wait and victim.name in wait.group(1) and words in wait.group(1)
    actions.seat_die(token=table.host_token, seat_id=victim.pk)
    table.refresh_from_db()
    with translation.override(lang):
        html = render_public(public_state(table), lang)
    bar = html[html.index('class="turn-bar"') : html.index('class="ring')]
    assert "dying-wait" not in bar and 'hx-post="act/endturn"' in bar
