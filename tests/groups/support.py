"""A group of 8 players over 12 evenings of mixed modes (the identity game, 3 vs 3, 1 vs 1),
built through the group's service functions on top of tables, seats and sessions made by the
core's actions. Each evening's one game is stored as the core stores a finished game
(`Game.results`, scored by its mode through the registry), so the group reads exactly what a
played game leaves; tests/groups/test_live.py plays one through the real taps.

Players: A 张三, B 李四, C 王五, D 赵六, E 钱七, F 孙八, G 周九, H 吴十; each has a phone of
their own (`phone-A`…), except where an evening below says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from companion import actions
from companion.actions.scoring import score_results
from companion.groups import services
from companion.groups.models import Evening, Group
from companion.models import Game, Seat, Session
from companion.rules import modes

NAMES = dict(
    zip("ABCDEFGH", ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九", "吴十"], strict=True)
)
# "Now" for the period filters: May 2026 (this month: evenings 11 and 12).
NOW = datetime(2026, 5, 20, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Seated:
    """One seat of an evening's game: the player, identity, alive at the end, killed whom
    (letters), final duel, hero."""

    who: str
    identity: str
    alive: bool
    kills: str = ""
    duel: bool = False
    hero: str = ""


def s(who: str, identity: str, alive: bool, kills: str = "", **kw: object) -> Seated:
    return Seated(who, identity, alive, kills, **kw)  # type: ignore[arg-type]


# (day, mode, minutes, winner, seats). Scores by hand (docs/rules.md §8) in test_standings.
EVENINGS = [
    (
        datetime(2026, 1, 2, 20, tzinfo=UTC),
        "identity",
        40,
        "lord",
        [
            s("A", "lord", True, "C", hero="WEI001"),
            s("B", "loyalist", True, "D"),
            s("C", "rebel", False),
            s("D", "renegade", False),
        ],
    ),
    (
        datetime(2026, 1, 9, 20, tzinfo=UTC),
        "identity",
        30,
        "rebels",
        [
            s("E", "lord", False),
            s("F", "rebel", True, "EG", hero="WEI002"),
            s("G", "loyalist", False),
            s("H", "renegade", True),
        ],
    ),
    (
        datetime(2026, 1, 16, 20, tzinfo=UTC),
        "identity",
        50,
        "lord",
        [
            s("A", "lord", True, "BE", hero="WEI001"),
            s("C", "loyalist", True, "D"),
            s("B", "rebel", False),
            s("D", "rebel", False),
            s("E", "renegade", False),
        ],
    ),
    (
        datetime(2026, 1, 23, 20, tzinfo=UTC),
        "duel",
        15,
        "renegade",
        [s("A", "lord", False), s("B", "renegade", True, "A")],
    ),
    (
        datetime(2026, 2, 6, 20, tzinfo=UTC),
        "identity",
        25,
        "renegade",
        [
            s("G", "lord", False),
            s("H", "renegade", True, "FG", hero="WEI003"),
            s("E", "loyalist", False),
            s("F", "rebel", False, "E"),
        ],
    ),
    (
        datetime(2026, 2, 13, 20, tzinfo=UTC),
        "threes",
        60,
        "lord",
        [
            s("A", "lord", True, "D"),
            s("B", "loyalist", True),
            s("C", "loyalist", True),
            s("D", "renegade", False),
            s("E", "rebel", True),
            s("F", "rebel", True),
        ],
    ),
    (
        datetime(2026, 3, 6, 20, tzinfo=UTC),
        "identity",
        45,
        "lord",
        [
            s("B", "lord", True, "GHC", hero="WEI001"),
            s("A", "loyalist", False),
            s("G", "rebel", False, "A"),
            s("H", "rebel", False),
            s("C", "renegade", False, duel=True),
        ],
    ),
    (
        datetime(2026, 3, 13, 20, tzinfo=UTC),
        "duel",
        20,
        "lord",
        [s("C", "lord", True, "D"), s("D", "renegade", False)],
    ),
    (
        datetime(2026, 4, 3, 20, tzinfo=UTC),
        "identity",
        35,
        "lord",
        [
            s("E", "lord", True, "A"),
            s("F", "loyalist", True, "B"),
            s("A", "rebel", False),
            s("B", "renegade", False),
        ],
    ),
    (
        datetime(2026, 4, 10, 20, tzinfo=UTC),
        "threes",
        55,
        "renegade",
        [
            s("E", "lord", False),
            s("F", "loyalist", True),
            s("H", "loyalist", True),
            s("G", "renegade", True, "E"),
            s("A", "rebel", True),
            s("B", "rebel", True),
        ],
    ),
    (
        datetime(2026, 5, 1, 20, tzinfo=UTC),
        "identity",
        20,
        "lord",
        [
            s("A", "lord", True, "DH", hero="WEI001"),
            s("C", "loyalist", True),
            s("D", "rebel", False),
            s("H", "renegade", False),
        ],
    ),
    (
        datetime(2026, 5, 8, 20, tzinfo=UTC),
        "duel",
        70,
        "lord",
        [s("A", "lord", True, "C"), s("C", "renegade", False)],
    ),
]

# Who sits where differs from "own phone, own name" on three evenings (1-based):
#   5: 吴十 (H) comes with a new phone: matched by name, the phone confirms.
#   8: 赵六 (D) plays on 钱七's phone: matched to 钱七 by the phone; the host undoes it and
#      links the seat to 赵六.
#   9: 张三 (A) writes "小张" on a new phone: a new player, whom the host merges into 张三.
SEAT_NAME = {(9, "A"): "小张"}
SEAT_PHONE = {(5, "H"): "phone-H2", (8, "D"): "phone-E", (9, "A"): "phone-A2"}


def store_game(session: Session, start: datetime, minutes: int, winner: str, seats: list) -> Game:
    """A finished game as the core stores it, scored by its mode through the registry."""
    table = session.table
    by_who = {x.who: Seat.objects.get(table=table, position=i) for i, x in enumerate(seats)}
    results = [
        {
            "seat": by_who[x.who].pk,
            "name": by_who[x.who].name,
            "position": i,
            "identity": x.identity,
            "hero": x.hero,
            "alive": x.alive,
            "killer": None,
            "final_duel": x.duel,
            "kills": [by_who[v].pk for v in x.kills],
            "kill_identities": [next(y.identity for y in seats if y.who == v) for v in x.kills],
        }
        for i, x in enumerate(seats)
    ]
    game = Game.objects.create(
        table=table, session=session, number=1, winner=winner, results=results
    )
    game.scores = score_results(modes.get(table.mode), results, winner)
    game.started_at, game.ended_at = start, start + timedelta(minutes=minutes)
    game.save()
    return game


def evening_session(number: int, mode: str, seats: list) -> Session:
    """A table of this mode with the evening's seats (by the core's actions) and its session."""
    table = actions.table_create(mode)
    taken = []
    for x in seats:
        seat, _created = actions.seat_join(
            code=table.code,
            name=SEAT_NAME.get((number, x.who), NAMES[x.who]),
            device=SEAT_PHONE.get((number, x.who), f"phone-{x.who}"),
        )
        taken.append(seat)
    return Session.objects.create(table=table, number=1, players={str(t.pk): t.name for t in taken})


def seat_of(evening: Evening, who: str, number: int) -> int:
    name = SEAT_NAME.get((number, who), NAMES[who])
    return Seat.objects.get(table=evening.session.table, name=name).pk


def build_group() -> tuple[Group, list[Evening]]:
    """The 12 evenings, each attached to 周五三国杀 after its game, with the three fixes above
    made through the services as the host and the phones would."""
    group: Group | None = None
    evenings = []
    for number, (start, mode, minutes, winner, seats) in enumerate(EVENINGS, start=1):
        session = evening_session(number, mode, seats)
        store_game(session, start, minutes, winner, seats)
        if group is None:
            group = services.create_group("周五三国杀", session)
        else:
            services.attach(group, session)
        evening = Evening.objects.get(session=session)
        evenings.append(evening)
        if number == 5:
            services.confirm(evening, seat_of(evening, "H", 5), "phone-H2", yes=True)
        if number == 8:
            services.unmatch(evening, seat_of(evening, "D", 8))
            d = group.players.get(name="赵六", links__evening=evenings[0])
            services.relink(evening, seat_of(evening, "D", 8), d)
        if number == 9:
            xiaozhang = group.players.get(name="小张")
            zhangsan = group.players.get(name="张三", merged_into=None)
            services.merge(group, zhangsan, xiaozhang)
    assert group is not None
    return group, evenings
