"""A merge made by mistake is undone exactly: the entry that went is back with its seats, games,
phones and ratings, and the group's page is as it was before the merge."""

from __future__ import annotations

import pytest

from companion.groups import merges, services
from companion.groups.models import Group, GroupAction, GroupResult, Player, SeatLink
from tests.groups.support import build_group
from tests.groups.test_page import _content, _page

pytestmark = pytest.mark.django_db


def _state(group: Group) -> tuple:
    """Everything a merge touches, without the ids a copy-in renews."""
    players = tuple(
        Player.objects.filter(group=group).values_list("pk", "name", "devices", "merged_into")
    )
    links = tuple(
        SeatLink.objects.filter(evening__group=group)
        .order_by("pk")
        .values_list("pk", "seat", "player", "how", "confirmed")
    )
    results = tuple(
        GroupResult.objects.filter(game__group=group)
        .order_by("game_id", "position")
        .values_list("game_id", "position", "player", "points", "mu", "sigma")
    )
    return players, links, results


def test_a_mistaken_merge_is_undone_exactly(client) -> None:
    group, _evenings = build_group()
    before, page = _state(group), _content(_page(client, group), group)
    zhaoliu = group.players.exclude(results=None).get(name="赵六")
    zhouji = group.players.exclude(results=None).get(name="周九")
    merges.merge(group, zhaoliu, zhouji)  # the host meant someone else
    assert _state(group) != before
    action = GroupAction.objects.get(group=group, kind="merge", data__gone=zhouji.pk)
    merges.undo_merge(group, action)
    assert _state(group) == before
    group.refresh_from_db()
    assert _content(_page(client, group), group) == page
    with pytest.raises(services.GroupError, match="already undone"):
        merges.undo_merge(group, action)


def test_the_host_undoes_a_merge_from_the_panel(client) -> None:
    group, evenings = build_group()
    table = evenings[-1].session.table
    before = _state(group)
    keep = group.players.exclude(results=None).get(name="赵六")
    gone = group.players.exclude(results=None).get(name="周九")
    fix = f"/h/{table.host_token}/group/fix"
    client.post(fix, {"what": "merge", "keep": keep.pk, "gone": gone.pk})
    panel = client.get(f"/h/{table.host_token}/group/").content.decode()
    action = GroupAction.objects.get(group=group, kind="merge", data__gone=gone.pk)
    assert f'name="action" value="{action.pk}"' in panel
    # A phone may not undo it.
    seat = evenings[-1].links.first()
    assert seat is not None
    phone = table.seats.get(pk=seat.seat)
    refused = client.post(f"/p/{phone.token}/group/fix", {"what": "unmerge", "action": action.pk})
    assert refused.status_code == 403
    client.post(fix, {"what": "unmerge", "action": action.pk})
    assert _state(group) == before
