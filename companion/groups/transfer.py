"""A group's games out and in: CSV, the app's own JSON (which another laptop imports: the same
people stay the same, by their `uid`), and Board Game Stats' `.bgsplay` JSON.

Only finished games are ever in a group, and a player's phones (devices) never leave it."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from companion.groups.models import NAME_MAX_LENGTH, Group, GroupGame, GroupResult, Player
from companion.groups.services import GroupError, changed
from companion.rules import modes

FORMAT = "sgs-companion-group/1"
# A game's result as the export keeps it: the player's name then, and the rest.
RESULT_FIELDS = (
    *("name", "position", "identity", "role", "team", "leader"),
    *("hero", "alive", "won", "kills", "points"),
)
CSV_COLUMNS = ("game", "mode", "started_at", "ended_at", "winner", "player_uid", *RESULT_FIELDS)
# The longest text each result field holds (companion/groups/models.py).
TEXT_SIZES = {"name": NAME_MAX_LENGTH, "identity": 16, "role": 24, "team": 24, "hero": 16}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# The game Board Game Stats logs (BoardGameGeek's 三国杀, Legends of the Three Kingdoms).
BGS_GAME_NAME = "三国杀 Sanguosha"


def _iso(moment: datetime) -> str:
    return timezone.localtime(moment).isoformat(timespec="seconds")


def _cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


def _rows(group: Group) -> tuple[list[GroupGame], dict[int, list[GroupResult]], dict[int, Player]]:
    games = list(GroupGame.objects.filter(group=group).order_by("ended_at", "pk"))
    results: dict[int, list[GroupResult]] = {g.pk: [] for g in games}
    for r in GroupResult.objects.filter(game__group=group).order_by("game_id", "position"):
        results[r.game_id].append(r)
    players = {p.pk: p for p in Player.objects.filter(group=group)}
    return games, results, players


def export_json(group: Group) -> dict[str, Any]:
    """The group as plain data: its players (names and uids) and every finished game."""
    games, results, players = _rows(group)
    played = {r.player_id for rs in results.values() for r in rs}
    return {
        "format": FORMAT,
        "exported_at": _iso(timezone.now()),
        "group": {"uid": group.uid, "name": group.name},
        "players": [{"uid": p.uid, "name": p.name} for pk, p in players.items() if pk in played],
        "games": [
            {
                "uid": g.uid,
                "mode": g.mode,
                "started_at": _iso(g.started_at),
                "ended_at": _iso(g.ended_at),
                "winner": g.winner,
                "results": [
                    {
                        "player": players[r.player_id].uid,
                        **{f: getattr(r, f) for f in RESULT_FIELDS},
                    }
                    for r in results[g.pk]
                ],
            }
            for g in games
        ],
    }


def export_csv(group: Group) -> str:
    """One row per player per game (UTF-8 with a BOM, for spreadsheets)."""
    games, results, players = _rows(group)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for number, g in enumerate(games, start=1):
        for r in results[g.pk]:
            game = (number, g.mode, _iso(g.started_at), _iso(g.ended_at), g.winner)
            values = [getattr(r, f) for f in RESULT_FIELDS]
            row = (
                *game,
                players[r.player_id].uid,
                *(int(v) if v is True or v is False else v for v in values),
            )
            writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def _bgs_date(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")


def export_bgsplay(group: Group) -> dict[str, Any]:
    """Board Game Stats' play file: its players, the game, and each play with every player's
    score (the points), winner flag and role (the identity, or the mode's place)."""
    games, results, players = _rows(group)
    played = sorted({r.player_id for rs in results.values() for r in rs})
    ref = {pk: i for i, pk in enumerate(played, start=1)}
    now = _bgs_date(timezone.now())
    return {
        "players": [
            {
                "id": ref[pk],
                "uuid": players[pk].uid,
                "name": players[pk].name,
                "isAnonymous": False,
                "modificationDate": now,
            }
            for pk in played
        ],
        "locations": [],
        "games": [
            {
                "id": 1,
                "uuid": group.uid,
                "name": BGS_GAME_NAME,
                "modificationDate": now,
                "cooperative": False,
                "highestWins": True,
                "noPoints": False,
                "usesTeams": True,
            }
        ],
        "plays": [
            {
                "uuid": g.uid,
                "gameRefId": 1,
                "playDate": _bgs_date(g.started_at),
                "entryDate": _bgs_date(g.ended_at),
                "modificationDate": now,
                "durationMin": max(1, round((g.ended_at - g.started_at).total_seconds() / 60)),
                "ignored": False,
                "manualWinner": False,
                "rounds": 0,
                "board": g.mode,
                "playerScores": [
                    {
                        "playerRefId": ref[r.player_id],
                        "score": str(r.points),
                        "winner": r.won,
                        "newPlayer": False,
                        "startPlayer": r.position == 0,
                        "seatOrder": r.position,
                        "role": r.role or r.identity,
                        "team": r.team,
                    }
                    for r in results[g.pk]
                ],
            }
            for g in games
        ],
    }


# Import ---------------------------------------------------------------------------------------


def _need(ok: bool, why: str) -> None:
    if not ok:
        raise GroupError("bad_file", why)


def _moment(value: Any, where: str) -> datetime:
    moment = parse_datetime(value) if isinstance(value, str) else None
    _need(moment is not None and moment.tzinfo is not None, f"{where}: not a date and time")
    assert moment is not None
    return moment


def _checked(data: Any) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The file's players (uid -> name) and games, every field checked; GroupError otherwise."""
    _need(isinstance(data, Mapping), "not a JSON object")
    _need(data.get("format") == FORMAT, f"not a group export ({FORMAT})")
    group = data.get("group")
    _need(isinstance(group, Mapping) and isinstance(group.get("uid"), str), "no group")
    _need(isinstance(group.get("name"), str) and bool(group["name"].strip()), "no group name")
    players: dict[str, str] = {}
    for p in data.get("players") or []:
        _need(isinstance(p, Mapping), "a player is not an object")
        uid, name = p.get("uid"), p.get("name")
        _need(isinstance(uid, str) and 0 < len(uid) <= 32, "a player without a uid")
        _need(isinstance(name, str) and 0 < len(name) <= NAME_MAX_LENGTH, f"player {uid}: name")
        players[uid] = name
    games = data.get("games")
    _need(isinstance(games, list), "no games")
    for n, g in enumerate(games, start=1):
        _need(isinstance(g, Mapping), f"game {n}: not an object")
        _need(isinstance(g.get("uid"), str) and 0 < len(g["uid"]) <= 32, f"game {n}: no uid")
        _need(g.get("mode") in modes.keys(), f"game {n}: unknown way to play {g.get('mode')!r}")
        start, end = (
            _moment(g.get("started_at"), f"game {n}"),
            _moment(g.get("ended_at"), f"game {n}"),
        )
        _need(start <= end, f"game {n}: ends before it starts")
        _need(isinstance(g.get("winner"), str), f"game {n}: no winner")
        results = g.get("results")
        _need(isinstance(results, list) and len(results) >= 2, f"game {n}: no players")
        for r in results:
            _need(isinstance(r, Mapping) and r.get("player") in players, f"game {n}: a player")
            for f in RESULT_FIELDS:
                _need(f in r, f"game {n}: a result without {f}")
            _need(
                all(isinstance(r[f], str) for f in ("name", "identity", "role", "team", "hero")),
                f"game {n}: a text field",
            )
            _need(
                all(isinstance(r[f], bool) for f in ("leader", "alive", "won")), f"game {n}: a flag"
            )
            _need(
                all(type(r[f]) is int for f in ("position", "kills", "points")),
                f"game {n}: a number",
            )
            _need(r["position"] >= 0 and r["kills"] >= 0, f"game {n}: a negative number")
            _need(
                all(len(r[f]) <= size for f, size in TEXT_SIZES.items()), f"game {n}: a long text"
            )
    return players, list(games)


def import_json(data: Any) -> Group:
    """The app's own group export into this database: the group, its players and games found by
    their uids (a game already here is kept as it is), or refused whole with the reason."""
    players, games = _checked(data)
    with transaction.atomic():
        group, _created = Group.objects.get_or_create(
            uid=data["group"]["uid"],
            defaults={"name": data["group"]["name"].strip()[:NAME_MAX_LENGTH]},
        )
        known = {p.uid: p for p in Player.objects.filter(group=group)}
        for uid, name in players.items():
            if uid not in known:
                known[uid] = Player.objects.create(group=group, uid=uid, name=name)
        # A player merged here since stays merged: their games go to the person they joined.
        pk_of = {uid: p.merged_into_id or p.pk for uid, p in known.items()}
        have = set(GroupGame.objects.filter(group=group).values_list("uid", flat=True))
        rows: list[GroupResult] = []
        for g in games:
            if g["uid"] in have:
                continue
            game = GroupGame.objects.create(
                group=group,
                uid=g["uid"],
                mode=g["mode"],
                started_at=_moment(g["started_at"], ""),
                ended_at=_moment(g["ended_at"], ""),
                winner=g["winner"],
            )
            rows.extend(
                GroupResult(
                    game=game,
                    player_id=pk_of[r["player"]],
                    **{f: r[f] for f in RESULT_FIELDS},
                )
                for r in g["results"]
            )
        GroupResult.objects.bulk_create(rows)
        changed(group.pk)
    return group
