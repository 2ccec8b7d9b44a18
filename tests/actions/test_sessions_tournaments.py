"""Scoring sessions through the services: a tournament's lord rotation over a whole session
 and its refusals, a new session closing the old one, and the panel broadcast after a
game ends but not after an HP tap.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from companion import actions
from companion.actions import ActionError, NotFound
from companion.live import broadcast
from companion.models import Event, Game, Seat, Session, Table
from companion.read import session_export, sessions
from tests.support.factories import make_table
from tests.support.sessions import deal, kill, seat, start

pytestmark = pytest.mark.django_db


# Sessions and tournaments ---------------------------------------------------------------------


def lord_name(table: Table) -> str:
    return Seat.objects.get(table=table, identity="lord").name


def finish_by_killing_the_lord(table: Table) -> None:
    lord = Seat.objects.get(table=table, identity="lord")
    killer = Seat.objects.filter(table=table).exclude(pk=lord.pk).first()
    kill(table, lord.name, killer.name)
    assert table.status == "finished"


def test_tournament_rotation_over_a_whole_session() -> None:
    table, seats = make_table(5, first_game_mode=True)
    names = [s.name for s in seats]
    actions.seat_move(token=table.host_token, seat_id=seats[4].pk, position=0)  # P5 sits first
    actions.session_new(token=table.host_token, tournament=True, first_lord=seat(table, "P3").pk)
    session = Session.objects.get(table=table)
    assert session.tournament and session.number == 1
    # Seat order is P5 P1 P2 P3 P4: from P3 the lord passes to P4, P5, P1, P2.
    expected = ["P3", "P4", "P5", "P1", "P2"]
    assert [Seat.objects.get(pk=pk).name for pk in session.lord_order] == expected
    seen = []
    for number, name in enumerate(expected, start=1):
        deal(table)
        if number == 2:
            # A re-deal before the start keeps the tournament's lord.
            actions.identities_deal(token=table.host_token, confirm=True)
        identities = sorted(Seat.objects.filter(table=table).values_list("identity", flat=True))
        assert identities == sorted(["lord", "loyalist", "rebel", "rebel", "renegade"])
        seen.append(lord_name(table))
        assert seen[-1] == name
        start(table)
        finish_by_killing_the_lord(table)
        session.refresh_from_db()
        assert (session.ended_at is not None) == (number == len(expected))
        summary = sessions.current_summary(table)
        assert summary.next_lord == (expected[number] if number < len(expected) else "")
    assert seen == expected
    assert sorted(names) == sorted(seen)
    summary = sessions.current_summary(table)
    assert summary.finished and len(summary.games) == 5
    assert [r.games for r in summary.standings] == [5] * 5
    # Every game went to the rebels: the final ranking is by total, then the tie-break.
    totals = [r.total for r in summary.standings]
    assert totals == sorted(totals, reverse=True)
    # The next deal starts a new, plain session.
    deal(table)
    table.refresh_from_db()
    assert table.session.number == 2 and not table.session.tournament
    assert Game.objects.get(table=table, number=6).session_id == table.session_id


def test_tournament_is_refused_for_a_non_host_in_play_or_without_a_first_lord() -> None:
    table, seats = make_table(4, first_game_mode=True)
    with pytest.raises(ActionError) as err:
        actions.session_new(token=seats[1].token, tournament=True, first_lord=seats[0].pk)
    assert err.value.code == "not_host"
    with pytest.raises(ActionError) as err:
        actions.session_new(token=table.host_token, tournament=True)
    assert err.value.code == "first_lord"
    other, other_seats = make_table(4)
    with pytest.raises(NotFound):
        actions.session_new(token=table.host_token, tournament=True, first_lord=other_seats[0].pk)
    deal(table)
    start(table)
    with pytest.raises(ActionError) as err:
        actions.session_new(token=table.host_token, tournament=True, first_lord=seats[0].pk)
    assert err.value.code == "in_game" and err.value.status == 409
    assert not Session.objects.filter(table=table, tournament=True).exists()


def test_new_session_closes_the_old_one_and_standings_start_again() -> None:
    table, _seats = make_table(4, first_game_mode=True)
    assert sessions.current_summary(table) is None
    deal(table, {"P1": "lord", "P2": "loyalist", "P3": "rebel", "P4": "renegade"})
    start(table)
    kill(table, "P1", "P3")  # the rebels win at once
    first = Session.objects.get(table=table)
    assert [r.name for r in sessions.current_summary(table).standings][0] == "P3"
    actions.session_new(token=table.host_token)
    first.refresh_from_db()
    table.refresh_from_db()
    assert first.ended_at is not None and table.session.number == 2
    summary = sessions.current_summary(table)
    assert summary.number == 2 and summary.games == () and summary.standings == ()
    # A second "new session" before any game reuses the empty one.
    actions.session_new(token=table.host_token)
    assert Session.objects.filter(table=table).count() == 2
    event = Event.objects.filter(table=table, kind="session_started").last()
    with translation.override("en"):
        assert sessions.describe(event.kind, event.public) == "Session 2 started"
    # The old session's history and export are still there.
    assert len(sessions.summarize(first).games) == 1
    assert session_export.export_csv(first).count("\r\n") == 5


def test_a_tournament_whose_lord_left_is_refused_clearly() -> None:
    table, seats = make_table(5, first_game_mode=True)
    actions.session_new(token=table.host_token, tournament=True, first_lord=seats[2].pk)
    actions.seat_remove(token=table.host_token, seat_id=seats[2].pk)
    before = Table.objects.get(pk=table.pk).version
    with pytest.raises(ActionError) as err:
        actions.identities_deal(token=table.host_token)
    assert err.value.code == "tournament_players"
    assert Table.objects.get(pk=table.pk).version == before
    assert not Game.objects.filter(table=table).exists()


def test_panel_is_broadcast_after_a_game_ends_but_not_after_an_hp_tap(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    sent: list[tuple[str, str]] = []
    monkeypatch.setattr(
        broadcast, "_send", lambda group, message: sent.append((group, message.get("html", "")))
    )
    table, _seats = make_table(4, first_game_mode=True)
    deal(table, {"P1": "lord", "P2": "loyalist", "P3": "rebel", "P4": "renegade"})
    start(table)
    p2 = seat(table, "P2")
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        actions.seat_change_hp(token=table.host_token, seat_id=p2.pk, delta=-1)
    assert sent and not [g for g, html in sent if 'id="session-panel"' in html]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        kill(table, "P1", "P3")
    panels = [(g, html) for g, html in sent if 'id="session-panel"' in html]
    assert sorted(g for g, _html in panels) == sorted(
        [f"table.{table.code}.zh-hans", f"table.{table.code}.en"]
    )
    en = next(html for g, html in panels if g.endswith(".en"))
    assert "hx-swap-oob" in en and "data-version" in en and "<svg" in en
    assert ">P3<" in en  # the winning rebel is in the standings
    # A reconnecting screen gets the panel in its snapshot.
    snap = broadcast.snapshot(Table.objects.get(pk=table.pk), seat=None, is_host=False, lang="en")
    assert 'id="session-panel"' in snap
