"""军争 actions behind the screens: 白银狮子 leaving a seat heals its holder
once, undone with the removal; the live odds take out the cards known to be out of the draw pile,
and a "deck reshuffled" tap puts the judgement cards back."""

from __future__ import annotations

import pytest

from companion import actions
from companion.models import Event
from companion.read.deck import deck_odds, revealed_cards
from companion.rules.judgement import Check
from tests.actions.flow_helpers import after, holder_of
from tests.actions.test_turns import first_game
from tests.support.game import fresh

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_silver_lion_leaving_heals_a_wounded_holder_once_and_undo_takes_it_back(how: str) -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    host = table.host_token
    actions.equipment_set(token=host, seat_id=me.pk, name="白银狮子")
    actions.seat_change_hp(token=host, seat_id=me.pk, delta=-2)
    wounded = fresh(me).hp
    if how == "removed":
        actions.equipment_remove(token=host, seat_id=me.pk, slot="armor")
    else:
        actions.equipment_set(token=host, seat_id=me.pk, name="八卦阵", replace=True)
    now = fresh(me)
    assert now.hp == wounded + 1
    event = Event.objects.filter(table=table).latest("version")
    assert event.public["recovered"] == 1
    actions.event_undo(token=host, version=event.version)
    back = fresh(me)
    assert back.hp == wounded and back.equipment.get("armor") == "白银狮子"


def test_silver_lion_leaving_an_unwounded_seat_or_another_armour_heals_nobody() -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    host = table.host_token
    actions.equipment_set(token=host, seat_id=me.pk, name="白银狮子")
    actions.equipment_remove(token=host, seat_id=me.pk, slot="armor")
    assert fresh(me).hp == me.hp
    actions.equipment_set(token=host, seat_id=me.pk, name="八卦阵")
    actions.seat_change_hp(token=host, seat_id=me.pk, delta=-1)
    actions.equipment_remove(token=host, seat_id=me.pk, slot="armor")
    assert fresh(me).hp == me.hp - 1


def test_live_odds_take_out_known_cards_and_a_reshuffle_puts_judgements_back() -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    other = after(seats, me)
    host = table.host_token
    full = deck_odds(table, [Check.LIGHTNING])
    assert full.remaining == full.deck_size and not full.error
    actions.equipment_set(token=host, seat_id=other.pk, name="藤甲")
    actions.judgement_flip(
        token=host, check="eight_trigrams", suit="spade", rank="5", seat_id=me.pk
    )
    if table.pending_judgement or fresh(me).table.pending_judgement:
        actions.judgement_confirm(token=host)
    assert revealed_cards(table) == [("spade", 5)]
    live = deck_odds(table, [Check.LIGHTNING])
    assert live.remaining == full.deck_size - 2
    assert live.revealed == ["♠5"] and [name for name, _n in live.equipment] == ["藤甲"]
    # ♠5 is a lightning card (♠2-9): one fewer of them, out of two fewer cards.
    before = dict(full.odds["lightning"])["struck"]
    after_flip = dict(live.odds["lightning"])["struck"]
    assert after_flip < before
    actions.deck_reshuffle(token=host)
    assert revealed_cards(table) == []
    assert deck_odds(table, [Check.LIGHTNING]).remaining == full.deck_size - 1
