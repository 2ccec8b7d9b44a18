"""The 军争 damage dialog over HTTP: the card first, then the source, the
resolved result in words before anything is applied, one tap applying it as one change."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion import actions
from companion.games.maneuvering import actions as maneuver
from companion.models import Event
from tests.actions.flow_helpers import after, holder_of, to_phase
from tests.actions.test_turns import first_game
from tests.support.game import fresh
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db


def dialog(token: str, seat: int, lang: str = "zh-hans", **query: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/p/{token}/damage/{seat}", query)
    assert response.status_code == 200
    return response.content.decode()


def scene(b_hp: int = 6):
    """A (the turn, play phase) holds 古锭刀 and drank 酒; B wears 藤甲 (at `b_hp` HP), C
    白银狮子, both chained."""
    table, seats = first_game(4, maneuvering=True)
    a = holder_of(table)
    b = after(seats, a)
    c = after(seats, a, 2)
    to_phase(table, "play")
    host = table.host_token
    actions.equipment_set(token=host, seat_id=a.pk, name="古锭刀")
    actions.equipment_set(token=host, seat_id=b.pk, name="藤甲")
    actions.equipment_set(token=host, seat_id=c.pk, name="白银狮子")
    maneuver.seat_set_chained(token=a.token, seat_id=b.pk, chained=True)
    maneuver.seat_set_chained(token=a.token, seat_id=c.pk, chained=True)
    maneuver.seat_drink_wine(token=a.token, seat_id=a.pk)
    actions.seat_set_max_hp(token=host, seat_id=b.pk, max_hp_value=max(b_hp, fresh(b).max_hp))
    now = fresh(b).hp
    if now != b_hp:
        actions.seat_change_hp(token=host, seat_id=b.pk, delta=b_hp - now)
    assert fresh(b).hp == b_hp
    return table, seats, fresh(a), fresh(b), fresh(c)


def test_the_dialog_asks_card_then_source_then_shows_the_result_in_words() -> None:
    table, _seats, a, b, c = scene()
    first = dialog(a.token, b.pk)
    for card in ("杀", "火杀", "雷杀", "决斗", "南蛮入侵", "万箭齐发", "闪电"):
        assert f'name="card" value="{card}"' in first
    assert 'value="other"' in first and "act/resolve" not in first
    second = dialog(a.token, b.pk, card="火杀")
    assert f'name="source" value="{a.pk}"' in second
    assert f'name="source" value="{b.pk}"' not in second  # a 杀 is used on another player
    assert "act/resolve" not in second
    # 古锭刀 is offered because A holds it; 寒冰剑, 朱雀羽扇 and 麒麟弓 are not.
    third = dialog(a.token, b.pk, card="火杀", source=str(a.pk))
    assert 'name="target_hand_empty"' in third
    assert 'name="weapon_skill"' not in third and 'name="qilin"' not in third
    preview = dialog(a.token, b.pk, card="火杀", source=str(a.pk), target_hand_empty="1")
    assert "酒 +1" in preview and "古锭刀 +1" in preview
    assert "藤甲：3 → 4" in preview and "白银狮子：3 → 1" in preview
    assert f"{b.name}" in preview and "act/resolve" in preview
    english = dialog(a.token, b.pk, "en", card="火杀", source=str(a.pk), target_hand_empty="1")
    assert "Silver Lion 白银狮子: 3 → 1" in english and "takes 1 fire damage" in english
    # Nothing was applied by looking.
    assert fresh(b).hp == b.hp and fresh(c).chained


def test_applying_is_one_change_and_one_undo_restores_every_seat() -> None:
    table, _seats, a, b, c = scene()
    table.refresh_from_db()
    version = table.version
    fields = {
        "target": b.pk,
        "card": "火杀",
        "source": a.pk,
        "target_hand_empty": "1",
    }
    assert htmx_post(csrf_client(), f"/p/{a.token}/act/resolve", fields).status_code == 204
    table.refresh_from_db()
    assert table.version == version + 1
    nb, nc, na = fresh(b), fresh(c), fresh(a)
    assert (nb.hp, nb.chained) == (b.hp - 4, False)
    assert (nc.hp, nc.chained) == (c.hp - 1, False)
    assert na.wine == "spent"
    event = Event.objects.get(table=table, version=table.version)
    assert event.kind == "damage_resolved"
    undo = {"version": event.version}
    assert htmx_post(csrf_client(), f"/h/{table.host_token}/act/undo", undo).status_code == 204
    for before in (a, b, c):
        now = fresh(before)
        assert (now.hp, now.dying, now.chained, now.wine) == (
            before.hp,
            before.dying,
            before.chained,
            before.wine,
        )


def test_chains_and_wine_show_on_the_ring_and_the_strip() -> None:
    table, _seats, a, b, c = scene()
    page = Client().get(f"/t/{table.code}/").content.decode()
    assert page.count('class="chain-mark"') >= 2 and "now-chain" in page
    assert "wine-active" in page
    phone = Client().get(f"/p/{b.token}/").content.decode()
    assert b.name in phone and "now-chain" in phone
    # A second 酒 this turn is refused with its reason.
    refused = htmx_post(csrf_client(), f"/p/{a.token}/act/wine", {"seat": a.pk})
    assert refused.status_code == 409


def test_fire_attack_goes_through_its_guided_path() -> None:
    table, _seats, a, b, c = scene()
    show = dialog(a.token, b.pk, card="火攻", source=str(a.pk))
    assert 'name="shown"' in show and "act/resolve" not in show
    discard = dialog(a.token, b.pk, card="火攻", source=str(a.pk), shown="heart")
    assert 'name="discarded"' in discard and "act/resolve" not in discard
    nothing = dialog(a.token, b.pk, card="火攻", source=str(a.pk), shown="heart", discarded="no")
    assert "act/resolve" not in nothing and "damage-nothing" in nothing
    damage = dialog(a.token, b.pk, card="火攻", source=str(a.pk), shown="heart", discarded="yes")
    assert "act/resolve" in damage and "藤甲：1 → 2" in damage


def test_the_judgement_helper_says_what_it_took_out_and_offers_the_reshuffle() -> None:
    table, _seats, a, b, c = scene()
    page = Client().get(f"/p/{a.token}/judge/{a.pk}").content.decode()
    assert "act/reshuffle" in page and "藤甲" in page and "白银狮子" in page
    assert "odds-out" in page
    assert htmx_post(csrf_client(), f"/p/{a.token}/act/reshuffle", {}).status_code == 204
    assert Event.objects.filter(table=table).latest("version").kind == "deck_reshuffled"


def test_a_target_left_dying_pauses_the_chain_in_the_preview_and_on_the_strip() -> None:
    table, _seats, a, b, c = scene(b_hp=4)
    preview = dialog(a.token, b.pk, card="火杀", source=str(a.pk), target_hand_empty="1")
    assert "damage-pause" in preview and "damage-later" in preview
    fields = {"target": b.pk, "card": "火杀", "source": a.pk, "target_hand_empty": "1"}
    assert htmx_post(csrf_client(), f"/p/{a.token}/act/resolve", fields).status_code == 204
    assert fresh(b).dying and fresh(c).chained and fresh(c).hp == c.hp
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{table.code}/").content.decode()
    assert f"Chain paused: {b.name} is dying" in english
    actions.seat_rescue(token=table.host_token, seat_id=b.pk, by=a.pk, kind="peach")
    page = Client().get(f"/t/{table.code}/").content.decode()
    assert "act/chaingo" in page
    assert htmx_post(csrf_client(), f"/p/{a.token}/act/chaingo", {}).status_code == 204
    assert (fresh(c).hp, fresh(c).chained) == (c.hp - 1, False)  # 白银狮子: 3 → 1


def test_reaction_skills_are_offered_once_for_their_own_step_of_a_chain() -> None:
    """A 郭嘉 in a chain of three is reminded for his own step."""
    from companion.models import Seat
    from companion.read.history import HistoryLine

    table, seats = first_game(4, maneuvering=True)
    a = holder_of(table)
    b, c, d = (after(seats, a, n) for n in (1, 2, 3))
    Seat.objects.filter(pk=c.pk).update(hero="WEI006")  # 郭嘉: 遗计
    Seat.objects.filter(pk__in=[b.pk, d.pk]).update(hero="")
    for seat in (b, c, d):
        maneuver.seat_set_chained(token=table.host_token, seat_id=seat.pk, chained=True)
    preview = dialog(a.token, b.pk, card="雷杀", source=str(a.pk))
    lines = re.findall(r'<li class="damage-step[^"]*">(.*?)</li>', preview, re.S)
    assert len(lines) == 3
    assert ["遗计" in line for line in lines] == [False, True, False]
    maneuver.damage_resolve(token=a.token, target=b.pk, card="雷杀", source=a.pk)
    event = Event.objects.filter(table=table).latest("version")
    assert [s["skills"] for s in event.public["steps"]] == [[], ["遗计"], []]
    text = HistoryLine(event.kind, event.public, event.version, event.game_number).text
    assert text.count("遗计") == 1


def test_each_weapon_choice_is_offered_to_its_holder_only() -> None:
    table, seats = first_game(4, maneuvering=True)
    a = holder_of(table)
    b = after(seats, a)
    host = table.host_token
    actions.equipment_set(token=host, seat_id=b.pk, name="赤兔")
    offered = {
        "朱雀羽扇": 'name="weapon_skill"',
        "寒冰剑": 'name="weapon_skill"',
        "贯石斧": 'name="axe"',
        "麒麟弓": 'name="qilin"',
        "古锭刀": 'name="target_hand_empty"',
    }
    for weapon, field in offered.items():
        actions.equipment_set(token=host, seat_id=a.pk, name=weapon, replace=True)
        page = dialog(a.token, b.pk, card="杀", source=str(a.pk))
        assert field in page, weapon
        for other, other_field in offered.items():
            if other_field != field:
                assert other_field not in page, (weapon, other)
        # On a 决斗, no weapon acts.
        duel = dialog(a.token, b.pk, card="决斗", source=str(a.pk))
        assert all(f not in duel for f in offered.values())
    # 麒麟弓's horse goes in the same change as the damage, and comes back with its undo.
    actions.equipment_set(token=host, seat_id=a.pk, name="麒麟弓", replace=True)
    preview = dialog(a.token, b.pk, card="杀", source=str(a.pk), qilin="minus_horse")
    assert 'name="qilin" value="minus_horse"' in preview
    fields = {"target": b.pk, "card": "杀", "source": a.pk, "qilin": "minus_horse"}
    assert htmx_post(csrf_client(), f"/p/{a.token}/act/resolve", fields).status_code == 204
    assert "minus_horse" not in fresh(b).equipment and fresh(b).hp == b.hp - 1
    event = Event.objects.filter(table=table).latest("version")
    assert event.public["qilin"] == "赤兔"
    actions.event_undo(token=host, version=event.version)
    assert fresh(b).equipment.get("minus_horse") == "赤兔" and fresh(b).hp == b.hp


def test_lightning_has_no_source_and_other_damage_asks_type_and_amount() -> None:
    table, seats = first_game(4, maneuvering=True)
    a = holder_of(table)
    b = after(seats, a)
    lightning = dialog(a.token, b.pk, card="闪电")
    assert 'name="source"' not in lightning and "act/resolve" in lightning
    assert "3" in re.findall(r'<li class="damage-step[^"]*">(.*?)</li>', lightning, re.S)[0]
    other = dialog(a.token, b.pk, card="other")
    assert 'name="source" value="none"' in other and f'name="source" value="{b.pk}"' in other
    page = dialog(a.token, b.pk, card="other", source="none", damage_type="fire", amount="2")
    assert 'name="damage_type" value="fire" checked' in page
    assert '<input type="hidden" name="amount" value="2">' in page


def test_a_source_that_is_no_seat_asks_again() -> None:
    """A digit that is no number ("²") or an unknown seat is no source: the sources are asked
    again (the dialog once broke on "²")."""
    table, seats = first_game(4, maneuvering=True)
    a = holder_of(table)
    b = after(seats, a)
    for source in ("²", "99999999", "-1", "x"):
        page = dialog(a.token, b.pk, card="杀", source=source)
        assert f'name="source" value="{a.pk}"' in page and "act/resolve" not in page, source


def apply_form(html: str) -> dict[str, str]:
    """The hidden fields of the dialog's apply form."""
    form = re.search(r'<form class="damage-apply".*?</form>', html, re.S)
    assert form, html
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))


def test_the_apply_form_sends_what_its_preview_showed_and_a_stale_one_is_refused() -> None:
    """What the dialog shows is what is applied: the apply form carries the preview's own
    inputs and its result; when the table works the damage out otherwise since (here the
    target put on 白银狮子 after the preview), nothing is applied."""
    table, _seats, a, b, _c = scene()
    shown = dialog(a.token, b.pk, card="杀", source=str(a.pk), target_hand_empty="1")
    fields = apply_form(shown)
    assert fields["target_hand_empty"] == "1" and fields["shown"]
    actions.equipment_set(token=table.host_token, seat_id=b.pk, name="白银狮子", replace=True)
    table.refresh_from_db()
    version = table.version
    response = htmx_post(csrf_client(), f"/p/{a.token}/act/resolve", fields)
    assert response.status_code == 409
    assert "看" in response.content.decode()  # "伤害在显示之后变了：请再看一遍。"
    table.refresh_from_db()
    assert table.version == version and fresh(b).hp == b.hp
    # The preview asked again carries the new result, and that applies.
    again = apply_form(dialog(a.token, b.pk, card="杀", source=str(a.pk), target_hand_empty="1"))
    assert again["shown"] != fields["shown"]
    assert htmx_post(csrf_client(), f"/p/{a.token}/act/resolve", again).status_code == 204
    assert fresh(b).hp == b.hp - 1  # 白银狮子: any damage above 1 is 1


@pytest.mark.parametrize(
    ("lang", "fire", "thunder"), [("zh-hans", "火焰", "雷电"), ("en", "Fire", "Thunder")]
)
def test_the_seat_dialog_offers_fire_and_thunder_only_where_maneuvering_is_on(
    lang: str, fire: str, thunder: str
) -> None:
    """The "−" dialog's damage types are the games' on at the table (this package's two)."""
    for on in (True, False):
        table, seats = first_game(4, maneuvering=on)
        response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(
            f"/h/{table.host_token}/seat/{seats[1].pk}"
        )
        assert response.status_code == 200
        page = response.content.decode()
        kinds = re.findall(r'name="damage_type" value="(\w+)"', page)
        if on:
            assert kinds == ["normal", "fire", "thunder"]
            assert 'value="normal" checked' in page
            assert f"> {fire}</label>" in page and f"> {thunder}</label>" in page
        else:
            assert kinds == []
