"""A scoring session through the services, for the session tests of the actions and the read
layer: a seat by name, a deal with fixed identities, a started game, a kill, three games played
as planned with their scores, standings and history lines worked out by hand (docs/rules.md §8), and
everything a refused correction must leave as it was.
"""

from __future__ import annotations

import json

from companion import actions
from companion.models import Event, Game, Seat, Table


def seat(table: Table, name: str) -> Seat:
    return Seat.objects.get(table=table, name=name)


def deal(table: Table, identities: dict[str, str] | None = None) -> None:
    """Deal through the service; `identities` (name -> identity) then fixes the random deal so
    the scores can be worked out by hand."""
    actions.identities_deal(token=table.host_token)
    for name, identity in (identities or {}).items():
        Seat.objects.filter(table=table, name=name).update(identity=identity)
    table.refresh_from_db()


def start(table: Table) -> None:
    """Start the dealt game; with heroes, everyone takes a candidate."""
    actions.game_start(token=table.host_token)
    table.refresh_from_db()
    if table.status == Table.Status.HEROES:
        lord = Seat.objects.get(table=table, identity="lord")
        actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
        for other in Seat.objects.filter(table=table).exclude(identity="lord"):
            actions.hero_pick(token=other.token, hero_id=other.hero_candidates[-1])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def kill(table: Table, victim: str, killer: str | None) -> None:
    """The killer's damage brings the victim to 0 HP and nobody saves them."""
    dead = seat(table, victim)
    source = seat(table, killer).pk if killer else ""
    actions.seat_change_hp(token=table.host_token, seat_id=dead.pk, delta=-dead.hp, source=source)
    actions.seat_die(token=dead.token, seat_id=dead.pk)
    table.refresh_from_db()


def play_three_games(table: Table) -> None:
    """Three games at a 4-player table (P1..P4), each ending as planned below."""
    # Game 1: P2 (loyalist) kills P3 (rebel), P1 (lord) kills P4 (renegade) while
    # P2 is still alive: no final duel. The lord's side wins with L = 1.
    deal(table, {"P1": "lord", "P2": "loyalist", "P3": "rebel", "P4": "renegade"})
    start(table)
    kill(table, "P3", "P2")
    kill(table, "P4", "P1")
    assert table.status == "finished" and table.winner == "lord"
    # Game 2: P1 (rebel) kills P4 (loyalist), P3 (renegade) kills P1, then the
    # lord P2: the renegade alone survives and wins (N = 4).
    deal(table, {"P1": "rebel", "P2": "lord", "P3": "renegade", "P4": "loyalist"})
    start(table)
    kill(table, "P4", "P1")
    kill(table, "P1", "P3")
    kill(table, "P2", "P3")
    assert table.status == "finished" and table.winner == "renegade"
    # Game 3: P2 (rebel) kills P3 (loyalist), P4 (lord) kills P2, then P1 (renegade) in the
    # final duel. The lord's side wins with L = 0.
    deal(table, {"P1": "renegade", "P2": "rebel", "P3": "loyalist", "P4": "lord"})
    start(table)
    kill(table, "P3", "P2")
    kill(table, "P2", "P4")
    kill(table, "P1", "P4")
    assert table.status == "finished" and table.winner == "lord"


# Worked out by hand from docs/rules.md §8.
#   game 1 (lord wins, L=1): P1 lord 4+2·1+1 (renegade) = 7; P2 loyalist 5+1+1 (rebel) = 7;
#                            P3 rebel 0; P4 renegade (died before the duel) 0
#   game 2 (renegade wins, N=4): P1 rebel 0+1 (loyalist) = 1; P2 lord 1; P3 renegade 4+2·4 = 12;
#                            P4 loyalist 0
#   game 3 (lord wins, L=0): P1 renegade, final duel: N = 4; P2 rebel 0+1 (loyalist) = 1;
#                            P3 loyalist 5+0 = 5; P4 lord 4+0+1+1 = 6
SCORES = {
    1: {"P1": 7, "P2": 7, "P3": 0, "P4": 0},
    2: {"P1": 1, "P2": 1, "P3": 12, "P4": 0},
    3: {"P1": 4, "P2": 1, "P3": 5, "P4": 6},
}
CUMULATIVE = {"P1": [7, 8, 12], "P2": [7, 8, 9], "P3": [0, 12, 17], "P4": [0, 0, 6]}
# (name, rank, total, games, wins, kills, wins by identity)
STANDINGS = [
    ("P3", 1, 17, 3, 2, 2, {"lord": 0, "loyalist": 1, "rebel": 0, "renegade": 1}),
    ("P1", 2, 12, 3, 1, 2, {"lord": 1, "loyalist": 0, "rebel": 0, "renegade": 0}),
    ("P2", 3, 9, 3, 1, 2, {"lord": 0, "loyalist": 1, "rebel": 0, "renegade": 0}),
    ("P4", 4, 6, 3, 1, 2, {"lord": 1, "loyalist": 0, "rebel": 0, "renegade": 0}),
]
LINES = {
    (1, "P1"): {"base": 4, "loyalists_alive": 2, "kill_renegade": 1},
    (1, "P2"): {"base": 5, "loyalists_alive": 1, "kill_rebel": 1},
    (1, "P3"): {"base": 0},
    (1, "P4"): {"base": 0},
    (2, "P1"): {"base": 0, "kill_loyalist": 1},
    (2, "P2"): {"base": 1},
    (2, "P3"): {"base": 4, "players": 8},
    (2, "P4"): {"base": 0},
    (3, "P1"): {"base": 0, "final_duel": 4},
    (3, "P2"): {"base": 0, "kill_loyalist": 1},
    (3, "P3"): {"base": 5, "loyalists_alive": 0},
    (3, "P4"): {"base": 4, "loyalists_alive": 0, "kill_rebel": 1, "kill_renegade": 1},
}


def frozen(table: Table) -> tuple:
    """Everything a refused correction must leave as it was."""
    table.refresh_from_db()
    games = tuple(
        (g.number, json.dumps(g.results, sort_keys=True), json.dumps(g.scores), g.winner)
        for g in Game.objects.filter(table=table).order_by("number")
    )
    seats = tuple(Seat.objects.filter(table=table).order_by("pk").values_list("alive", "killer_id"))
    return table.version, table.winner, Event.objects.filter(table=table).count(), games, seats
