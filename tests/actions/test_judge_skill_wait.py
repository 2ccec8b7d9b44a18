"""While 鬼才 (a skill that replaces a judgement card) may still act, nobody but
its owner lets the judgement take effect: not the judged player, not the host, not a bystander,
over the services or over HTTP. Once it can no longer act (its owner dead), the judged player
and the host may again."""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError
from companion.models import Event, Seat, Table
from tests.actions.test_judge import at, holder_of, ring, with_sima_yi
from tests.support.game import fresh

pytestmark = pytest.mark.django_db


def flipped() -> tuple[Table, list[Seat], Seat, Seat]:
    """The turn holder judges 乐不思蜀 in the judgement phase; 司马懿 sits elsewhere."""
    table, seats, sima = with_sima_yi(5)
    holder = holder_of(table)
    at(table, holder, "play")
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    at(table, holder, "judgement")
    actions.judgement_flip(
        token=holder.token, check="indulgence", suit="spade", rank=3, trick="乐不思蜀"
    )
    table.refresh_from_db()
    assert table.pending_judgement["guicai"] == sima.pk
    return table, seats, holder, sima


def test_only_guicai_owner_confirms_while_guicai_may_act() -> None:
    table, seats, holder, sima = flipped()
    bystander = next(s for s in seats if s.pk not in (holder.pk, sima.pk))
    for token in (holder.token, table.host_token, bystander.token):
        with pytest.raises(ActionError) as refused:
            actions.judgement_confirm(token=token)
        assert refused.value.code == "replacer_deciding" and refused.value.status == 409
        assert sima.name in str(refused.value.message)
    table.refresh_from_db()
    assert table.pending_judgement and fresh(holder).judgement_zone == ["乐不思蜀"]
    assert not Event.objects.filter(table=table, kind="judgement").exists()
    # After a replacement 鬼才 may act again: still only 司马懿 passes.
    actions.judgement_replace(token=sima.token, suit="heart", rank=5)
    with pytest.raises(ActionError):
        actions.judgement_confirm(token=holder.token)
    actions.judgement_confirm(token=sima.token)
    table.refresh_from_db()
    assert table.pending_judgement == {} and fresh(holder).judgement_zone == []
    result = Event.objects.filter(table=table, kind="judgement").latest("version")
    assert result.actor == f"seat:{sima.pk}" and result.public["outcome"] == "escaped"


def test_the_judged_player_cannot_confirm_over_http() -> None:
    from tests.web.test_views import csrf_client, htmx_post

    table, _seats, holder, sima = flipped()
    response = htmx_post(csrf_client(), f"/p/{holder.token}/act/confirm", {})
    assert response.status_code == 409
    table.refresh_from_db()
    assert table.pending_judgement
    response = htmx_post(csrf_client(), f"/p/{sima.token}/act/confirm", {})
    assert response.status_code == 204
    table.refresh_from_db()
    assert table.pending_judgement == {}


def test_once_guicai_cannot_act_the_judged_player_confirms() -> None:
    table, seats, holder, sima = flipped()
    # 司马懿 is no longer there to replace the card (dead): the judgement is no longer held.
    Seat.objects.filter(pk=sima.pk).update(alive=False, hp=0)
    bystander = ring(seats, holder, 1)
    if bystander.pk == sima.pk:
        bystander = ring(seats, holder, 3)
    with pytest.raises(ActionError) as refused:
        actions.judgement_confirm(token=bystander.token)
    assert refused.value.status == 403
    actions.judgement_confirm(token=holder.token)
    table.refresh_from_db()
    assert table.pending_judgement == {}
