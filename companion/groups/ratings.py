"""Each player's rating after each of the group's games, stored on its results as the games are
copied in (companion.groups.rules.rating), so the group page reads them instead of replaying
the whole history. A write replays from the first game it changed: a game ending after all the
others rates its own players only; a correction or an import of an earlier game replays every
game from it on. The order is the page's: by end, then by id."""

from __future__ import annotations

from datetime import datetime

from django.db.models import OuterRef, Q, Subquery

from companion.groups.models import GroupGame, GroupResult, Player
from companion.groups.rules.plays import Play, Result
from companion.groups.rules.rating import Pair, replay

# Where a game stands in the group's order.
Key = tuple[datetime, int]


def key_of(game: GroupGame) -> Key:
    return (game.ended_at, game.pk)


def _from(key: Key, game: str = "") -> Q:
    """The games at `key` and after it, as a filter of GroupGame (`game`: the path to it)."""
    ended, pk = key
    return Q(**{f"{game}ended_at__gt": ended}) | Q(
        **{f"{game}ended_at": ended, f"{game}pk__gte": pk}
    )


def _before(players: set[int], group_id: int, key: Key | None) -> dict[int, Pair]:
    """Each player's last stored rating before the game at `key` (one query)."""
    if key is None or not players:
        return {}
    last = (
        GroupResult.objects.filter(
            player_id=OuterRef("pk"),
            game__group_id=group_id,
            mu__isnull=False,
        )
        .exclude(_from(key, "game__"))
        .order_by("-game__ended_at", "-game_id")
    )
    rows = (
        Player.objects.filter(pk__in=players)
        .annotate(
            last_mu=Subquery(last.values("mu")[:1]), last_sigma=Subquery(last.values("sigma")[:1])
        )
        .values_list("pk", "last_mu", "last_sigma")
    )
    return {p: (mu, sigma) for p, mu, sigma in rows if mu is not None and sigma is not None}


def rerate(group_id: int, since: Key | None) -> None:
    """Store the ratings of every game from `since` on (None: the whole history), each player
    starting from their rating before it. Runs inside the write's transaction."""
    games = GroupGame.objects.filter(group_id=group_id)
    results = GroupResult.objects.filter(game__group_id=group_id)
    if since is not None:
        games, results = games.filter(_from(since)), results.filter(_from(since, "game__"))
    order = games.order_by("ended_at", "pk").values_list("pk", flat=True)
    rows: dict[int, list[GroupResult]] = {pk: [] for pk in order}
    if not rows:
        return
    for row in results.order_by("game_id", "position"):
        rows[row.game_id].append(row)
    plays = [
        Play(
            pk,
            "",
            datetime.min,
            datetime.min,
            "",
            tuple(Result(r.player_id, "", "", r.team, False, "", False, r.won, 0, 0) for r in rs),
        )
        for pk, rs in rows.items()
    ]
    start = _before({r.player_id for rs in rows.values() for r in rs}, group_id, since)
    changed = []
    for play, after in zip(plays, replay(plays, start), strict=True):
        for row in rows[play.key]:
            mu, sigma = after.get(row.player_id, (None, None))
            if (row.mu, row.sigma) != (mu, sigma):
                row.mu, row.sigma = mu, sigma
                changed.append(row)
    GroupResult.objects.bulk_update(changed, ["mu", "sigma"], batch_size=500)


def earliest(*keys: Key | None) -> Key | None:
    """The first of these places in the order (None where none is given)."""
    found = [k for k in keys if k is not None]
    return min(found) if found else None
