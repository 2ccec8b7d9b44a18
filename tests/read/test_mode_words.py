"""The winning side's words keyed by mode, the places on the ring, the sideways cards, the
area-trick helper and the session's team standings, from a 3 vs 3 game played
through the actions to its end."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import translation

from companion import actions
from companion.live.fragments import seat_item
from companion.models import Event, Table
from companion.read.modeview import private_mode_view
from companion.read.session_export import export_csv, export_json
from companion.read.sessions import current_summary
from companion.read.state import public_state
from companion.words.history import describe
from companion.words.labels import side_label
from tests.support.game import kill
from tests.support.modeplay import in_play, registered

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]


def test_side_words_are_keyed_by_mode() -> None:
    with translation.override("en"):
        assert side_label("lord") == "The Lord and the Loyalists win"
        assert side_label("lord", "threes") == "The warm side wins"
        assert side_label("renegade", "threes", ["A", "B"]) == "The cold side wins: A, B"
        assert side_label("renegade", "duel", ["Kai"]) == "Kai wins"
        assert side_label("rebels", "threes") == ""
    with translation.override("zh-hans"):
        assert side_label("lord", "threes", ["甲", "乙"]) == "暖色方获胜：甲、乙"
        assert side_label("lord", "duel", ["甲"]) == "甲获胜"


def test_a_threes_game_names_places_sideways_cards_the_winners_and_the_teams() -> None:
    table, seats = in_play("threes")
    cold = table.seats.get(identity="renegade")
    warm = table.seats.get(identity="lord")
    actions.flow_answer(token=cold.token, answer="cold")
    table.refresh_from_db()
    with translation.override("en"):
        state = public_state(table)
        by_id = {s.id: s for s in state.seats}
        assert by_id[cold.pk].role == "The cold side: commander"
        assert by_id[cold.pk].sideways and not by_id[warm.pk].sideways
        html = seat_item(by_id[cold.pk], 1, state.turn_seat_id)
        assert "sideways" in html and "The cold side: commander" in html
        # The helper: 南蛮入侵 both ways round, every other living player in order.
        helper = private_mode_view(cold)
        assert helper is not None
        savage = next(t for t in helper.area_tricks if t.name == "南蛮入侵")
        ways = {w.direction: w.targets for w in savage.ways}
        order = [s.name for s in table.seats.order_by("position")]
        at = order.index(cold.name)
        assert list(ways["ccw"]) == order[at + 1 :] + order[:at]
        assert list(ways["cw"]) == list(reversed(ways["ccw"]))
    kill(table, cold, warm)
    table.refresh_from_db()
    warm_names = sorted(s.name for s in table.seats.filter(identity__in=["lord", "loyalist"]))
    with translation.override("en"):
        headline = public_state(table).winner_headline
        assert headline.startswith("The warm side wins: ")
        assert sorted(headline.split(": ")[1].split(", ")) == warm_names
        died = Event.objects.filter(table=table, kind="died").get()
        text = describe("died", died.public)["text"]
        assert f"{cold.name} (The cold side: commander) was killed by {warm.name}" in text
        over = Event.objects.filter(table=table, kind="game_over").get()
        assert describe("game_over", over.public)["text"] == headline
        summary = current_summary(table)
        assert summary is not None
        assert summary.games[0].winner_label == headline
        team_rows = {tuple(sorted(t.names)): t for t in summary.teams}
        assert team_rows[tuple(warm_names)].wins == 1
        assert team_rows[tuple(warm_names)].win_parts == [("warm", "The warm side", 1)]
        assert sum(t.wins for t in summary.teams) == 1 and len(summary.teams) == 2
        for row in summary.standings:
            won = row.name in warm_names
            assert row.win_parts == ([("warm", "The warm side", 1)] if won else [])
        assert summary.bar_title == "Wins per colour"
        roles = {p.name: p.identity_label for p in summary.games[0].players}
        assert roles[warm.name] == "The warm side: commander"
        assert roles[cold.name] == "The cold side: commander"
    # The export keeps the colour and place each played.
    session = table.session
    assert session is not None
    rows = list(csv.DictReader(io.StringIO(export_csv(session).lstrip("\ufeff"))))
    assert {r["player"]: r["role"] for r in rows}[warm.name] == "warm_commander"
    assert {r["role"] for r in rows} == {
        "warm_commander", "warm_vanguard", "cold_commander", "cold_vanguard"
    }  # fmt: skip
    exported = export_json(session)
    players = exported["games"][0]["players"]
    assert {p["name"]: p["role"] for p in players}[cold.name] == "cold_commander"
    assert table.status == Table.Status.FINISHED
