"""The session a deal belongs to (docs/rules.md §8): opened with the first game dealt, and in a
tournament the leader of each game (the identity game's lord), in the order the mode rotates it.

`Session.lord_order` keeps its stored name: it is the leaders' order, whatever the mode."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Max
from django.utils.translation import gettext_lazy

from companion.actions.core import ActionError
from companion.actions.inputs import mode_of
from companion.models import Seat, Session, Table
from companion.rules.identities import Identity
from companion.rules.modes import Mode


def next_session_number(table: Table) -> int:
    return (table.sessions.aggregate(top=Max("number"))["top"] or 0) + 1


def open_session(table: Table, seats: Sequence[Seat]) -> Session:
    """The session the next game belongs to: the table's, or a new one if it has none or ended."""
    session = table.session
    if session is None or session.ended_at is not None:
        # The hero box carries over from the session before.
        session = Session.objects.create(
            table=table, number=next_session_number(table), box=session.box if session else {}
        )
        table.session = session
        table.save(update_fields=["session"])
    names = {str(s.pk): s.name for s in seats}
    if any(session.players.get(key) != name for key, name in names.items()):
        session.players = {**session.players, **names}
        session.save(update_fields=["players"])
    return session


def finished_count(session: Session) -> int:
    return session.games.filter(ended_at__isnull=False).count()


def _tournament_leader_index(mode: Mode, session: Session, seats: Sequence[Seat]) -> int | None:
    """The index in seats of this game's leader in a tournament; None outside tournaments."""
    if not session.tournament or not session.lord_order:
        return None
    ids = [s.pk for s in seats]
    order = [int(pk) for pk in session.lord_order]
    done = finished_count(session)
    if done == 0 and order[0] in ids:
        # Seats may have been rearranged since the tournament was set up: the leader passes
        # round the seating as it is when the first game is dealt.
        first = ids.index(order[0])
        order = [ids[i] for i in mode.leader_rotation(len(ids), first)]
        if order != session.lord_order:
            session.lord_order = order
            session.save(update_fields=["lord_order"])
    if sorted(order) != sorted(ids):
        raise ActionError(
            gettext_lazy(
                "The players have changed since the tournament began; start a new session."
            ),
            status=409,
            code="tournament_players",
        )
    if done >= len(order):
        raise ActionError(
            gettext_lazy("This tournament is over; start a new session."),
            status=409,
            code="tournament_over",
        )
    return ids.index(order[done])


def deal_for_table(table: Table, seats: Sequence[Seat]) -> list[Identity]:
    """Deal identities for the table's next game (or a re-deal), in seat order, as its mode
    deals them with the table's options.

    Attaches the table to its session (starting one if needed). In a tournament the leader is
    the session's next leader and the other identities are random among the rest.
    """
    mode = mode_of(table)
    session = open_session(table, seats)
    leader = _tournament_leader_index(mode, session, seats)
    previous = [s.identity for s in seats]
    if leader is None and table.status == Table.Status.FINISHED and all(previous):
        # A new game at the same table: the mode's next deal (`Mode.redeal`: a mode may
        # swap its sides; the identity game deals afresh).
        return mode.redeal([Identity(i) for i in previous], table.opts)
    return mode.deal(len(seats), table.opts, fixed_leader=leader)
