"""The distance table built as a string (companion.live.fragments.distances) against the template it
replaced (`distances_partial.html` here, the live templates' former `distances` partial): the same
markup, once whitespace between tags is folded, at every table size, with horses and a weapon,
a dead seat, in both languages (docs/performance.md: why it is a string)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from companion import actions
from companion.live import fragments
from companion.models import Seat
from companion.read.state import public_state
from tests.support.game import fresh, picked_all

pytestmark = pytest.mark.django_db

PARTIAL = Template(
    "{% load i18n l10n %}" + (Path(__file__).parent / "distances_partial.html").read_text()
)


def folded(html: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", str(html))).strip()


@pytest.mark.parametrize("players", [4, 5, 8, 10])
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_string_is_the_template(players: int, lang: str) -> None:
    table, seats = picked_all(players)
    host = table.host_token
    actions.equipment_set(token=host, seat_id=seats[1].pk, name="赤兔")
    actions.equipment_set(token=host, seat_id=seats[2].pk, name="的卢")
    actions.equipment_set(token=host, seat_id=seats[3].pk, name="麒麟弓")
    if players > 4:
        # A loyalist: a death that never ends the game (the table keeps its distances).
        victim = fresh(next(s for s in seats if fresh(s).identity == "loyalist"))
        actions.seat_change_hp(token=host, seat_id=victim.pk, delta=-victim.hp)
        actions.seat_die(token=host, seat_id=victim.pk)
    table.refresh_from_db()
    with translation.override(lang):
        state = public_state(table, list(Seat.objects.filter(table=table).order_by("position")))
        assert state.matrix
        want = PARTIAL.render(Context({"state": state}))
        got = fragments.distances(state)
    assert folded(got) == folded(want)
    assert got.count('class="dist-card"') == len(state.alive_seats)
