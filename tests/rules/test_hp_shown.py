"""HP as screens show it is never negative, and a dying hero needs 1 - HP 桃."""

from __future__ import annotations

import pytest

from companion.rules.flow import peaches_needed, shown_hp
from companion.rules.judgement import REPLACING_SKILLS, replacer_may_act


@pytest.mark.parametrize("hp", range(-6, 7))
def test_shown_hp_is_never_negative(hp: int) -> None:
    assert shown_hp(hp) >= 0
    assert shown_hp(hp) == (hp if hp > 0 else 0)


@pytest.mark.parametrize(("hp", "needed"), [(0, 1), (-1, 2), (-2, 3), (-4, 5), (1, 0), (3, 0)])
def test_peaches_needed_is_one_minus_hp(hp: int, needed: int) -> None:
    assert peaches_needed(hp) == needed
    if hp <= 0:
        assert peaches_needed(hp) == 1 - hp
        # As many 桃 as needed (1 HP each) bring the hero back to exactly 1 HP.
        assert hp + peaches_needed(hp) == 1


def test_guicai_may_act_only_while_its_owner_lives() -> None:
    assert REPLACING_SKILLS["WEI002"] == "鬼才"
    assert replacer_may_act("WEI002", True)
    assert not replacer_may_act("WEI002", False)
    assert not replacer_may_act("WEI001", True)
