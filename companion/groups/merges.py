"""Two entries for one person merged by the host, and the merge undone when it was a mistake.

A merge is a line of the group's log (GroupAction) that keeps what it moved: the seats, the
results and the phones of the entry that went. Its undo moves exactly those back (the seats'
evenings are copied in again from them), so the group is as it was before the merge, ratings
included (replayed from the first game concerned)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count

from companion.groups.log import Who, note
from companion.groups.models import (
    Evening,
    Group,
    GroupAction,
    GroupGame,
    GroupResult,
    Player,
    SeatLink,
)
from companion.groups.ratings import key_of, rerate
from companion.groups.services import GroupError, changed, copy_games


def _first_game(results: list[int]) -> GroupGame | None:
    return GroupGame.objects.filter(results__pk__in=results).order_by("ended_at", "pk").first()


def merge(group: Group, keep: Player, gone: Player, by: Who | None = None) -> Player:
    """Two entries for one person become `keep`: games, seats and phones move to it."""
    if keep.pk == gone.pk or {keep.group_id, gone.group_id} != {group.pk}:
        raise GroupError("bad_merge", "merge two different players of this group")
    with transaction.atomic():
        both = {keep.pk, gone.pk}
        if (
            SeatLink.objects.filter(player__in=both)
            .values("evening")
            .annotate(n=Count("pk"))
            .filter(n__gt=1)
            .exists()
        ):
            raise GroupError("same_evening", "they played at the same table on one evening")
        links = list(SeatLink.objects.filter(player=gone).values_list("pk", flat=True))
        results = list(GroupResult.objects.filter(player=gone).values_list("pk", flat=True))
        first = _first_game(results)
        note(
            group.pk,
            GroupAction.Kind.MERGE,
            by,
            keep=keep.pk,
            gone=gone.pk,
            keep_name=keep.name,
            gone_name=gone.name,
            links=links,
            results=results,
            keep_devices=list(keep.devices),
            gone_devices=list(gone.devices),
        )
        SeatLink.objects.filter(pk__in=links).update(player=keep)
        GroupResult.objects.filter(pk__in=results).update(player=keep)
        keep.devices = list(dict.fromkeys([*keep.devices, *gone.devices]))
        keep.save(update_fields=["devices"])
        gone.merged_into, gone.devices = keep, []
        gone.save(update_fields=["merged_into", "devices"])
        changed(group.pk)
        if first is not None:
            rerate(group.pk, key_of(first))
    return keep


def undo_merge(group: Group, action: GroupAction, by: Who | None = None) -> Player:
    """The merge undone: the entry that went is back with its seats, games and phones."""
    if action.group_id != group.pk or action.kind != GroupAction.Kind.MERGE:
        raise GroupError("not_merge", "not a merge of this group")
    with transaction.atomic():
        action = GroupAction.objects.select_for_update().get(pk=action.pk)
        if action.undone_by_id is not None:
            raise GroupError("undone", "this merge is already undone")
        data = action.data
        keep = Player.objects.select_for_update().get(pk=data["keep"])
        gone = Player.objects.select_for_update().get(pk=data["gone"])
        if keep.merged_into_id is not None:
            raise GroupError("merged_since", "undo the later merge of this player first")
        before = _first_game(data["results"])
        SeatLink.objects.filter(pk__in=data["links"], player=keep).update(player=gone)
        # Results of imported games stay as they were moved; an evening's are copied in again
        # from its seats below.
        GroupResult.objects.filter(pk__in=data["results"], player=keep).update(player=gone)
        gone_devices = set(data["gone_devices"]) - set(data["keep_devices"])
        keep.devices = [d for d in keep.devices if d not in gone_devices]
        keep.save(update_fields=["devices"])
        gone.merged_into, gone.devices = None, list(data["gone_devices"])
        gone.save(update_fields=["merged_into", "devices"])
        for evening in Evening.objects.filter(links__pk__in=data["links"]).distinct():
            copy_games(evening)
        action.undone_by = note(
            group.pk,
            GroupAction.Kind.UNMERGE,
            by,
            keep_name=keep.name,
            gone_name=gone.name,
        )
        action.save(update_fields=["undone_by"])
        changed(group.pk)
        if before is not None:
            # The imported games' results moved back (an evening's were rated as copied in).
            rerate(group.pk, key_of(before))
    return gone
