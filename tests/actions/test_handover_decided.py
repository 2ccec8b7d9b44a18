"""A seat move whose countdown is over, or whose game has ended, is decided.

The table is no longer asked: no screen shows the banner any more (it would otherwise stay until
the new phone opens the link, and at the end of a game cover the results), an objection comes
too late, and the new phone gets the seat when it opens the link.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from companion.models import Handover, Seat, Table
from tests.actions.test_secrets_handover import claim, fresh, request_move
from tests.support.factories import make_table
from tests.support.sessions import deal, kill, start
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db

ROLES = {"P1": "lord", "P2": "loyalist", "P3": "rebel", "P4": "renegade"}


def screens(table: Table) -> list[str]:
    """The display and every phone, as a reload shows them."""
    urls = [f"/t/{table.code}/"] + [f"/p/{s.token}/" for s in table.seats.all()]
    return [Client().get(url).content.decode() for url in urls]


def waiting_move() -> tuple[Table, Seat, str]:
    table, _seats = make_table(4)
    deal(table, ROLES)
    start(table)
    rebel = table.seats.get(name="P3")
    return table, rebel, request_move(csrf_client(), table, rebel)


def test_a_move_whose_countdown_is_over_is_no_longer_announced_nor_stopped() -> None:
    table, rebel, claim_token = waiting_move()
    assert all(f'data-handover-seat="{rebel.pk}"' in page for page in screens(table))
    Handover.objects.filter(claim_token=claim_token).update(
        not_before=timezone.now() - timedelta(seconds=1)
    )
    assert not any("banner-handover" in page for page in screens(table))
    # Too late to object, whoever taps.
    objector = table.seats.get(name="P2")
    refused = htmx_post(csrf_client(), f"/p/{objector.token}/act/handoverno", {"seat": rebel.pk})
    assert refused.status_code == 409
    assert Handover.objects.get(claim_token=claim_token).state == Handover.State.PENDING
    # The new phone gets the seat.
    _status, given, _body = claim(csrf_client(), claim_token)
    assert given and given == fresh(rebel).token != rebel.token


def test_an_objection_in_time_still_stops_the_move() -> None:
    table, rebel, claim_token = waiting_move()
    objector = table.seats.get(name="P2")
    stopped = htmx_post(csrf_client(), f"/p/{objector.token}/act/handoverno", {"seat": rebel.pk})
    assert stopped.status_code == 204
    assert Handover.objects.get(claim_token=claim_token).state == Handover.State.CANCELLED


def test_the_end_of_the_game_decides_a_waiting_move() -> None:
    table, rebel, claim_token = waiting_move()
    kill(table, "P1", "P3")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    pages = screens(table)
    assert all('class="result card"' in page for page in pages)
    assert not any("banner-handover" in page for page in pages)
    # Nothing is secret any more: the new phone gets the seat at once.
    _status, given, _body = claim(csrf_client(), claim_token)
    assert given and given == fresh(rebel).token
