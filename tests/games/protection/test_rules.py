"""The protection of the first player out (docs/rules.md §9.3), one test per sentence.

docs/rules.md §9.3: "Without dark-soul cards, the first player out of a game is protected in the next
game: he cannot be the first out (his last HP is protected) until someone else is out or he
attacks the player attacking him."
"""

from __future__ import annotations

import pytest

from companion.games.protection import rules as protection
from companion.games.protection.rules import Protection
from companion.rules import modes
from companion.rules.modes import OptionsRefused


def test_without_dark_souls_only() -> None:
    """ "Without dark-soul cards": the protection is refused with dark souls on."""
    with pytest.raises(OptionsRefused, match="without dark souls"):
        modes.get("identity").options({"dark_souls": True, "first_out_protection": True})
    assert modes.get("identity").options({"first_out_protection": True}).refusals(4) == ()


def test_the_first_player_out_of_a_game_is_protected_in_the_next_game() -> None:
    """ "the first player out of a game is protected in the next game"."""
    assert protection.first_out(["7", "3", "9"]) == "7"
    assert protection.first_out([]) is None
    assert protection.for_next_game(["7", "3"], {"3", "7", "9", "1"}) == Protection("7")
    assert protection.for_next_game([], {"3", "7"}) is None
    assert protection.for_next_game(["7"], {"3", "9"}) is None  # he does not play this game


@pytest.mark.parametrize(
    ("hp", "change", "expected"),
    [
        (1, -1, 1),
        (1, -3, 1),
        (2, -3, 1),
        (3, -1, 2),
        (2, 1, 3),
        (4, -4, 1),
    ],
)
def test_he_cannot_be_the_first_out_his_last_hp_is_protected(
    hp: int, change: int, expected: int
) -> None:
    """ "he cannot be the first out (his last HP is protected)"; others are not."""
    guard = Protection("7")
    assert protection.hp_after(guard, "7", hp=hp, change=change) == expected
    assert protection.hp_after(guard, "3", hp=hp, change=change) == hp + change
    assert protection.hp_after(None, "7", hp=hp, change=change) == hp + change


def test_until_someone_else_is_out() -> None:
    """ "until someone else is out"."""
    guard = Protection("7")
    assert protection.out(guard, "7") == guard
    ended = protection.out(guard, "3")
    assert ended is not None and ended.ended and not protection.protects(ended, "7")
    assert protection.hp_after(ended, "7", hp=1, change=-1) == 0


def test_or_he_attacks_the_player_attacking_him() -> None:
    """ "or he attacks the player attacking him": attacking someone else keeps it."""
    guard = Protection("7")
    guard = protection.attacked(guard, attacker="3", target="7")
    assert guard == Protection("7", attackers=frozenset({"3"}))
    guard = protection.attacked(guard, attacker="7", target="9")  # not his attacker
    assert guard is not None and protection.protects(guard, "7")
    guard = protection.attacked(guard, attacker="9", target="3")  # not about him
    assert guard is not None and protection.protects(guard, "7")
    ended = protection.attacked(guard, attacker="7", target="3")
    assert ended is not None and ended.ended
    assert protection.attacked(ended, attacker="1", target="7") == ended


def test_the_protection_round_trips_through_json() -> None:
    guard = Protection("7", attackers=frozenset({"3", "1"}), ended=False)
    assert Protection.from_stored(guard.stored()) == guard
    assert Protection.from_stored(None) is None
