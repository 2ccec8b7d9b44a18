"""A mode's own screens: a mode with templates in
`templates/companion/modes/<key>/` is shown with them, on its page and in every fragment its
changes send, with no code changed; a mode without (the identity game) keeps the shared ones.
The probe mode here is registered for the test only, its templates under
tests/support/templates/."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from companion import actions
from companion.games.identity.rules import IdentityMode
from companion.live import broadcast
from companion.models import Seat, Table
from companion.read import screens
from companion.read.state import public_state
from companion.rules import modes
from tests.support.game import picked_all

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[1] / "support" / "templates"


class ProbeMode(IdentityMode):
    key = "probe"


@pytest.fixture
def probe(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    engines = copy.deepcopy(settings.TEMPLATES)
    engines[0]["DIRS"] = [*engines[0]["DIRS"], TEMPLATES]
    # django-template-partials adds its tags to the engine it finds at start-up; a rebuilt
    # engine gets them here.
    builtins = engines[0]["OPTIONS"].setdefault("builtins", [])
    builtins.append("template_partials.templatetags.partials")
    settings.TEMPLATES = engines
    monkeypatch.setitem(modes._MODES, "probe", ProbeMode())  # noqa: SLF001 - one registration
    screens.template_for.cache_clear()
    yield
    screens.template_for.cache_clear()


def test_a_mode_without_templates_uses_the_shared_ones(probe: None) -> None:
    assert screens.template_for("identity", "companion/live/public.html#public") == (
        "companion/live/public.html#public"
    )
    assert screens.template_for("probe", "companion/live/public.html#public") == (
        "companion/modes/probe/live/public.html#public"
    )
    assert screens.template_for("probe", "companion/display.html") == "companion/display.html"


def test_a_mode_with_templates_shows_its_own_page_and_fragments(
    probe: None, django_capture_on_commit_callbacks: Any
) -> None:
    table, seats = picked_all(4)
    Table.objects.filter(pk=table.pk).update(mode="probe")
    me = Seat.objects.select_related("table").get(pk=seats[1].pk)
    page = Client().get(f"/p/{me.token}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="probe-phone"' in html and "probe seat" in html and "probe mode: 4 seats" in html
    state = public_state(me.table)
    assert state.mode == "probe"
    assert "probe mode: 4 seats" in broadcast.render_public(state, "zh-hans")
    assert "probe host" in broadcast.render_host(state, "zh-hans")
    assert "probe seat" in broadcast.render_private(me, "zh-hans")
    # A change's whole-state frame (a death sends the whole state) uses the mode's fragment.
    with broadcast.collecting() as box, django_capture_on_commit_callbacks(execute=True):
        actions.seat_change_hp(token=table.host_token, seat_id=me.pk, delta=-me.hp)
        actions.seat_die(token=table.host_token, seat_id=me.pk)
    whole = [m["html"] for _group, m in box if "probe-board" in m.get("html", "")]
    assert whole, [m.get("html", "")[:80] for _g, m in box]


def test_the_identity_game_keeps_the_shared_screens(probe: None) -> None:
    table, seats = picked_all(4)
    page = Client().get(f"/p/{seats[1].token}/").content.decode()
    assert "probe" not in page and 'id="table-state"' in page
