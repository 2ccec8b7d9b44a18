"""Judgements and the host role through the services, the pages and the websocket: delayed tricks as
the table plays them (who places, who removes, 无懈可击), the judgement waiting for 鬼才 in the
turn bar, and the host role passing from phone to phone."""

from __future__ import annotations

from fractions import Fraction

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation

from companion import actions
from companion.actions import ActionError
from companion.asgi import application
from companion.live.broadcast import render_public
from companion.models import Event, Seat, Table
from companion.read.state import public_state
from companion.words.history import describe
from tests.actions.test_turns import first_game, snapshot
from tests.support.game import fresh, picked_all

pytestmark = pytest.mark.django_db
SIMA_YI = "WEI002"


def holder_of(table: Table) -> Seat:
    return Seat.objects.get(pk=table.turn_seat_id)


def at(table: Table, seat: Seat, phase: str) -> None:
    actions.turn_set(token=table.host_token, seat_id=seat.pk, phase=phase)


def ring(seats: list[Seat], seat: Seat, step: int) -> Seat:
    """The seat `step` places after `seat` in play order."""
    ids = [s.pk for s in seats]
    return seats[(ids.index(seat.pk) + step) % len(seats)]


def latest(table: Table, kind: str) -> Event:
    return Event.objects.filter(table=table, kind=kind).latest("version")


def text(event: Event, lang: str = "en") -> str:
    with translation.override(lang):
        return describe(event.kind, event.public)["text"]


def with_sima_yi(players: int = 4) -> tuple[Table, list[Seat], Seat]:
    """A game in play with 司马懿 (鬼才) on a seat that is not the current player's."""
    table, _seats = picked_all(players)
    seats = list(table.seats.order_by("position"))
    Seat.objects.filter(table=table, hero=SIMA_YI).update(hero="QUN002")
    sima = ring(seats, holder_of(table), 2)
    Seat.objects.filter(pk=sima.pk).update(hero=SIMA_YI)
    return table, seats, fresh(sima)


# Placing ------------------------------------------------------------------------------------


def test_only_the_current_player_places_and_only_in_the_play_phase() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    target = ring(seats, holder, 1)
    bystander = ring(seats, holder, 2)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.trick_place(token=bystander.token, seat_id=target.pk, name="乐不思蜀")
    assert (err.value.status, err.value.code) == (403, "not_your_turn")
    with pytest.raises(ActionError) as err:  # the start phase
        actions.trick_place(token=holder.token, seat_id=target.pk, name="乐不思蜀")
    assert err.value.code == "not_play_phase"
    assert snapshot(table) == before
    at(table, holder, "play")
    actions.trick_place(token=holder.token, seat_id=target.pk, name="乐不思蜀")
    assert fresh(target).judgement_zone == ["乐不思蜀"]
    line = text(latest(table, "trick_placed"))
    assert holder.name in line and target.name in line and "Indulgence" in line
    assert holder.name in text(latest(table, "trick_placed"), "zh-hans")


def test_targets_follow_the_card_texts() -> None:
    table, seats = first_game(4, maneuvering=True)
    holder = holder_of(table)
    at(table, holder, "play")
    neighbour, opposite = ring(seats, holder, 1), ring(seats, holder, 2)
    before = snapshot(table)
    refusals = [
        (holder, "乐不思蜀", "not_self"),
        (holder, "兵粮寸断", "not_self"),
        (neighbour, "闪电", "own_zone"),
        (opposite, "兵粮寸断", "out_of_reach"),  # distance 2
    ]
    for seat, name, code in refusals:
        with pytest.raises(ActionError) as err:
            actions.trick_place(token=holder.token, seat_id=seat.pk, name=name)
        assert err.value.code == code, (name, seat.name)
    assert snapshot(table) == before
    actions.trick_place(token=holder.token, seat_id=opposite.pk, name="乐不思蜀")  # any distance
    actions.trick_place(token=holder.token, seat_id=neighbour.pk, name="兵粮寸断")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    assert fresh(opposite).judgement_zone == ["乐不思蜀"]
    assert fresh(neighbour).judgement_zone == ["兵粮寸断"]
    assert fresh(holder).judgement_zone == ["闪电"]


def test_a_minus_horse_brings_supply_shortage_in_reach() -> None:
    table, seats = first_game(4, maneuvering=True)
    holder = holder_of(table)
    at(table, holder, "play")
    opposite = ring(seats, holder, 2)
    actions.equipment_set(token=holder.token, seat_id=holder.pk, name="赤兔")
    actions.trick_place(token=holder.token, seat_id=opposite.pk, name="兵粮寸断")
    assert fresh(opposite).judgement_zone == ["兵粮寸断"]


def test_the_host_corrects_a_zone_at_any_time() -> None:
    table, seats = first_game(4)
    other = ring(seats, holder_of(table), 1)
    actions.trick_place(token=table.host_token, seat_id=other.pk, name="闪电")
    assert fresh(other).judgement_zone == ["闪电"]
    actions.trick_remove(token=table.host_token, seat_id=other.pk, name="闪电")
    assert fresh(other).judgement_zone == []
    assert text(latest(table, "trick_removed")).startswith("The host removed Lightning 闪电")


# Removing -----------------------------------------------------------------------------------


def test_removal_is_the_current_players_in_the_play_phase_and_names_them() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    target, bystander = ring(seats, holder, 1), ring(seats, holder, 2)
    at(table, holder, "play")
    actions.trick_place(token=holder.token, seat_id=target.pk, name="乐不思蜀")
    before = snapshot(table)
    for token in (bystander.token, target.token):
        with pytest.raises(ActionError) as err:
            actions.trick_remove(token=token, seat_id=target.pk, name="乐不思蜀")
        assert err.value.code == "not_your_turn"
    assert snapshot(table) == before
    actions.trick_remove(token=holder.token, seat_id=target.pk, name="乐不思蜀")
    assert fresh(target).judgement_zone == []
    event = latest(table, "trick_removed")
    assert event.public["by_name"] == holder.name
    assert text(event) == f"{holder.name} removed Indulgence 乐不思蜀 from {target.name}"


def test_an_old_removal_line_without_its_author_reads_as_before() -> None:
    assert describe("trick_removed", {"name": "B", "card": "闪电"})["text"].count("B") == 1


# 无懈可击 -----------------------------------------------------------------------------------


def test_a_nullified_lightning_moves_on_without_a_judgement() -> None:
    table, seats, sima = with_sima_yi(5)
    holder = holder_of(table)
    dead = ring(seats, holder, 1)
    if dead.identity == "lord" or dead.pk == sima.pk:
        dead = None
    else:
        actions.seat_change_hp(token=dead.token, seat_id=dead.pk, delta=-fresh(dead).hp)
        actions.seat_die(token=dead.token, seat_id=dead.pk)
    receiver = ring(seats, holder, 2 if dead else 1)
    at(table, holder, "play")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    at(table, holder, "judgement")
    hp = [s.hp for s in table.seats.order_by("pk")]
    judgements = Event.objects.filter(table=table, kind__startswith="judgement").count()
    actions.trick_nullify(token=holder.token, seat_id=holder.pk, name="闪电")
    table.refresh_from_db()
    assert table.pending_judgement == {}  # 司马懿 is alive, but nothing was judged
    assert Event.objects.filter(table=table, kind__startswith="judgement").count() == judgements
    assert [s.hp for s in table.seats.order_by("pk")] == hp
    assert fresh(holder).judgement_zone == [] and fresh(receiver).judgement_zone == ["闪电"]
    event = latest(table, "trick_nullified")
    assert event.public["moved_to"] == receiver.pk
    assert event.before["zones"] == {str(holder.pk): ["闪电"]}
    assert event.after["zones"] == {str(holder.pk): [], str(receiver.pk): ["闪电"]}
    line = text(event)
    assert "无懈可击" in line and receiver.name in line and holder.name in line
    assert "无懈可击" in text(event, "zh-hans") and receiver.name in text(event, "zh-hans")
    # The holder goes on: the zone is empty, so the judgement phase is over.
    actions.turn_advance(token=holder.token)
    table.refresh_from_db()
    assert table.phase == "draw"


def test_a_nullified_indulgence_is_discarded_and_skips_nothing() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    at(table, holder, "play")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    target = ring(seats, holder, 1)
    actions.trick_place(token=holder.token, seat_id=target.pk, name="乐不思蜀")
    at(table, target, "judgement")
    actions.trick_nullify(token=target.token, seat_id=target.pk, name="乐不思蜀")
    table.refresh_from_db()
    assert fresh(target).judgement_zone == [] and table.phase_skips == []
    assert fresh(holder).judgement_zone == ["闪电"]
    assert latest(table, "trick_nullified").public["fate"] == "discarded"


def test_nullify_refusals_change_nothing() -> None:
    table, seats, sima = with_sima_yi(4)
    holder = holder_of(table)
    other = ring(seats, holder, 1)
    at(table, holder, "play")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    before = snapshot(table)
    cases = [
        (holder.token, "乐不思蜀", "not_judging"),  # the play phase
    ]
    for token, name, code in cases:
        with pytest.raises(ActionError) as err:
            actions.trick_nullify(token=token, seat_id=holder.pk, name=name)
        assert err.value.code == code
    at(table, holder, "judgement")
    before = snapshot(table)
    for token, name, code in [
        (other.token, "乐不思蜀", "not_yours"),
        (holder.token, "闪电", "order"),  # the last placed is judged first
        (holder.token, "兵粮寸断", "not_in_zone"),
    ]:
        with pytest.raises(ActionError) as err:
            actions.trick_nullify(token=token, seat_id=holder.pk, name=name)
        assert err.value.code == code
    actions.judgement_flip(
        token=holder.token, check="indulgence", suit="spade", rank=3, trick="乐不思蜀"
    )
    with pytest.raises(ActionError) as err:
        actions.trick_nullify(token=holder.token, seat_id=holder.pk, name="乐不思蜀")
    assert err.value.code == "pending"
    assert fresh(holder).judgement_zone == ["闪电", "乐不思蜀"]
    assert snapshot(table)[0] == before[0] + 1  # only the flip


def test_nullify_over_http() -> None:
    from tests.web.test_views import csrf_client, htmx_post

    table, seats = first_game(4)
    holder = holder_of(table)
    at(table, holder, "play")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    at(table, holder, "judgement")
    data = {"seat": holder.pk, "name": "闪电"}
    response = htmx_post(csrf_client(), f"/p/{holder.token}/act/nullify", data)
    assert response.status_code == 204
    assert fresh(ring(seats, holder, 1)).judgement_zone == ["闪电"]


# A judgement waiting for 鬼才 ------------------------------------------------------------------


def test_the_turn_bar_button_follows_a_waiting_judgement() -> None:
    table, seats, sima = with_sima_yi(4)
    holder = holder_of(table)
    at(table, holder, "play")
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    at(table, holder, "judgement")
    html = render_public(public_state(Table.objects.get(pk=table.pk)), "en")
    assert "judge/" in html and "act/confirm" not in html.split('class="turn-bar"')[1]
    actions.judgement_flip(
        token=holder.token, check="indulgence", suit="spade", rank=3, trick="乐不思蜀"
    )
    table.refresh_from_db()
    state = public_state(table)
    assert state.turn is not None and state.turn.pending_seat == holder.pk
    html = render_public(state, "en")
    bar = html.split('class="turn-bar"')[1].split("</div>\n  </div>")[0]
    # While 鬼才 may act the bar waits for 司马懿; nobody else confirms.
    assert 'hx-post="act/confirm"' not in bar and "Let the judgement take effect" not in bar
    assert f"Waiting for {sima.name}: only they let it take effect (Demonic Talent 鬼才)" in bar
    assert "disabled" in bar and "btn-primary" not in bar
    assert "Next phase" not in bar and "judge/" not in bar
    # 司马懿 is asked on his phone (the public banner carries the question for his seat).
    assert f'data-guicai="{sima.pk}"' in html and 'class="guicai-ask' in html
    assert "replace the judgement card with one of your hand cards?" in html
    with translation.override("zh-hans"):
        zh = render_public(state, "zh-hans")
    assert "要打出一张手牌代替判定牌吗" in zh and f"等待{sima.name}决定" in zh
    with pytest.raises(ActionError):
        actions.judgement_confirm(token=holder.token)
    actions.judgement_confirm(token=sima.token)
    table.refresh_from_db()
    assert public_state(table).turn.pending_seat is None


def test_a_waiting_judgement_of_another_seat_leaves_the_turn_holder_waiting() -> None:
    table, seats, sima = with_sima_yi(4)
    holder = holder_of(table)
    defender = ring(seats, holder, 1)
    actions.judgement_flip(
        token=defender.token, check="eight_trigrams", suit="heart", rank=3, seat_id=defender.pk
    )
    table.refresh_from_db()
    bar = render_public(public_state(table), "en").split('class="turn-bar"')[1]
    # 司马懿 may still replace the card: the bar waits for him, whoever is judged.
    assert f"Waiting for {sima.name}: only they" in bar and "disabled" in bar


# Pages --------------------------------------------------------------------------------------


def test_seat_dialog_offers_what_the_asker_may_do() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    target, bystander = ring(seats, holder, 1), ring(seats, holder, 2)

    def dialog(asker: Seat | None, seat: Seat) -> str:
        token = asker.token if asker else table.host_token
        prefix = "p" if asker else "h"
        return Client().get(f"/{prefix}/{token}/seat/{seat.pk}").content.decode()

    assert 'hx-post="act/trick"' not in dialog(holder, target)  # the start phase
    at(table, holder, "play")
    on_target = dialog(holder, target)
    assert 'value="乐不思蜀"' in on_target and 'value="闪电"' not in on_target
    on_self = dialog(holder, holder)
    assert 'value="闪电"' in on_self and 'value="乐不思蜀"' not in on_self
    assert 'hx-post="act/trick"' not in dialog(bystander, target)
    assert dialog(None, target).count('hx-post="act/trick"') == 2  # the host: 乐不思蜀, 闪电
    actions.trick_place(token=holder.token, seat_id=target.pk, name="乐不思蜀")
    with translation.override("en"):
        page = Client(headers={"cookie": "sgs_lang=en"}).get(f"/p/{holder.token}/seat/{target.pk}")
    body = page.content.decode()
    assert 'hx-post="act/untrick"' in body and "hx-confirm=" in body.split("act/untrick")[1][:400]
    assert 'hx-post="act/untrick"' not in dialog(bystander, target)


def test_judge_dialog_offers_nullification_to_the_judged_player_only() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    other = ring(seats, holder, 1)
    at(table, holder, "play")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    at(table, holder, "judgement")
    mine = Client().get(f"/p/{holder.token}/judge/{holder.pk}?trick=闪电").content.decode()
    assert 'hx-post="act/nullify"' in mine and 'name="name" value="闪电"' in mine
    # A delayed trick is judged one way: only its check is offered.
    assert mine.count('name="check"') == 1 and 'value="lightning" checked' in mine
    theirs = Client().get(f"/p/{other.token}/judge/{holder.pk}?trick=闪电").content.decode()
    assert 'hx-post="act/nullify"' not in theirs
    free = Client().get(f"/p/{other.token}/judge/{other.pk}").content.decode()
    assert free.count('name="check"') > 5 and "act/nullify" not in free


def test_a_phone_page_keeps_a_place_for_the_host_controls() -> None:
    table, seats = first_game(4)
    body = Client().get(f"/p/{seats[1].token}/").content.decode()
    assert '<section id="host-panel" class="host-panel-none" hidden' in body
    actions.host_pass(token=table.host_token, seat_id=seats[1].pk)
    body = Client().get(f"/p/{seats[1].token}/").content.decode()
    assert 'class="host-panel card"' in body and "host-panel-none" not in body


# The host role over the websocket ------------------------------------------------------------


def communicator(token: str) -> WebsocketCommunicator:
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    return WebsocketCommunicator(application, f"/ws/{token}/", headers=headers)


async def first_frame(token: str) -> tuple[WebsocketCommunicator, str]:
    comm = communicator(token)
    connected, _code = await comm.connect()
    assert connected
    return comm, await comm.receive_from(timeout=5)


async def closed_with(comm: WebsocketCommunicator) -> int:
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return int(output["code"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_host_pass_between_phones_moves_the_controls() -> None:
    from channels.db import database_sync_to_async

    from tests.support.factories import make_table

    table, seats = await database_sync_to_async(make_table)(4)
    old, new = seats[0], seats[1]
    await database_sync_to_async(actions.host_pass)(token=table.host_token, seat_id=old.pk)
    old_socket, first = await first_frame(old.token)
    assert 'hx-post="act/deal"' in first
    new_socket, first = await first_frame(new.token)
    assert 'hx-post="act/deal"' not in first and 'id="host-panel"' in first
    await database_sync_to_async(actions.host_pass)(token=old.token, seat_id=new.pk)
    # Both phones are told to reconnect; each then gets its own controls, or an empty place.
    assert await closed_with(old_socket) == 1012
    assert await closed_with(new_socket) == 1012
    again_old, snapshot_old = await first_frame(old.token)
    again_new, snapshot_new = await first_frame(new.token)
    assert 'hx-post="act/deal"' not in snapshot_old
    assert '<section id="host-panel" class="host-panel-none" hidden hx-swap-oob="true"' in (
        snapshot_old
    )
    assert 'hx-post="act/deal"' in snapshot_new and "host-panel-none" not in snapshot_new
    await again_old.disconnect()
    await again_new.disconnect()


# The rank only when it decides (docs/rules.md §5: only 闪电's ♠2-9 reads it) -----------------------


def test_a_judgement_the_suit_decides_is_told_without_a_rank_over_http() -> None:
    from tests.web.test_views import csrf_client, htmx_post

    table, seats = first_game(4)
    player = holder_of(table)
    at(table, player, "play")
    holder = ring(seats, player, 1)
    actions.trick_place(token=player.token, seat_id=holder.pk, name="乐不思蜀")
    at(table, holder, "judgement")
    client = csrf_client()
    # The helper asks no rank for 乐不思蜀: the ranks are there only for a check they decide.
    page = client.get(f"/p/{holder.token}/judge/{holder.pk}?trick=乐不思蜀").content.decode()
    assert 'value="indulgence" checked required' in page and 'class="rank-asked"' in page
    assert 'value="indulgence" checked data-rank' not in page and "suit-taps" in page
    assert 'name="rank" value="1" required' not in page
    post = {"seat": holder.pk, "check": "indulgence", "suit": "heart", "trick": "乐不思蜀"}
    assert htmx_post(client, f"/p/{holder.token}/act/judge", post).status_code == 204
    event = latest(table, "judgement")
    assert (event.public["outcome"], event.public["rank"]) == ("escaped", None)
    assert "♥" in text(event) and fresh(holder).judgement_zone == []
    # The card is out of the pile for the odds: one heart fewer.
    from companion.read.deck import deck_odds, revealed_cards
    from companion.rules.judgement import Check

    table.refresh_from_db()
    assert revealed_cards(table) == [("heart", None)]
    odds = dict(deck_odds(table, [Check.INDULGENCE]).odds["indulgence"])
    assert odds["escaped"] == Fraction(26, 107)
    # A free judgement and 八卦阵 need no rank either; 闪电 does.
    actions.judgement_flip(token=holder.token, check="eight_trigrams", suit="diamond", rank="")
    assert latest(table, "judgement").public["outcome"] == "dodge"
    with pytest.raises(ActionError) as err:
        actions.judgement_flip(token=holder.token, check="lightning", suit="spade", rank="")
    assert err.value.code == "bad_card"


def test_sima_yi_replaces_a_suit_only_judgement_with_a_suit() -> None:
    table, _seats, sima = with_sima_yi(4)
    holder = holder_of(table)
    actions.judgement_flip(token=holder.token, check="eight_trigrams", suit="spade", rank=None)
    from tests.web.test_views import csrf_client

    page = csrf_client().get(f"/p/{sima.token}/replace").content.decode()
    assert 'name="suit"' in page and 'name="rank"' not in page
    actions.judgement_replace(token=sima.token, suit="heart", rank="")
    actions.judgement_confirm(token=sima.token)
    event = latest(table, "judgement")
    assert (event.public["outcome"], event.public["suit"], event.public["rank"]) == (
        "dodge",
        "heart",
        None,
    )
