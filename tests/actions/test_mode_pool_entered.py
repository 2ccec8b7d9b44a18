"""3 vs 3's draft from the heroes the table dealt from its two piles: the
host enters the 16 (names in Chinese or English, or ids); a wrong count, a repeat or an unknown
hero is refused with its message and changes nothing; the tap posts the same field."""

from __future__ import annotations

import pytest
from django.test import Client

from companion import actions
from companion.actions import ActionError
from companion.models import Table
from companion.rules.heroes import STANDARD_HEROES
from tests.support.modeplay import draft_now, registered, threes_lobby
from tests.web.test_views import htmx_post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]

SIXTEEN = STANDARD_HEROES[:16]


def dealt() -> Table:
    table, _seats = threes_lobby()
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    return table


def test_the_entered_sixteen_are_the_pool_in_the_order_entered() -> None:
    table = dealt()
    words = [h.name_zh if i % 2 else h.name_en for i, h in enumerate(SIXTEEN)]
    actions.game_start(
        token=table.host_token, pool="、".join(words[:8]) + ", " + ",".join(words[8:])
    )
    assert list(draft_now(table).pool) == [h.id for h in SIXTEEN]


@pytest.mark.parametrize(
    ("pool", "code"),
    [
        (" ".join(h.name_zh for h in SIXTEEN[:15]), "pool_size"),
        (" ".join(h.name_zh for h in [*SIXTEEN[:15], SIXTEEN[0]]), "pool_repeats"),
        (" ".join([*(h.name_zh for h in SIXTEEN[:15]), "无名氏"]), "unknown_hero"),
    ],
)
def test_a_wrong_pool_is_refused_and_changes_nothing(pool: str, code: str) -> None:
    table = dealt()
    version = table.version
    with pytest.raises(ActionError) as refused:
        actions.game_start(token=table.host_token, pool=pool)
    assert refused.value.code == code and str(refused.value)
    table.refresh_from_db()
    assert table.version == version and table.status == Table.Status.DEALT


def test_the_start_tap_posts_the_pool() -> None:
    table = dealt()
    pool = " ".join(h.name_zh for h in SIXTEEN)
    response = htmx_post(
        Client(enforce_csrf_checks=True), f"/h/{table.host_token}/act/start", {"pool": pool}
    )
    assert response.status_code < 300
    assert list(draft_now(table).pool) == [h.id for h in SIXTEEN]
