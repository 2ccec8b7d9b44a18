"""The HP taps ask the games what a table allows (companion.hooks): a game registered here for
these tests only adds a damage type and a rescue card, taken where it is on and refused where
it is off, through the tap's form as through the action; no core file names them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from django.test import Client

from companion import actions, hooks
from companion.actions import ActionError
from companion.models import Event, Table
from companion.web.forms import HpForm, RescueForm
from tests.support.game import fresh, picked_all

pytestmark = pytest.mark.django_db

KEY = "seamelixir"
ROOT = Path(__file__).resolve().parents[2]


class Elixir(hooks.Game):
    """On at tables with referee mode: acid damage, and an elixir its dying drinker may take."""

    key: ClassVar[str] = KEY
    damage_types: ClassVar[tuple[str, ...]] = ("acid",)
    rescue_cards: ClassVar[dict[str, hooks.RescueCard]] = {
        "elixir": hooks.RescueCard(off="no elixir here", not_own="drink your own elixir")
    }

    def is_on(self, table: Table) -> bool:
        return table.opts.flag("referee_mode")


@pytest.fixture
def elixir() -> Iterator[Elixir]:
    game = hooks.register(Elixir())
    yield game
    hooks.unregister(KEY)


def test_a_game_s_damage_type_and_rescue_card_are_taken_where_it_is_on(elixir: Elixir) -> None:
    table, seats = picked_all(4, referee_mode=True)
    a, b = seats[0], seats[1]
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-a.hp, damage_type="acid")
    assert Event.objects.filter(table=table, kind="damage").latest("version").public["type"] == (
        "acid"
    )
    with pytest.raises(ActionError) as err:
        actions.seat_rescue(token=b.token, seat_id=a.pk, kind="elixir")
    assert err.value.status == 403 and str(err.value) == "drink your own elixir"
    actions.seat_rescue(token=a.token, seat_id=a.pk, kind="elixir")
    assert fresh(a).hp == 1 and not fresh(a).dying


def test_a_game_s_damage_type_and_rescue_card_are_refused_where_it_is_off(elixir: Elixir) -> None:
    table, seats = picked_all(4)
    a = seats[0]
    with pytest.raises(ActionError) as err:
        actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-1, damage_type="acid")
    assert err.value.code == "damage_type"
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-a.hp)
    with pytest.raises(ActionError) as err:
        actions.seat_rescue(token=a.token, seat_id=a.pk, kind="elixir")
    assert err.value.code == "no_elixir" and str(err.value) == "no elixir here"


def test_the_seat_dialog_offers_a_game_s_damage_type_where_it_is_on(elixir: Elixir) -> None:
    """The "−" dialog's damage types are "normal" and those of the games on at the table."""
    for referee, kinds in ((True, ["normal", "acid"]), (False, [])):
        table, seats = picked_all(4, referee_mode=referee)
        page = Client().get(f"/h/{table.host_token}/seat/{seats[1].pk}").content.decode()
        assert re.findall(r'name="damage_type" value="(\w+)"', page) == kinds


def test_the_tap_forms_take_the_registered_games_words(elixir: Elixir) -> None:
    assert HpForm({"seat": "1", "delta": "-1", "damage_type": "acid"}).is_valid()
    assert RescueForm({"seat": "1", "kind": "elixir"}).is_valid()
    hooks.unregister(KEY)
    assert not HpForm({"seat": "1", "delta": "-1", "damage_type": "acid"}).is_valid()
    assert not RescueForm({"seat": "1", "kind": "elixir"}).is_valid()


def test_no_core_file_names_them() -> None:
    core = [
        p
        for p in (ROOT / "companion").rglob("*.py")
        if "games" not in p.parts and "migrations" not in p.parts
    ]
    assert not [p for p in core if "elixir" in p.read_text() or "acid" in p.read_text()]
