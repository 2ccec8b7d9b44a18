"""The group's all-time table over 12 evenings (tests/groups/support.py), against values worked
out by hand from docs/rules.md §8 (the identity game's points; one point a win in 3 vs 3 and
1 vs 1)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from companion.groups import read
from companion.groups.models import GroupGame, Player, SeatLink
from companion.groups.rules.plays import Play, Result
from companion.groups.rules.rating import rate
from tests.groups.support import EVENINGS, NAMES, NOW, build_group

pytestmark = pytest.mark.django_db

# Points per identity-game evening (1, 2, 3, 5, 7, 9, 11), by hand:
#  1 lord wins, L=1: A lord 4+2+1 (rebel) = 7; B loyalist 5+1+1 (renegade) = 7; C, D 0
#  2 rebels win, R=1: F rebel 3+2 (lord)+1 (loyalist) = 6; H renegade alive 1; E, G 0
#  3 lord wins, L=1: A 4+2+1+1 = 8; C 5+1+1 = 7; B, D, E 0
#  5 renegade wins, N=4: G lord 1; H 4+8 = 12; F rebel 0+1 (loyalist) = 1; E 0
#  7 lord wins, L=0, C lost the final duel: B 4+1+1+1 = 7; A loyalist (dead) 5; G rebel 1;
#    H 0; C renegade N = 5
#  9 lord wins, L=1: E 4+2+1 = 7; F 5+1+1 = 7; A, B 0
# 11 lord wins, L=1: A 4+2+1+1 = 8; C 5+1 = 6; D, H 0
# (name, rank, games, wins, points, kills, lord games, lord wins)
IDENTITY = [
    ("A", 1, 5, 4, 28, 5, 3, 3),
    ("C", 2, 4, 2, 18, 1, 0, 0),
    ("F", 3, 3, 2, 14, 4, 0, 0),  # ties B on points, wins and kills; fewer games
    ("B", 4, 4, 2, 14, 4, 1, 1),
    ("H", 5, 4, 1, 13, 2, 0, 0),
    ("E", 6, 4, 1, 7, 1, 2, 1),
    ("G", 7, 3, 0, 2, 1, 1, 0),
    ("D", 8, 3, 0, 0, 0, 0, 0),
]
THREES = [
    ("A", 1, 2, 2, 2, 1),
    ("B", 2, 2, 2, 2, 0),
    ("G", 3, 1, 1, 1, 1),
    ("C", 4, 1, 1, 1, 0),
    ("D", 5, 1, 0, 0, 0),
    ("H", 5, 1, 0, 0, 0),
    ("E", 7, 2, 0, 0, 0),
    ("F", 7, 2, 0, 0, 0),
]
DUEL = [("B", 1, 1, 1, 1, 1), ("A", 2, 2, 1, 1, 1), ("C", 2, 2, 1, 1, 1), ("D", 4, 1, 0, 0, 0)]


@pytest.fixture
def group():
    return build_group()[0]


def _table(page, mode):
    return next(t for t in page.tables if t.mode == mode)


def _rows(table):
    return [(p.name, row) for p, row in table.rows]


@pytest.mark.backend
def test_players_are_one_person_across_evenings(group) -> None:
    # Eight people; 小张 merged into 张三; the borrowed phone's match undone left one entry
    # without a game.
    live = Player.objects.filter(group=group, merged_into=None)
    played = {r.player.name for g in GroupGame.objects.filter(group=group) for r in g.results.all()}
    assert played == set(NAMES.values())
    assert live.filter(name="张三").count() == 1
    zhangsan = live.get(name="张三")
    assert {"phone-A", "phone-A2"} <= set(zhangsan.devices)
    assert "phone-H2" in live.get(name="吴十").devices
    assert SeatLink.objects.filter(evening__group=group, how="name", confirmed=False).count() == 0
    assert GroupGame.objects.filter(group=group).count() == 12


@pytest.mark.backend
def test_identity_standings_by_hand(group) -> None:
    page = read.page(group, now=NOW)
    got = [
        (
            name,
            row.rank,
            row.games,
            row.wins,
            row.points,
            row.kills,
            row.leader.games,
            row.leader.wins,
        )
        for name, row in _rows(_table(page, "identity"))
    ]
    assert got == [(NAMES[w], *rest) for w, *rest in IDENTITY]
    a = dict(_rows(_table(page, "identity")))[NAMES["A"]]
    assert a.rate == pytest.approx(0.8)
    assert a.per_game == pytest.approx(5.6)
    assert {k: (t.games, t.wins) for k, t in a.places.items()} == {
        "lord": (3, 3),
        "loyalist": (1, 1),
        "rebel": (1, 0),
    }
    assert a.leader.rate == 1.0


@pytest.mark.backend
def test_threes_and_duel_standings_by_hand(group) -> None:
    page = read.page(group, now=NOW)
    threes = [
        (n, r.rank, r.games, r.wins, r.points, r.kills) for n, r in _rows(_table(page, "threes"))
    ]
    assert threes == [(NAMES[w], *rest) for w, *rest in THREES]
    duel = [(n, r.rank, r.games, r.wins, r.points, r.kills) for n, r in _rows(_table(page, "duel"))]
    assert duel == [(NAMES[w], *rest) for w, *rest in DUEL]
    # 3 vs 3 counts wins by colour and place.
    b = dict(_rows(_table(page, "threes")))[NAMES["B"]]
    assert {k: (t.games, t.wins) for k, t in b.places.items()} == {
        "warm_vanguard": (1, 1),
        "cold_vanguard": (1, 1),
    }


@pytest.mark.backend
def test_filters_by_period_and_player_count(group) -> None:
    month = read.page(group, period="month", now=NOW)  # May: evenings 11 and 12
    assert month.games == 2
    assert [(p.name, r.points) for p, r in _table(month, "identity").rows][0] == (NAMES["A"], 8)
    five = read.page(group, players=5, now=NOW)  # evenings 3 and 7
    assert five.games == 2
    assert {t.mode for t in five.tables} == {"identity"}
    assert read.page(group, period="year", now=NOW).games == 12
    assert five.player_counts == (2, 4, 5, 6)


@pytest.mark.backend
def test_records_with_their_games(group) -> None:
    page = read.page(group, now=NOW)
    found = {
        rec.code: ([p.name for p in people], rec.value, game.ended_at.date().day)
        for rec, people, game in page.records
    }
    assert found["most_kills"] == ([NAMES["B"]], 3, 6)  # evening 7 (6 March)
    assert found["quickest_win"] == ([NAMES["B"]], 15 * 60, 23)  # evening 4's duel
    assert found["longest_game"][1:] == (70 * 60, 8)  # evening 12's duel
    # B wins 4, 6, 7 in a row first; A's three (10, 11, 12) only equal it.
    assert found["longest_streak"] == ([NAMES["B"]], 3, 6)
    # A survived two rebels as lord on evening 3; B's equal two came later.
    assert found["lord_survivor"] == ([NAMES["A"]], 2, 16)


@pytest.mark.backend
def test_heroes(group) -> None:
    page = read.page(group, now=NOW)
    top = page.top_heroes[0]
    assert (top.hero, top.games, top.wins) == ("WEI001", 4, 4)  # A three times, B once
    mine = dict((p.name, heroes) for p, heroes in page.heroes)
    assert [(h.hero, h.games, h.wins, h.by_identity) for h in mine[NAMES["A"]]] == [
        ("WEI001", 3, 3, {"lord": [3, 3]})
    ]
    assert [(h.hero, h.wins) for h in mine[NAMES["H"]]] == [("WEI003", 1)]


@pytest.mark.backend
def test_ratings_over_teams(group) -> None:
    page = read.page(group, now=NOW)
    model = PlackettLuce()
    # Evening 1 by hand: the lord's side (A, B) beat the rebel (C) and the renegade alone (D).
    r = model.rating
    (a, b), (c,), (d,) = model.rate([[r(), r()], [r()], [r()]], ranks=[0, 1, 1])
    first = rate(
        [
            Play(
                1,
                "identity",
                NOW,
                NOW,
                "lord",
                (
                    Result(1, "lord", "", "lord", True, "", True, True, 1, 7),
                    Result(2, "loyalist", "", "lord", False, "", True, True, 1, 7),
                    Result(3, "rebel", "", "rebels", False, "", False, False, 0, 0),
                    Result(4, "renegade", "", "renegade3", False, "", False, False, 0, 0),
                ),
            )
        ]
    )
    assert [x.value for x in first.table] == pytest.approx(
        [a.ordinal(), b.ordinal(), c.ordinal(), d.ordinal()]
    )
    # Over the 12 evenings: everybody rated, history one entry per game, A on top.
    assert len(page.ratings) == 8
    assert page.ratings[0][0].name == NAMES["A"]
    assert page.ratings[0][1].games == 9
    assert "<svg" in page.rating_chart and NAMES["A"] in page.rating_chart
    teams = {(g.pk, r.team) for g in GroupGame.objects.filter(group=group) for r in g.results.all()}
    assert {t for _g, t in teams} >= {"lord", "rebels", "warm", "cold"}


def test_evenings_cover_modes() -> None:
    assert {m for _d, m, *_ in EVENINGS} == {"identity", "threes", "duel"}
