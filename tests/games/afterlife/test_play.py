"""Rebirth 转世 and dark souls 暗魂 over the actions (docs/rules.md §9.1, §9.2,
companion/games/afterlife/actions/): every gift, rebirth, haunt and soul use, each refusal (409 or 403
with its reason, nothing changed), and the end of the game with reborn players."""

from __future__ import annotations

import pytest
from django.utils import translation

from companion import actions
from companion.actions import ActionError
from companion.games.afterlife import actions as afterlife
from companion.games.afterlife.actions import rebirth_actions
from companion.games.maneuvering import actions as maneuver
from companion.models import Event, Game, Seat, Table
from companion.read.state import public_state
from companion.rules import box
from companion.words.history import describe
from tests.support.game import by_identity, fresh, kill, picked_all, snapshot

pytestmark = pytest.mark.django_db


def refused(call, code: str, status: int = 409, **fields) -> ActionError:
    with pytest.raises(ActionError) as caught:
        call(**fields)
    assert caught.value.status == status
    assert caught.value.code == code
    return caught.value


def kinds(table: Table) -> list[str]:
    return list(
        Event.objects.filter(table=table).order_by("version").values_list("kind", flat=True)
    )


def kingdom(hero: str) -> str:
    return box.Box().hero(hero).kingdom


def test_gifts_to_the_threshold_rebirth_with_a_hero_of_his_kingdom_at_hp_1() -> None:
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel, other_rebel = by_identity(table, "rebel")
    loyalist = by_identity(table, "loyalist")[0]
    renegade = by_identity(table, "renegade")[0]
    old_hero = rebel.hero
    kill(table, rebel, lord)
    assert afterlife.load(fresh_table(table)).rebirth.cards == {seat_index(rebel): 0}
    for n, giver in enumerate([loyalist, other_rebel], start=1):
        afterlife.rebirth_give(token=giver.token, seat_id=rebel.pk)
        assert afterlife.load(fresh_table(table)).rebirth.cards[seat_index(rebel)] == n
        assert not fresh(rebel).alive
    afterlife.rebirth_give(token=renegade.token, seat_id=rebel.pk)  # 3: the threshold at 5
    reborn = fresh(rebel)
    assert reborn.alive and reborn.hp == 1 and not reborn.dying
    assert reborn.hero != old_hero
    # The first hero of his kingdom; of any kingdom for a 群 or 神 hero (games/afterlife/rules/draw.py).
    if kingdom(old_hero) not in ("qun", "god"):
        assert kingdom(reborn.hero) == kingdom(old_hero)
    assert reborn.max_hp == box.Box().hero(reborn.hero).hp
    held = {s.hero for s in Seat.objects.filter(table=table)}
    assert old_hero not in held, "his old hero is back among the unused"
    assert kinds(table)[-3:] == ["rebirth_gift", "rebirth_gift", "rebirth_reborn"]
    seen = next(s for s in public_state(fresh_table(table)).seats if s.id == rebel.pk)
    assert seen.identity == "rebel", "his identity, public since his death, stays shown"
    state = afterlife.load(fresh_table(table))
    assert seat_index(rebel) in state.rebirth.reborn and state.rebirth.cards == {}
    # A reborn player cannot give; he can be reborn again (he waits once more when he dies).
    kill(table, other_rebel, lord)
    refused(afterlife.rebirth_give, "giver_reborn", token=reborn.token, seat_id=other_rebel.pk)
    kill(table, reborn, lord)
    state = afterlife.load(fresh_table(table))
    assert seat_index(rebel) not in state.rebirth.reborn
    assert state.rebirth.cards[seat_index(rebel)] == 0


def fresh_table(table: Table) -> Table:
    return Table.objects.get(pk=table.pk)


def seat_index(seat: Seat) -> int:
    ordered = list(Seat.objects.filter(table=seat.table_id).order_by("position", "slot"))
    return [s.pk for s in ordered].index(seat.pk)


def test_gift_refusals_each_with_its_reason_and_nothing_changed() -> None:
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel, other_rebel = by_identity(table, "rebel")
    loyalist = by_identity(table, "loyalist")[0]
    # To a living player.
    before = snapshot(table)
    refused(afterlife.rebirth_give, "receiver_alive", token=loyalist.token, seat_id=rebel.pk)
    assert snapshot(table) == before
    kill(table, rebel, lord)
    afterlife.rebirth_give(token=loyalist.token, seat_id=rebel.pk)
    # A second gift in the same turn, even to someone else.
    before = snapshot(table)
    error = refused(afterlife.rebirth_give, "already_gave", token=loyalist.token, seat_id=rebel.pk)
    with translation.override("zh-hans"):
        assert str(error.message) == "每名玩家每回合只能献祭一张牌：你本回合已经给过了。"
    with translation.override("en"):
        assert str(error.message).startswith("One gift per player per turn")
    assert snapshot(table) == before
    # A dead player does not give; the host console has no hand.
    kill(table, other_rebel, lord)
    refused(afterlife.rebirth_give, "giver_dead", token=other_rebel.token, seat_id=rebel.pk)
    refused(afterlife.rebirth_give, "not_a_seat", 403, token=table.host_token, seat_id=rebel.pk)
    # The next turn he may give again.
    actions.turn_end(token=fresh(lord).token)
    afterlife.rebirth_give(token=loyalist.token, seat_id=rebel.pk)
    assert afterlife.load(fresh_table(table)).rebirth.cards[seat_index(rebel)] == 2


def test_without_rebirth_no_gift_and_the_dead_are_not_counted() -> None:
    table, _seats = picked_all(5)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    loyalist = by_identity(table, "loyalist")[0]
    kill(table, rebel, lord)
    refused(afterlife.rebirth_give, "no_rebirth", token=loyalist.token, seat_id=rebel.pk)
    assert "afterlife" not in fresh_table(table).mode_state


def test_the_lord_kills_the_last_rebel_and_wins_beside_a_reborn_rebel() -> None:
    """docs/rules.md §9.1: a lord, a rebel and a reborn rebel; the lord kills the rebel and wins. Killing
    the reborn rebel gives no reward; scoring counts him as dead."""
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel, other_rebel = by_identity(table, "rebel")
    loyalist = by_identity(table, "loyalist")[0]
    renegade = by_identity(table, "renegade")[0]
    kill(table, rebel, lord)
    for giver in (lord, loyalist, renegade):
        afterlife.rebirth_give(token=giver.token, seat_id=rebel.pk)
    assert fresh(rebel).alive
    kill(table, loyalist, other_rebel)
    kill(table, renegade, lord)
    assert fresh_table(table).status == Table.Status.PLAYING
    kill(table, other_rebel, lord)
    table = fresh_table(table)
    assert table.status == Table.Status.FINISHED and table.winner == "lord"
    assert fresh(rebel).alive, "the reborn rebel is still at the table"
    game = Game.objects.get(table=table, number=table.game_number)
    line = next(r for r in game.results if r["seat"] == rebel.pk)
    assert line["alive"] is False and line["reborn"] is True


def test_killing_a_reborn_rebel_gives_no_reward_and_a_reborn_loyalist_no_penalty() -> None:
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel, other_rebel = by_identity(table, "rebel")
    loyalist = by_identity(table, "loyalist")[0]
    renegade = by_identity(table, "renegade")[0]
    kill(table, rebel, lord)
    for giver in (lord, loyalist, renegade):
        afterlife.rebirth_give(token=giver.token, seat_id=rebel.pk)
    kill(table, rebel, other_rebel)
    died = Event.objects.filter(table=table, kind="died").order_by("-version").first()
    assert died.public["consequence"] == "", "no reward for a reborn rebel"
    # A reborn loyalist killed by the lord: the lord keeps his equipment.
    actions.turn_end(token=fresh(lord).token)
    kill(table, loyalist, renegade)
    for giver in (lord, other_rebel, renegade):
        afterlife.rebirth_give(token=giver.token, seat_id=loyalist.pk)
    assert fresh(loyalist).alive
    actions.equipment_set(token=lord.token, seat_id=lord.pk, name="诸葛连弩")
    kill(table, loyalist, lord)
    died = Event.objects.filter(table=table, kind="died").order_by("-version").first()
    assert died.public["consequence"] == ""
    assert fresh(lord).equipment, "no penalty for killing a reborn loyalist"


def test_undoing_a_death_takes_him_off_the_waiting_list() -> None:
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    kill(table, rebel, lord)
    assert afterlife.load(fresh_table(table)).rebirth.cards
    version = Event.objects.filter(table=table, kind="died").get().version
    actions.event_undo(token=table.host_token, version=version)
    assert afterlife.load(fresh_table(table)).rebirth.cards == {}


# Dark souls 暗魂 -------------------------------------------------------------------------------


def test_each_soul_haunts_and_is_used_once() -> None:
    table, _seats = picked_all(6, dark_souls=True, six_two_renegades=False)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    rebel = by_identity(table, "rebel")[0]
    renegade = by_identity(table, "renegade")[0]
    # 罗汉: a dead loyalist haunts the lord.
    refused(afterlife.soul_haunt, "owner_alive", token=loyalist.token, seat_id=lord.pk)
    kill(table, loyalist, rebel)
    assert afterlife.load(fresh_table(table)).choosing == (seat_index(loyalist),)
    refused(afterlife.soul_haunt, "host_dead", token=loyalist.token, seat_id=loyalist.pk)
    afterlife.soul_haunt(token=loyalist.token, seat_id=lord.pk)
    refused(afterlife.soul_haunt, "already_a_soul", token=loyalist.token, seat_id=rebel.pk)
    [soul] = afterlife.load(fresh_table(table)).souls
    assert (soul.soul.value, soul.host) == ("luohan", seat_index(lord))
    # 罗汉 is never used by a tap: it prevents 1 point of the lord's next damage by itself.
    refused(afterlife.soul_use, "luohan_is_automatic", token=loyalist.token, seat_id=loyalist.pk)
    hp = fresh(lord).hp
    actions.seat_change_hp(token=lord.token, seat_id=lord.pk, delta=-2, source=rebel.pk)
    assert fresh(lord).hp == hp - 1
    assert afterlife.load(fresh_table(table)).souls == ()
    refused(afterlife.soul_use, "no_soul", token=loyalist.token, seat_id=loyalist.pk)
    # 玄武: a dead rebel haunts the renegade, who uses it at any time.
    kill(table, rebel, lord)
    afterlife.soul_haunt(token=rebel.token, seat_id=renegade.pk)
    refused(afterlife.soul_use, "not_haunted", 403, token=lord.token, seat_id=rebel.pk)
    afterlife.soul_use(token=renegade.token, seat_id=rebel.pk)
    assert afterlife.load(fresh_table(table)).souls == ()
    # 祝由: a dead renegade haunts the lord; only in the lord's play phase.
    other_rebel = by_identity(table, "rebel")[1]
    kill(table, renegade, other_rebel)
    afterlife.soul_haunt(token=renegade.token, seat_id=lord.pk)
    actions.turn_set(token=table.host_token, seat_id=other_rebel.pk, phase="play")
    refused(
        afterlife.soul_use, "not_hosts_play_phase", token=fresh(lord).token, seat_id=renegade.pk
    )
    actions.turn_set(token=table.host_token, seat_id=lord.pk, phase="play")
    afterlife.soul_use(token=fresh(lord).token, seat_id=renegade.pk)
    assert afterlife.load(fresh_table(table)).souls == ()
    assert kinds(table).count("soul_used") == 2 and kinds(table).count("soul_haunted") == 3


def test_a_soul_whose_host_dies_is_gone_and_the_lord_has_none() -> None:
    table, _seats = picked_all(6, dark_souls=True, six_two_renegades=False)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    rebel, other_rebel = by_identity(table, "rebel")[:2]
    kill(table, loyalist, rebel)
    afterlife.soul_haunt(token=loyalist.token, seat_id=other_rebel.pk)
    # 罗汉 prevents the first damage (1 of 1); the next kills him, and the soul is gone with him.
    actions.seat_change_hp(token=table.host_token, seat_id=other_rebel.pk, delta=-1, source="")
    kill(table, other_rebel, lord)
    state = afterlife.load(fresh_table(table))
    assert state.souls == () and state.choosing == (seat_index(other_rebel),)
    refused(afterlife.soul_haunt, "lord_has_no_soul", token=lord.token, seat_id=rebel.pk)


def test_without_dark_souls_no_haunting() -> None:
    table, _seats = picked_all(5)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    kill(table, rebel, lord)
    refused(afterlife.soul_haunt, "no_dark_souls", token=rebel.token, seat_id=lord.pk)


# Undo ----------------------------------------------------------------------------------------


def test_a_gift_and_a_rebirth_are_undone_by_the_usual_undo() -> None:
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel, other_rebel = by_identity(table, "rebel")
    loyalist = by_identity(table, "loyalist")[0]
    old_hero = rebel.hero
    kill(table, rebel, lord)
    # The giver's own "undo my last change": the card is his again, and he may give again.
    afterlife.rebirth_give(token=loyalist.token, seat_id=rebel.pk)
    actions.event_undo(token=loyalist.token)
    state = afterlife.load(fresh_table(table))
    assert state.rebirth.cards[seat_index(rebel)] == 0 and not state.rebirth.gave
    for giver in (loyalist, other_rebel, lord):
        afterlife.rebirth_give(token=giver.token, seat_id=rebel.pk)
    assert fresh(rebel).alive
    # The host undoes the rebirth: dead again, his old hero, two cards given.
    version = Event.objects.get(table=table, kind="rebirth_reborn").version
    actions.event_undo(token=table.host_token, version=version)
    back = fresh(rebel)
    assert not back.alive and back.hero == old_hero
    state = afterlife.load(fresh_table(table))
    assert state.rebirth.cards[seat_index(rebel)] == 2 and not state.rebirth.reborn
    assert Seat.objects.filter(table=table, hero=old_hero).count() == 1


def test_a_haunting_and_a_prevented_damage_are_undone_and_the_soul_haunts_again() -> None:
    table, _seats = picked_all(6, dark_souls=True)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    rebel = by_identity(table, "rebel")[0]
    kill(table, loyalist, rebel)
    afterlife.soul_haunt(token=loyalist.token, seat_id=rebel.pk)
    haunted = Event.objects.get(table=table, kind="soul_haunted").version
    actions.event_undo(token=table.host_token, version=haunted)
    state = afterlife.load(fresh_table(table))
    assert state.souls == () and state.choosing == (seat_index(loyalist),)
    afterlife.soul_haunt(token=loyalist.token, seat_id=lord.pk)
    hp = fresh(lord).hp
    actions.seat_change_hp(token=lord.token, seat_id=lord.pk, delta=-2, source=rebel.pk)
    assert fresh(lord).hp == hp - 1 and afterlife.load(fresh_table(table)).souls == ()
    # The undo of the damage gives the HP back and the soul haunts again, for the next one.
    actions.event_undo(token=lord.token)
    assert fresh(lord).hp == hp
    [soul] = afterlife.load(fresh_table(table)).souls
    assert (soul.soul.value, soul.host) == ("luohan", seat_index(lord))
    actions.seat_change_hp(token=lord.token, seat_id=lord.pk, delta=-1, source=rebel.pk)
    assert fresh(lord).hp == hp and afterlife.load(fresh_table(table)).souls == ()
    actions.seat_change_hp(token=lord.token, seat_id=lord.pk, delta=-1, source=rebel.pk)
    assert fresh(lord).hp == hp - 1  # the soul is gone: the second damage lands whole


def test_luohan_prevents_before_the_damage_lands_a_haunted_player_at_1_hp_is_not_dying() -> None:
    """docs/rules.md §9.2: "the block is a prevention, applied to the damage before it lands (a haunted
    player at 1 HP who takes 1 damage does not become dying)"; the line says so, naming the
    soul's owner."""
    table, _seats = picked_all(6, dark_souls=True)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    rebel, other_rebel = by_identity(table, "rebel")[:2]
    kill(table, loyalist, rebel)
    afterlife.soul_haunt(token=loyalist.token, seat_id=other_rebel.pk)
    down = fresh(other_rebel).hp - 1
    actions.seat_change_hp(token=other_rebel.token, seat_id=other_rebel.pk, delta=-down, loss=True)
    assert fresh(other_rebel).hp == 1  # HP loss is not damage: the soul is still there
    actions.seat_change_hp(token=table.host_token, seat_id=other_rebel.pk, delta=-1, source=lord.pk)
    seat = fresh(other_rebel)
    assert (seat.hp, seat.dying) == (1, False)
    event = Event.objects.filter(table=table, kind="damage").latest("version")
    assert [row["owner_name"] for row in event.public["luohan"]] == [loyalist.name]
    with translation.override("en"):
        line = describe(event.kind, event.public)["text"]
    assert "prevented 1 point before it landed" in line and loyalist.name in line
    assert not Event.objects.filter(table=table, kind="soul_used").exists()


def test_luohan_is_part_of_a_resolved_damage_and_of_lightning() -> None:
    table, _seats = picked_all(6, dark_souls=True, maneuvering=True)
    # Heroes that leave a judgement alone (the deal might give 司马懿's 鬼才, which waits for his
    # choice, or 小乔's 红颜, which turns the ♠ of 闪电 into a ♥).
    Seat.objects.filter(table=table).exclude(identity="lord").update(hero="WEI004")
    lord = by_identity(table, "lord")[0]
    loyalists = by_identity(table, "loyalist")
    rebel = by_identity(table, "rebel")[0]
    kill(table, loyalists[0], rebel)
    afterlife.soul_haunt(token=loyalists[0].token, seat_id=rebel.pk)
    hp = fresh(rebel).hp
    actions.turn_set(token=table.host_token, seat_id=lord.pk, phase="play")
    maneuver.seat_drink_wine(token=lord.token, seat_id=lord.pk)
    maneuver.damage_resolve(token=lord.token, target=rebel.pk, card="杀", source=lord.pk)
    assert fresh(rebel).hp == hp - 1  # 杀 + 酒 = 2, 罗汉 prevents 1
    event = Event.objects.filter(table=table, kind="damage_resolved").latest("version")
    assert ["luohan_prevented", 2, 1] in event.public["steps"][0]["changes"]
    actions.event_undo(token=table.host_token, version=event.version)
    assert fresh(rebel).hp == hp and len(afterlife.load(fresh_table(table)).souls) == 1
    # 闪电 strikes for 3 with no source: 2 land.
    table.refresh_from_db()
    actions.trick_place(token=table.host_token, seat_id=rebel.pk, name="闪电")
    actions.judgement_flip(
        token=rebel.token, check="lightning", suit="spade", rank=5, seat_id=rebel.pk, trick="闪电"
    )
    assert fresh(rebel).hp == hp - 2


def test_the_reborn_player_is_back_in_turn_order() -> None:
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    givers = [s for s in by_identity(table, "loyalist") + by_identity(table, "renegade")]
    kill(table, rebel, lord)
    for giver in [*givers, by_identity(table, "rebel")[1]]:
        afterlife.rebirth_give(token=giver.token, seat_id=rebel.pk)
    assert fresh(rebel).alive
    seen = []
    for _ in range(5):
        holder = Seat.objects.get(pk=fresh_table(table).turn_seat_id)
        seen.append(holder.pk)
        actions.turn_end(token=holder.token)
    assert rebel.pk in seen, "his turn comes round again"


def test_no_hero_of_his_kingdom_left_he_keeps_his_cards_and_takes_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, _seats = picked_all(5, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    if box.Box().hero(rebel.hero).kingdom in ("qun", "god"):
        # A 群 or god hero is reborn as any kingdom: this rebel plays 张辽 (魏), whatever was dealt.
        Seat.objects.filter(pk=rebel.pk).update(hero="WEI004")
        rebel.refresh_from_db()
    kingdom_of = box.Box().hero(rebel.hero).kingdom
    others = frozenset(
        h.id for h in box.Box().heroes() if h.kingdom == kingdom_of and h.id != rebel.hero
    )
    monkeypatch.setattr(rebirth_actions, "table_box", lambda _t: box.Box(standard_off=others))
    kill(table, rebel, lord)
    givers = [s for s in table.seats.all() if s.alive and s.pk != rebel.pk][:3]
    for giver in givers:
        afterlife.rebirth_give(token=giver.token, seat_id=rebel.pk)
    assert not fresh(rebel).alive
    state = afterlife.load(fresh_table(table))
    assert seat_index(rebel) in state.rebirth.no_hero
    assert state.rebirth.cards[seat_index(rebel)] == 3, "he keeps his cards"
    actions.turn_end(token=Seat.objects.get(pk=fresh_table(table).turn_seat_id).token)
    refused(afterlife.rebirth_give, "receiver_no_hero", token=givers[0].token, seat_id=rebel.pk)


def test_no_gift_once_the_game_is_over() -> None:
    table, _seats = picked_all(4, rebirth=True)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    renegade = by_identity(table, "renegade")[0]
    kill(table, rebel, lord)
    kill(table, renegade, lord)
    assert fresh_table(table).status == Table.Status.FINISHED
    refused(afterlife.rebirth_give, "not_playing", token=lord.token, seat_id=rebel.pk)
