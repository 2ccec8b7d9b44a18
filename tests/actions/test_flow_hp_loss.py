"""The game flow through the services and pages: HP loss against damage (no source, no reward,
no gain, the dialog over HTTP), and 救援 (a Wu hero's peach heals the dying lord 孙权 two).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion import actions
from companion.actions import ActionError
from companion.models import Event, Seat, Table
from tests.actions.flow_helpers import public_html
from tests.actions.test_turns import first_game
from tests.support.game import by_identity, fresh
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db


# 15. HP loss against damage, and 救援 ----------------------------------------------------------


def test_hp_loss_has_no_source_and_a_death_by_it_rewards_nobody() -> None:
    table, seats = first_game(5)
    rebel = by_identity(table, "rebel")[0]
    other = next(s for s in seats if s.pk != rebel.pk)
    hp = fresh(rebel).hp
    actions.seat_change_hp(token=rebel.token, seat_id=rebel.pk, delta=-(hp - 1), loss=True)
    lost = Event.objects.get(table=table, kind="lose_hp")
    assert lost.public["amount"] == hp - 1 and "source" not in lost.public
    assert "skills" not in lost.public
    # Damage from a source first, then HP loss while dying: the damage's source stays the killer.
    actions.seat_change_hp(token=rebel.token, seat_id=rebel.pk, delta=-1, loss=True)
    rebel_now = fresh(rebel)
    assert rebel_now.dying and rebel_now.damage_source_id is None
    actions.seat_die(token=rebel.token, seat_id=rebel.pk)
    died = Event.objects.get(table=table, kind="died")
    assert died.public["killer"] is None and died.public["consequence"] == ""
    assert other.name not in died.public["killer_name"]
    zh = public_html(table)
    assert f"{rebel.name} 失去了 {hp - 1} 点体力" in zh


def test_hp_loss_refuses_a_gain_and_the_dialog_offers_it_over_http() -> None:
    table, seats = first_game(4)
    me = seats[0]
    with pytest.raises(ActionError) as err:
        actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=1, loss=True)
    assert err.value.code == "loss_positive"
    dialog = Client().get(f"/p/{me.token}/seat/{me.pk}").content.decode()
    assert 'name="lose" value="1"' in dialog and "失去体力" in dialog
    client = csrf_client()
    response = htmx_post(
        client, f"/p/{me.token}/act/hp", {"seat": me.pk, "delta": "-1", "lose": "1"}
    )
    assert response.status_code == 204
    assert Event.objects.filter(table=table, kind="lose_hp").count() == 1
    assert not Event.objects.filter(table=table, kind="damage").exists()


def test_damage_names_the_damage_skills_hp_loss_none() -> None:
    table, seats = first_game(4)
    sima, guo = seats[0], seats[1]
    Seat.objects.filter(pk=sima.pk).update(hero="WEI002")  # 司马懿: 反馈 needs a source
    Seat.objects.filter(pk=guo.pk).update(hero="WEI006")  # 郭嘉: 遗计
    actions.seat_change_hp(token=sima.token, seat_id=sima.pk, delta=-1, source=guo.pk)
    actions.seat_change_hp(token=sima.token, seat_id=sima.pk, delta=-1)
    actions.seat_change_hp(token=guo.token, seat_id=guo.pk, delta=-1)
    actions.seat_change_hp(token=guo.token, seat_id=guo.pk, delta=-1, loss=True)
    events = list(Event.objects.filter(table=table, kind__in=["damage", "lose_hp"]))
    assert [e.public.get("skills") for e in events] == [["反馈"], None, ["遗计"], None]
    # The skill names open their help entries: the words read as before.
    zh = re.sub(r"<[^>]+>", "", public_html(table))
    assert "可发动：反馈" in zh and "可发动：遗计" in zh


def sun_quan_dying(giver_hero: str) -> tuple[Table, Seat, Seat]:
    table, seats = first_game(5)
    lord = by_identity(table, "lord")[0]
    giver = next(s for s in seats if s.pk != lord.pk)
    Seat.objects.filter(pk=lord.pk).update(hero="WU001", hp=0, dying=True)
    Seat.objects.filter(pk=giver.pk).update(hero=giver_hero)
    return table, lord, giver


def test_a_wu_heros_peach_heals_the_dying_lord_sun_quan_two() -> None:
    table, lord, giver = sun_quan_dying("WU002")  # 甘宁, Wu
    actions.seat_rescue(token=giver.token, seat_id=lord.pk)
    lord_now = fresh(lord)
    assert lord_now.hp == 2 and not lord_now.dying
    rescue = Event.objects.get(table=table, kind="rescue")
    assert rescue.public["jiuyuan"] is True
    assert "救援" in public_html(table)
    # Undo takes both points back.
    actions.event_undo(token=giver.token)
    assert fresh(lord).hp == 0 and fresh(lord).dying


@pytest.mark.parametrize("giver_hero", ["SHU001", ""])
def test_any_other_peach_heals_one(giver_hero: str) -> None:
    table, lord, giver = sun_quan_dying(giver_hero)
    actions.seat_rescue(token=giver.token, seat_id=lord.pk)
    assert fresh(lord).hp == 1
    assert "jiuyuan" not in Event.objects.get(table=table, kind="rescue").public


def test_jiuyuan_never_heals_past_max_hp() -> None:
    table, lord, giver = sun_quan_dying("WU003")
    Seat.objects.filter(pk=lord.pk).update(max_hp=1)
    actions.seat_rescue(token=giver.token, seat_id=lord.pk)
    assert fresh(lord).hp == 1
