"""Scoring sessions through the services: three games scored by hand, standings, history, both
exports, corrections and their refusals, and a live panel that never depends on the game in
play.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.utils import translation

from companion import actions
from companion.actions import ActionError, NotFound
from companion.models import Event, Game, Seat, Session, Table
from companion.read import session_export, sessions
from tests.support.factories import make_table
from tests.support.sessions import (
    CUMULATIVE,
    LINES,
    SCORES,
    STANDINGS,
    deal,
    frozen,
    kill,
    play_three_games,
    seat,
    start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening() -> Table:
    table, _seats = make_table(4)
    play_three_games(table)
    return table


def standings_rows(table: Table) -> list[tuple]:
    summary = sessions.current_summary(table)
    assert summary is not None
    return [
        (r.name, r.rank, r.total, r.games, r.wins, r.kills, dict(r.wins_by_identity))
        for r in summary.standings
    ]


# Three games ----------------------------------------------------------------------------------


def test_three_games_are_scored_per_rules_section_8(evening: Table) -> None:
    table = evening
    names = {s.pk: s.name for s in table.seats.all()}
    session = Session.objects.get(table=table)
    assert table.session_id == session.pk and session.number == 1 and not session.tournament
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [g.number for g in games] == [1, 2, 3]
    assert all(g.session_id == session.pk for g in games)
    for game in games:
        totals = {names[int(pk)]: score["total"] for pk, score in game.scores.items()}
        assert totals == SCORES[game.number]
        for pk, score in game.scores.items():
            lines = {line["code"]: line["total"] for line in score["lines"]}
            assert lines == LINES[(game.number, names[int(pk)])]
    # The renegade's final duel was recorded at his death in game 3, not in game 1.
    assert [e["final_duel"] for e in games[2].results if e["name"] == "P1"] == [True]
    assert [e["final_duel"] for e in games[0].results if e["name"] == "P4"] == [False]


def test_three_games_standings_and_tie_break_statement(evening: Table) -> None:
    assert standings_rows(evening) == STANDINGS
    summary = sessions.current_summary(evening)
    with translation.override("en"):
        assert "more games won, then more kills, then fewer games" in summary.tie_break
    for game in summary.games:
        for player in game.players:
            assert player.cumulative == CUMULATIVE[player.name][game.number - 1]


def test_three_games_history(evening: Table) -> None:
    table = evening
    summary = sessions.current_summary(table)
    assert [g.number for g in summary.games] == [1, 2, 3]
    assert [g.winner for g in summary.games] == ["lord", "renegade", "lord"]
    first = summary.games[0]
    assert first.duration is not None and first.minutes >= 1
    by_name = {p.name: p for p in first.players}
    assert by_name["P1"].identity == "lord" and by_name["P1"].hero
    assert by_name["P3"].killer_name == "P2" and not by_name["P3"].alive
    assert [v.name for v in by_name["P2"].kills] == ["P3"]
    assert all(p.hero for g in summary.games for p in g.players)
    # Each kill bonus is its own line naming the victim.
    with translation.override("en"):
        p4 = {p.name: p for p in summary.games[2].players}["P4"]
        labels = [(i.label, i.detail) for i in p4.items]
        assert ("Killed P2 (Rebel)", "+1") in labels and ("Killed P1 (Renegade)", "+1") in labels
        p1 = {p.name: p for p in summary.games[2].players}["P1"]
        assert ("Final duel: 4 players in the game × 1 point", "= +4") in [
            (i.label, i.detail) for i in p1.items
        ]
        assert "final duel" in p1.note
    # The timeline of a game: its public events only, in order, one tap from the history.
    lines = sessions.timeline(table, 1)
    kinds = [line.kind for line in lines]
    assert kinds[0] == "identities_dealt" and kinds[-1] == "game_over"
    assert kinds.count("died") == 2 and "my_hero_picked" not in kinds
    assert [line.version for line in lines] == sorted(line.version for line in lines)
    assert all(
        e.game_number == 1
        for e in Event.objects.filter(version__in=[x.version for x in lines], table=table)
    )


def test_three_games_csv_export_matches_by_hand(evening: Table) -> None:
    session = Session.objects.get(table=evening)
    text = session_export.export_csv(session)
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert len(rows) == 12  # one row per player per game
    assert list(rows[0]) == list(session_export.CSV_COLUMNS)
    for row in rows:
        game, name = int(row["game"]), row["player"]
        assert int(row["total"]) == SCORES[game][name]
        assert int(row["cumulative"]) == CUMULATIVE[name][game - 1]
        expected = LINES[(game, name)]
        for code in session_export.LINE_CODES:
            assert int(row[code]) == expected.get(code, 0), (game, name, code)
        assert row["session"] == "1"
    g3p1 = next(r for r in rows if r["game"] == "3" and r["player"] == "P1")
    assert (
        g3p1["identity"] == "renegade"
        and g3p1["died_in_final_duel"] == "1"
        and g3p1["alive"] == "0"
    )
    assert g3p1["killer"] == "P4" and g3p1["won"] == "0"
    g2p3 = next(r for r in rows if r["game"] == "2" and r["player"] == "P3")
    assert g2p3["kills"] == "2" and g2p3["killed"] == "P1;P2" and g2p3["winner"] == "renegade"
    assert g2p3["won"] == "1"
    g1 = next(r for r in rows if r["game"] == "1" and r["player"] == "P1")
    assert g1["hero"] and g1["hero_name"]
    assert int(g1["duration_seconds"]) >= 0


def test_three_games_json_export_matches_by_hand_and_holds_no_token(evening: Table) -> None:
    table = evening
    session = Session.objects.get(table=table)
    data = session_export.export_json(session)
    text = json.dumps(data, ensure_ascii=False)
    for secret in [table.host_token, *table.seats.values_list("token", flat=True)]:
        assert secret not in text
    assert data["table"] == table.code and data["session"]["number"] == 1
    assert [
        (r["name"], r["rank"], r["total"], r["games"], r["wins"], r["kills"], r["wins_by_identity"])
        for r in data["standings"]
    ] == STANDINGS
    assert [g["number"] for g in data["games"]] == [1, 2, 3]
    for game in data["games"]:
        for player in game["players"]:
            assert player["score"]["total"] == SCORES[game["number"]][player["name"]]
            assert player["cumulative"] == CUMULATIVE[player["name"]][game["number"] - 1]
        kinds = [e["kind"] for e in game["events"]]
        assert "game_over" in kinds and "died" in kinds
        assert all(set(e) == {"version", "game", "kind", "public", "at"} for e in game["events"])
    # Public parts only: nothing private, no before/after.
    private = Event.objects.filter(table=table, private_to__isnull=False).values_list(
        "version", flat=True
    )
    exported = [(e["version"], e["kind"]) for g in data["games"] for e in g["events"]]
    assert all(kind != "my_hero_picked" for _v, kind in exported)
    assert '"before"' not in text and '"after"' not in text
    assert private  # the heroes game had private events, and none was exported


def test_scores_survive_a_fresh_read(evening: Table) -> None:
    """Everything is in the database: new objects read the same session (a restart)."""
    before = session_export.export_json(Session.objects.get(table=evening))
    again = session_export.export_json(
        Session.objects.get(pk=Table.objects.get(pk=evening.pk).session_id)
    )
    before.pop("exported_at"), again.pop("exported_at")
    assert before == again


# Corrections --------------------------------------------------------------------------------


def test_host_corrects_a_kill_attribution_and_standings_follow(evening: Table) -> None:
    table = evening
    p1, p2, p4 = seat(table, "P1"), seat(table, "P2"), seat(table, "P4")
    version = table.version
    actions_before = Event.objects.filter(table=table).count()
    actions.game_correct(token=table.host_token, game_number=1, killers={p4.pk: p2.pk})
    game = Game.objects.get(table=table, number=1)
    totals = {e["name"]: game.scores[str(e["seat"])]["total"] for e in game.results}
    # P1 loses the +1 for the renegade; P2 gains it.
    assert totals == {"P1": 6, "P2": 8, "P3": 0, "P4": 0}
    entry = {e["name"]: e for e in game.results}
    assert entry["P4"]["killer"] == p2.pk
    assert entry["P1"]["kills"] == [] and entry["P2"]["kills"] == [seat(table, "P3").pk, p4.pk]
    rows = {r[0]: r for r in standings_rows(table)}
    assert rows["P1"][2] == 11 and rows["P2"][2] == 10
    assert rows["P1"][5] == 1 and rows["P2"][5] == 3  # kills moved too
    table.refresh_from_db()
    assert table.version == version + 1
    assert Event.objects.filter(table=table).count() == actions_before + 1
    event = Event.objects.get(table=table, kind="game_corrected")
    assert event.public["game"] == 1
    assert event.public["changes"] == [
        {
            "seat": p4.pk,
            "name": "P4",
            "what": "killer",
            "was": p1.pk,
            "now": p2.pk,
            "was_name": "P1",
            "now_name": "P2",
        }
    ]
    # The correction is part of the corrected game's history.
    with translation.override("en"):
        texts = [line.text for line in sessions.timeline(table, 1)]
    assert texts[-1] == "The host corrected game 1: P4 was killed by P2"
    assert sessions.current_summary(table).games[0].corrections == 1
    # The exports follow, and carry the correction among the game's events.
    data = session_export.export_json(Session.objects.get(table=table))
    assert [e["kind"] for e in data["games"][0]["events"]][-1] == "game_corrected"
    assert {r["name"]: r["total"] for r in data["standings"]}["P2"] == 10
    assert '"before"' not in json.dumps(data) and '"after"' not in json.dumps(data)


def test_host_correction_can_change_the_winner(evening: Table) -> None:
    table = evening
    p1, p4 = seat(table, "P1"), seat(table, "P4")
    # Game 3 again: in fact P1 (renegade) survived and killed the lord P4 last.
    actions.game_correct(
        token=table.host_token,
        game_number=3,
        alive={p1.pk: True, p4.pk: False},
        killers={p4.pk: p1.pk},
    )
    game = Game.objects.get(table=table, number=3)
    assert game.winner == "renegade"
    totals = {e["name"]: game.scores[str(e["seat"])]["total"] for e in game.results}
    assert totals == {"P1": 12, "P2": 1, "P3": 0, "P4": 1}
    entry = {e["name"]: e for e in game.results}
    assert entry["P1"]["alive"] and entry["P1"]["killer"] is None and not entry["P1"]["final_duel"]
    # The current game's end screen is kept in step.
    table.refresh_from_db()
    assert table.winner == "renegade"
    assert Seat.objects.get(pk=p1.pk).alive and not Seat.objects.get(pk=p4.pk).alive
    assert Seat.objects.get(pk=p4.pk).killer_id == p1.pk
    rows = {r[0]: r[2] for r in standings_rows(table)}
    assert rows == {"P1": 20, "P2": 9, "P3": 12, "P4": 1}


def test_correction_from_a_non_host_is_refused_and_changes_nothing(evening: Table) -> None:
    table = evening
    p2, p4 = seat(table, "P2"), seat(table, "P4")
    before = frozen(table)
    with pytest.raises(ActionError) as err:
        actions.game_correct(token=p2.token, game_number=1, killers={p4.pk: p2.pk})
    assert err.value.status == 403 and err.value.code == "not_host"
    assert frozen(table) == before


def test_kill_attribution_naming_a_seat_not_in_the_game_is_refused(evening: Table) -> None:
    table = evening
    p4 = seat(table, "P4")
    other_table, others = make_table(4)
    before = frozen(table)
    for killers in (
        {p4.pk: others[0].pk},  # a seat of another table
        {p4.pk: 987654},  # no such seat
        {others[0].pk: p4.pk},  # a victim who was not there
        {p4.pk: "not a seat"},
    ):
        with pytest.raises(ActionError) as err:
            actions.game_correct(token=table.host_token, game_number=1, killers=killers)
        assert err.value.code == "not_in_game" and err.value.status == 400
        with translation.override("en"):
            assert str(err.value.message) == "That player was not in that game."
        assert frozen(table) == before


def test_other_bad_corrections_are_refused(evening: Table) -> None:
    table = evening
    p1, p2, p3 = seat(table, "P1"), seat(table, "P2"), seat(table, "P3")
    before = frozen(table)
    cases = [
        # Nobody would have won: everyone alive.
        ({"alive": {s.pk: True for s in table.seats.all()}}, "no_winner"),
        # A living player has no killer.
        ({"killers": {p1.pk: p2.pk}}, "alive_killer"),
        # Only a dead renegade can lose the final duel.
        ({"final_duel": {p3.pk: True}}, "final_duel"),
    ]
    for kwargs, code in cases:
        with pytest.raises(ActionError) as err:
            actions.game_correct(token=table.host_token, game_number=1, **kwargs)
        assert err.value.code == code
        assert frozen(table) == before
    with pytest.raises(NotFound):
        actions.game_correct(token=table.host_token, game_number=99, killers={})
    with pytest.raises(NotFound):
        actions.game_correct(token="nope", game_number=1, killers={})
    assert frozen(table) == before


def test_a_game_in_play_cannot_be_corrected(evening: Table) -> None:
    table = evening
    deal(table)
    start(table)
    lord = Seat.objects.get(table=table, identity="lord")
    before = frozen(table)
    with pytest.raises(ActionError) as err:
        actions.game_correct(token=table.host_token, game_number=4, alive={lord.pk: False})
    assert err.value.code == "not_finished"
    assert frozen(table) == before


def test_correction_is_applied_once_per_tap(evening: Table) -> None:
    table = evening
    p2, p4 = seat(table, "P2"), seat(table, "P4")
    for _ in range(2):
        actions.game_correct(
            token=table.host_token, game_number=1, killers={p4.pk: p2.pk}, action_id="tap-123456"
        )
    assert Event.objects.filter(table=table, kind="game_corrected").count() == 1


# Secrecy and the live panel -------------------------------------------------------------------


def test_the_panel_never_depends_on_the_game_in_play(evening: Table) -> None:
    """Standings and history show finished games only: swapping the living non-lord players'
    identities of the game in play changes nothing that is rendered."""
    table = evening
    deal(table)
    start(table)
    rebel = Seat.objects.filter(table=table, identity="rebel").first()
    kill(table, rebel.name, None)

    def rendered() -> list[str]:
        fresh = Table.objects.get(pk=table.pk)
        out = []
        for lang in ("zh-hans", "en"):
            out.append(sessions.render_panel(fresh, lang))
            with translation.override(lang):
                summary = sessions.current_summary(fresh)
                out.append(repr(summary))
                out.append(str(summary.line_chart) + str(summary.bar_chart))
        out.append(session_export.export_csv(fresh.session))
        data = session_export.export_json(fresh.session)
        data.pop("exported_at")
        out.append(json.dumps(data))
        return out

    before = rendered()
    living = list(
        Seat.objects.filter(table=table, alive=True).exclude(identity="lord").order_by("pk")
    )
    assert len(living) >= 2
    identities = [s.identity for s in living]
    for s, identity in zip(living, identities[1:] + identities[:1], strict=True):
        Seat.objects.filter(pk=s.pk).update(identity=identity)
    assert rendered() == before
    assert 4 not in [g.number for g in sessions.current_summary(table).games]
