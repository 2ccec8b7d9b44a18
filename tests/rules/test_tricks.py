"""Delayed-trick targets and 无懈可击 (docs/rules.md §3, §4)."""

from __future__ import annotations

import pytest

from companion.rules.tricks import Fate, TargetProblem, nullified_fate, target_problem


@pytest.mark.parametrize(
    ("name", "own", "reach", "problem"),
    [
        ("闪电", True, False, None),
        ("闪电", False, True, TargetProblem.OWN_ZONE),
        ("闪电", False, False, TargetProblem.OWN_ZONE),
        ("乐不思蜀", False, False, None),
        ("乐不思蜀", False, True, None),
        ("乐不思蜀", True, True, TargetProblem.NOT_SELF),
        ("兵粮寸断", False, True, None),
        ("兵粮寸断", False, False, TargetProblem.OUT_OF_REACH),
        ("兵粮寸断", True, True, TargetProblem.NOT_SELF),
    ],
)
def test_target_problem_follows_the_card_texts(
    name: str, own: bool, reach: bool, problem: TargetProblem | None
) -> None:
    assert target_problem(name, own_zone=own, in_reach=reach) == problem


def test_a_nullified_lightning_moves_on_and_the_others_are_discarded() -> None:
    assert nullified_fate("闪电") is Fate.MOVES_ON
    assert nullified_fate("乐不思蜀") is Fate.DISCARDED
    assert nullified_fate("兵粮寸断") is Fate.DISCARDED
