"""Every write of a group, one short transaction each (like companion.actions).

A seat of an attached evening is linked to one of the group's players: by its phone (a device
that played for the person before), else by its name (provisional until the phone answers "Are
you 张三 of 周五三国杀?"), else to a new player. The host may link a seat to another player, undo
a match (the seat gets a player of its own) and merge two entries for one person. The evening's
finished games are copied in by `record_evening`, after each of these and when a game ends.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models import Count, F

from companion.groups.models import (
    NAME_MAX_LENGTH,
    Evening,
    Group,
    GroupGame,
    GroupResult,
    Player,
    SeatLink,
)
from companion.models import Game, Seat, Session
from companion.rules import modes
from companion.rules.identities import Identity


class GroupError(ValueError):
    """A refused change: `code` is stable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _clean_name(name: str) -> str:
    name = " ".join(str(name).split())[:NAME_MAX_LENGTH]
    if not name:
        raise GroupError("no_name", "a group needs a name")
    return name


def create_group(name: str, session: Session | None = None) -> Group:
    """A new group, with this evening attached when given."""
    with transaction.atomic():
        group = Group.objects.create(name=_clean_name(name))
    if session is not None:
        attach(group, session)
    return group


def attach(group: Group, session: Session) -> Evening:
    """Make this session one of the group's evenings (again: a no-op), its seats matched to the
    group's players and its finished games copied in. Refused if another group holds it."""
    with transaction.atomic():
        evening, created = Evening.objects.select_for_update().get_or_create(
            session=session, defaults={"group": group}
        )
        if not created and evening.group_id != group.pk:
            raise GroupError("other_group", "this evening belongs to another group")
        _match_seats(evening)
        _record(evening)
    return evening


def _evening_seats(evening: Evening) -> dict[int, str]:
    """The evening's seats (id -> name): its players, every seat of its finished games, and
    while it is the table's session, the seats taken now."""
    session = evening.session
    seats = {int(k): v for k, v in session.players.items()}
    if session.table.session_id == session.pk:
        # The evening being played: whoever sits at the table now, as they join.
        seats.update(Seat.objects.filter(table_id=session.table_id).values_list("pk", "name"))
    for results in Game.objects.filter(session=session).values_list("results", flat=True):
        seats.update({int(e["seat"]): e["name"] for e in results or []})
    return seats


def _match_seats(evening: Evening) -> None:
    """Link each seat of the evening not linked yet: by phone, then by name, else a new player."""
    linked = set(evening.links.values_list("seat", flat=True))
    seats = {k: v for k, v in _evening_seats(evening).items() if k not in linked}
    if not seats:
        return
    devices = dict(Seat.objects.filter(pk__in=seats).values_list("pk", "device"))
    players = list(Player.objects.filter(group_id=evening.group_id, merged_into=None))
    taken = set(evening.links.values_list("player_id", flat=True))
    for seat, name in sorted(seats.items()):
        device = devices.get(seat, "")
        by_device = [p for p in players if device and device in p.devices and p.pk not in taken]
        by_name = [p for p in players if p.name.casefold() == name.casefold() and p.pk not in taken]
        if by_device:
            player, how, confirmed = by_device[0], SeatLink.How.DEVICE, True
        elif by_name:
            player, how, confirmed = by_name[0], SeatLink.How.NAME, False
        else:
            player = Player.objects.create(
                group_id=evening.group_id, name=name[:NAME_MAX_LENGTH], devices=_with(device, [])
            )
            players.append(player)
            how, confirmed = SeatLink.How.NEW, True
        taken.add(player.pk)
        SeatLink.objects.create(
            evening=evening, seat=seat, player=player, how=how, confirmed=confirmed
        )


def _with(device: str, devices: list[str]) -> list[str]:
    return [*devices, device] if device and device not in devices else list(devices)


def _link(evening: Evening, seat: int) -> SeatLink:
    link = evening.links.select_related("player").filter(seat=seat).first()
    if link is None:
        raise GroupError("no_seat", "this seat is not one of the evening's")
    return link


def confirm(evening: Evening, seat: int, device: str = "", *, yes: bool) -> SeatLink:
    """The phone's answer to "Are you 张三 of 周五三国杀?": yes keeps the match (and remembers the
    phone), no gives the seat a player of its own."""
    with transaction.atomic():
        link = _link(evening, seat)
        if yes:
            link.confirmed = True
            link.save(update_fields=["confirmed"])
            link.player.devices = _with(device, link.player.devices)
            link.player.save(update_fields=["devices"])
        else:
            _own_player(link, SeatLink.How.NEW)
        _record(evening)
    return link


def unmatch(evening: Evening, seat: int) -> SeatLink:
    """The host undoes a mistaken match: the seat gets a new player of its own (whom the host
    may then merge, or `relink` the seat to the right one)."""
    with transaction.atomic():
        link = _link(evening, seat)
        # The phone stays its owner's: a match by phone was a borrowed phone.
        _own_player(link, SeatLink.How.HOST)
        _record(evening)
    return link


def _own_player(link: SeatLink, how: str, device: str = "") -> None:
    name = _evening_seats(link.evening).get(link.seat, link.player.name)
    link.player = Player.objects.create(
        group_id=link.evening.group_id, name=name[:NAME_MAX_LENGTH], devices=_with(device, [])
    )
    link.how, link.confirmed = how, True
    link.save(update_fields=["player", "how", "confirmed"])


def relink(evening: Evening, seat: int, player: Player) -> SeatLink:
    """The host says who played this seat: one of the group's players."""
    if player.group_id != evening.group_id or player.merged_into_id is not None:
        raise GroupError("other_player", "not a player of this group")
    with transaction.atomic():
        link = _link(evening, seat)
        if evening.links.filter(player=player).exclude(pk=link.pk).exists():
            raise GroupError("taken", "this player already has a seat this evening")
        link.player, link.how, link.confirmed = player, SeatLink.How.HOST, True
        link.save(update_fields=["player", "how", "confirmed"])
        _record(evening)
    return link


def merge(group: Group, keep: Player, gone: Player) -> Player:
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
        SeatLink.objects.filter(player=gone).update(player=keep)
        GroupResult.objects.filter(player=gone).update(player=keep)
        keep.devices = list(dict.fromkeys([*keep.devices, *gone.devices]))
        keep.save(update_fields=["devices"])
        gone.merged_into, gone.devices = keep, []
        gone.save(update_fields=["merged_into", "devices"])
        changed(group.pk)
    return keep


def record_evening(evening: Evening) -> None:
    """Copy the evening's finished, scored games in again (after a correction or a new match)."""
    with transaction.atomic():
        _match_seats(evening)
        _record(evening)


def changed(group_id: int) -> None:
    """The group's games or players changed: what was computed for it is stale."""
    Group.objects.filter(pk=group_id).update(version=F("version") + 1)


def _record(evening: Evening) -> None:
    changed(evening.group_id)
    games = [
        g
        for g in Game.objects.filter(session_id=evening.session_id).select_related("table")
        if g.ended_at is not None and g.results and g.scores and g.winner
    ]
    kept = {gg.game_id: gg for gg in GroupGame.objects.filter(evening=evening)}
    players = dict(evening.links.values_list("seat", "player_id"))
    GroupResult.objects.filter(game__evening=evening).delete()
    rows: list[GroupResult] = []
    for game in games:
        row = kept.pop(game.pk, None) or GroupGame(group_id=evening.group_id, evening=evening)
        row.game, row.mode, row.winner = game, game.table.mode, game.winner
        row.started_at = game.started_at
        row.ended_at = game.ended_at or game.started_at
        row.save()
        rows.extend(_results(row, game, players))
    GroupResult.objects.bulk_create(rows)
    GroupGame.objects.filter(pk__in=[gg.pk for gg in kept.values()]).delete()


def _results(row: GroupGame, game: Game, players: Mapping[int, int]) -> list[GroupResult]:
    mode = modes.get(game.table.mode)
    entries = sorted(game.results, key=lambda e: (e.get("position", 0), e["seat"]))
    found = []
    for index, entry in enumerate(entries):
        score = game.scores.get(str(entry["seat"]))
        player = players.get(int(entry["seat"]))
        if score is None or player is None:
            continue
        identity = Identity(entry["identity"])
        found.append(
            GroupResult(
                game=row,
                player_id=player,
                name=str(entry["name"])[:NAME_MAX_LENGTH],
                position=index,
                identity=identity.value,
                role=mode.role(identity) or "",
                team=mode.rating_team(identity, index),
                leader=mode.is_leader(identity),
                hero=entry.get("hero", "") or "",
                alive=bool(entry["alive"]),
                won=bool(score.get("won")),
                kills=int(score.get("kills", 0)),
                points=int(score.get("total", 0)),
            )
        )
    return found
