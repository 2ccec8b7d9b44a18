"""The protection of the first player out (docs/rules.md §9.3: "Without dark-soul cards,
the first player out of a game is protected in the next game: he cannot be the first out (his
last HP is protected) until someone else is out or he attacks the player attacking him."), as
actions: stored with the session's next game, the clamp in the HP actions, its two ends, the
undo. It is the table option `first_out_protection` (refused with dark souls,
docs/variants.md)."""

from __future__ import annotations

import pytest
from django.utils import translation

from companion import actions
from companion.actions.core import ActionError
from companion.games.maneuvering import actions as maneuver
from companion.games.protection import actions as protection
from companion.models import Event, Seat, Table
from companion.read.private import private_state
from companion.read.state import public_state
from companion.words.history import describe as describe_any
from tests.support.game import by_identity, fresh, kill, picked_all

pytestmark = pytest.mark.django_db


def describe(kind: str, public: dict) -> dict:
    """A history line, in English."""
    with translation.override("en"):
        return describe_any(kind, public)


def pick_all(table: Table) -> None:
    actions.game_start(token=table.host_token)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=fresh(lord).hero_candidates[0])
    for seat in table.seats.exclude(pk=lord.pk):
        actions.hero_pick(token=seat.token, hero_id=fresh(seat).hero_candidates[-1])
    table.refresh_from_db()


def second_game(**options: bool) -> tuple[Table, Seat]:
    """Game 1 of a session: a rebel is the first out, then the lord dies (the rebels win).
    Game 2 is dealt and in play. Returns the table and game 1's first out."""
    table, _seats = picked_all(5, **options)
    first = by_identity(table, "rebel")[0]
    kill(table, first, None)
    lord = by_identity(table, "lord")[0]
    kill(table, lord, by_identity(table, "rebel")[1])
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    pick_all(table)
    assert table.status == Table.Status.PLAYING and table.game_number == 2
    return table, fresh(first)


def protected_ids(table: Table) -> list[int]:
    """The seats the public state marks protected."""
    return [s.id for s in public_state(table).seats if any(m.css == "protected" for m in s.marks)]


def mine(seat: Seat) -> dict:
    """What the protection shows on this seat's phone (empty: it is not protected)."""
    return private_state(seat).games.get("protection") or {}


def others(table: Table, seat: Seat) -> list[Seat]:
    return list(table.seats.exclude(pk=seat.pk).order_by("position"))


def last_event(table: Table) -> Event:
    return Event.objects.filter(table=table).order_by("-version").first()  # type: ignore[return-value]


def test_the_first_out_is_protected_in_the_next_game_and_every_screen_says_so() -> None:
    table, first = second_game(first_out_protection=True)
    assert protection.protected_seat(table) == first.pk
    assert protected_ids(table) == [first.pk]
    assert public_state(table).games["protected"] == first.pk
    assert mine(first)
    assert not mine(others(table, first)[0])


def test_without_the_option_nobody_is_protected() -> None:
    table, first = second_game()
    assert protection.protected_seat(table) is None
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=-first.hp)
    assert fresh(first).dying


def test_nobody_is_protected_in_a_session_s_first_game() -> None:
    table, _seats = picked_all(5, first_out_protection=True)
    assert protection.protected_seat(table) is None


def test_a_protected_player_keeps_his_last_hp_against_damage_and_loss_and_the_line_says_so() -> (
    None
):
    table, first = second_game(first_out_protection=True)
    attacker = others(table, first)[0]
    actions.seat_change_hp(
        token=table.host_token, seat_id=first.pk, delta=-(first.hp + 2), source=attacker.pk
    )
    seat = fresh(first)
    assert (seat.hp, seat.dying, seat.alive) == (1, False, True)
    event = last_event(table)
    assert event.public["protected"] is True
    assert "protected" in describe("damage", event.public)["text"]
    assert (event.before["hp"], event.after["hp"]) == (first.hp, 1)
    # At 1 HP: a damage and an HP loss leave him at 1.
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=-1, source=attacker.pk)
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=-3, loss=True)
    assert (fresh(first).hp, fresh(first).dying) == (1, False)
    assert last_event(table).public["protected"] is True
    # Nobody else is protected.
    other = others(table, first)[1]
    actions.seat_change_hp(token=table.host_token, seat_id=other.pk, delta=-other.hp)
    assert fresh(other).dying
    # The undo of a kept damage gives back exactly what was taken.
    actions.seat_change_hp(token=table.host_token, seat_id=other.pk, delta=other.hp)
    actions.event_undo(token=table.host_token, version=event.version)
    assert fresh(first).hp == first.hp


def test_someone_else_out_ends_it_and_the_undo_of_that_death_brings_it_back() -> None:
    table, first = second_game(first_out_protection=True)
    victim = next(s for s in others(table, first) if s.identity != "lord")
    kill(table, victim, None)
    table.refresh_from_db()
    assert protection.protected_seat(table) is None
    died = last_event(table)
    assert died.kind == "died" and died.after["protection_ended"] == str(first.pk)
    assert "protection" in describe("died", died.public)["text"]
    assert not protected_ids(table)
    actions.event_undo(token=table.host_token, version=died.version)
    table.refresh_from_db()
    assert protection.protected_seat(table) == first.pk
    # Now ended for good: his last HP is no longer kept.
    actions.seat_die(token=victim.token, seat_id=victim.pk)
    table.refresh_from_db()
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=-fresh(first).hp)
    assert fresh(first).dying


def test_his_tap_i_attack_my_attacker_ends_it_checked_on_the_server() -> None:
    table, first = second_game(first_out_protection=True)
    attacker, bystander = others(table, first)[:2]
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=-1, source=attacker.pk)
    table.refresh_from_db()
    assert mine(fresh(first))["attackers"] == ((attacker.pk, attacker.name),)
    # Not someone who never attacked him, and only from his own phone (or the host).
    with pytest.raises(ActionError) as refused:
        protection.protection_strike(token=first.token, seat_id=bystander.pk)
    assert refused.value.code == "not_attacker"
    with pytest.raises(ActionError) as refused:
        protection.protection_strike(token=bystander.token, seat_id=attacker.pk)
    assert refused.value.status == 403
    protection.protection_strike(token=first.token, seat_id=attacker.pk)
    table.refresh_from_db()
    assert protection.protected_seat(table) is None
    event = last_event(table)
    assert event.kind == "protection_ended" and event.public["target"] == attacker.pk
    assert attacker.name in describe(event.kind, event.public)["text"]
    with pytest.raises(ActionError) as refused:
        protection.protection_strike(token=first.token, seat_id=attacker.pk)
    assert refused.value.code == "not_protected"
    # His own undo takes it back.
    actions.event_undo(token=first.token)
    table.refresh_from_db()
    assert protection.protected_seat(table) == first.pk


def test_a_recorded_damage_on_his_attacker_ends_it_and_an_undone_damage_forgets_the_attacker() -> (
    None
):
    table, first = second_game(first_out_protection=True)
    attacker = others(table, first)[0]
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=-1, source=attacker.pk)
    noted = last_event(table)
    assert noted.after["protection_attacker"] == str(attacker.pk)
    actions.event_undo(token=table.host_token, version=noted.version)
    table.refresh_from_db()
    assert protection.current(table).attackers == frozenset()
    # Attacked again, he strikes back with a recorded damage: that ends it too.
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=-1, source=attacker.pk)
    actions.seat_change_hp(token=table.host_token, seat_id=attacker.pk, delta=-1, source=first.pk)
    table.refresh_from_db()
    assert protection.protected_seat(table) is None
    assert last_event(table).public["protection_ended"] == str(first.pk)


def test_a_dodged_slash_counts_as_an_attack_and_his_answer_to_it_ends_the_protection() -> None:
    """docs/rules.md §9.3: "until ... he attacks the player attacking him": a 杀 he dodged is an attack
    all the same; the player who played it becomes one he may strike back at."""
    table, first = second_game(first_out_protection=True)
    attacker, bystander = others(table, first)[:2]
    hp = fresh(first).hp
    shown = mine(fresh(first))
    assert (attacker.pk, attacker.name) in shown["dodged_from"] and shown["attackers"] == ()
    with pytest.raises(ActionError) as refused:
        protection.protection_dodged(token=bystander.token, seat_id=attacker.pk)
    assert refused.value.status == 403
    protection.protection_dodged(token=first.token, seat_id=attacker.pk)
    table.refresh_from_db()
    event = last_event(table)
    assert event.kind == "protection_attacked" and fresh(first).hp == hp
    assert attacker.name in describe(event.kind, event.public)["text"]
    shown = mine(fresh(first))
    assert shown["attackers"] == ((attacker.pk, attacker.name),)
    assert (attacker.pk, attacker.name) not in shown["dodged_from"]
    with pytest.raises(ActionError) as refused:
        protection.protection_dodged(token=first.token, seat_id=attacker.pk)
    assert refused.value.code == "already_attacker"
    # The undo forgets the attacker; noted again, his answer ends the protection.
    actions.event_undo(token=first.token)
    table.refresh_from_db()
    assert protection.current(table).attackers == frozenset() and fresh(first).hp == hp
    protection.protection_dodged(token=table.host_token, seat_id=attacker.pk)
    protection.protection_strike(token=first.token, seat_id=attacker.pk)
    table.refresh_from_db()
    assert protection.protected_seat(table) is None


def test_a_redeal_of_the_next_game_keeps_the_same_protected_player() -> None:
    table, _seats = picked_all(5, first_out_protection=True)
    first = by_identity(table, "rebel")[0]
    kill(table, first, None)
    kill(table, by_identity(table, "lord")[0], None)
    actions.identities_deal(token=table.host_token)
    actions.identities_deal(token=table.host_token, confirm=True)
    table.refresh_from_db()
    assert table.game_number == 2
    assert protection.protected_seat(table) == first.pk


def test_the_resolver_s_damage_keeps_his_last_hp_and_notes_the_attacker() -> None:
    table, first = second_game(first_out_protection=True, maneuvering=True)
    attacker = others(table, first)[0]
    if first.hp > 1:
        actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=1 - first.hp)
    maneuver.damage_resolve(token=attacker.token, target=first.pk, card="杀", source=attacker.pk)
    seat = fresh(first)
    assert (seat.hp, seat.dying) == (1, False)
    event = last_event(table)
    assert event.kind == "damage_resolved" and event.public["protected"] is True
    assert event.public["protection_attacker"] == str(attacker.pk)
    assert "protected" in describe(event.kind, event.public)["text"]
    table.refresh_from_db()
    assert protection.current(table).attackers == {str(attacker.pk)}
    actions.event_undo(token=table.host_token, version=event.version)
    table.refresh_from_db()
    assert fresh(first).hp == 1 and protection.current(table).attackers == frozenset()


def test_a_lightning_strike_keeps_his_last_hp() -> None:
    table, first = second_game(first_out_protection=True)
    actions.seat_change_hp(token=table.host_token, seat_id=first.pk, delta=2 - first.hp)
    actions.turn_set(token=table.host_token, seat_id=first.pk, phase="play")
    actions.trick_place(token=first.token, seat_id=first.pk, name="闪电")
    actions.turn_set(token=table.host_token, seat_id=first.pk, phase="judgement")
    actions.judgement_flip(token=first.token, check="lightning", suit="spade", rank=5, trick="闪电")
    table.refresh_from_db()
    if table.pending_judgement:  # 鬼才 waits: its owner lets it take effect
        for seat in table.seats.all():
            try:
                actions.judgement_confirm(token=seat.token)
                break
            except ActionError:
                continue
    seat = fresh(first)
    assert (seat.hp, seat.dying) == (1, False)
    event = last_event(table)
    assert event.kind == "judgement" and event.public["protected"] is True
