"""The identity game's variant options at the table (docs/rules.md §9, docs/variants.md): two options
that exclude each other are refused when set, an option that does not fit the players when
the identities are dealt; each with its reason, in both languages; the table keeps its options."""

from __future__ import annotations

import pytest
from django.utils import translation

from companion import actions
from companion.actions import ActionError
from companion.models import Table
from tests.support.factories import make_table

pytestmark = pytest.mark.django_db


def test_options_that_exclude_each_other_are_refused_with_the_reason() -> None:
    table, _ = make_table(6)
    actions.table_set_options(token=table.host_token, options={"rebirth": True})
    with pytest.raises(ActionError) as caught:
        actions.table_set_options(token=table.host_token, options={"dark_souls": True})
    assert caught.value.code == "rebirth_dark_souls" and caught.value.status == 400
    with translation.override("en"):
        assert str(caught.value.message).startswith("Rebirth and dark souls")
    with translation.override("zh-hans"):
        assert str(caught.value.message) == "转世与暗魂都规定阵亡者之后的去向，只能选其一。"
    table.refresh_from_db()
    assert table.opts.rebirth and not table.opts.dark_souls
    # Both changed in one submission: switching rebirth off and dark souls on is fine.
    actions.table_set_options(
        token=table.host_token, options={"rebirth": False, "dark_souls": True}
    )
    table.refresh_from_db()
    assert table.opts.variants_on() == ("dark_souls",)


@pytest.mark.parametrize(
    ("option", "code", "zh"),
    [
        (
            "rebels_know_each_other",
            "rebels_know_one_rebel",
            "反贼互认至少需要两名反贼，本局只有一名。",
        ),
    ],
)
def test_an_option_that_does_not_fit_four_players_refuses_the_deal(
    option: str, code: str, zh: str
) -> None:
    table, _ = make_table(4)
    actions.table_set_options(token=table.host_token, options={option: True})
    with pytest.raises(ActionError) as caught:
        actions.identities_deal(token=table.host_token)
    assert (caught.value.code, caught.value.status) == (code, 409)
    with translation.override("zh-hans"):
        assert str(caught.value.message) == zh
    table.refresh_from_db()
    assert table.status == Table.Status.LOBBY and table.game_number == 0
    assert not table.seats.exclude(identity="").exists()
    actions.table_set_options(token=table.host_token, options={option: False})
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    assert table.status == Table.Status.DEALT


@pytest.mark.parametrize("option", ["last_three", "rebels_know_each_other", "rebirth"])
def test_the_same_options_deal_at_five(option: str) -> None:
    table, _ = make_table(5)
    actions.table_set_options(token=table.host_token, options={option: True})
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    assert table.status == Table.Status.DEALT and table.opts.flag(option)
