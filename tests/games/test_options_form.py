"""Every option a mode declares is on the host's form and accepted: for each registered mode, a
table of that mode shows each of its options as a checkbox of a form that posts to the
`options` tap, and the tap takes it on and off and stores it; in play, the same for the options
a host may still change (`live()`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client

from companion.models import Table
from companion.rules import modes
from companion.words.variants import OPTIONS, VARIANTS
from tests.support.game import picked_all
from tests.support.modeplay import in_play, mode_table
from tests.web.test_views import htmx_post

pytestmark = pytest.mark.django_db

FORM = re.compile(r'<form class="options[^"]*" hx-post="act/options".*?</form>', re.S)
FIELD = re.compile(r'<input type="hidden" name="fields" value="([a-z_]+)"')
CHECKBOX = re.compile(r'<input type="checkbox" name="([a-z_]+)" value="1"([^>]*)>')


def host_forms(table: Table) -> list[tuple[list[str], dict[str, bool]]]:
    """The host page's forms that post to the `options` tap: the options each names in
    `fields`, and its boxes (name: ticked)."""
    page = Client().get(f"/h/{table.host_token}/").content.decode()
    return [
        (FIELD.findall(form), {n: "checked" in rest for n, rest in CHECKBOX.findall(form)})
        for form in FORM.findall(page)
    ]


def form_options(table: Table) -> list[str]:
    """The options the host's page offers as boxes of those forms."""
    return [name for _fields, boxes in host_forms(table) for name in boxes]


def set_option(table: Table, name: str, on: bool) -> None:
    """Tick or untick `name` the way the page sends its form: every option the form names in
    `fields`, and the boxes ticked."""
    fields, boxes = next((f, b) for f, b in host_forms(table) if name in b)
    ticked = {**boxes, name: on}
    data = {"fields": fields, **{n: "1" for n, value in ticked.items() if value}}
    # Each box is a tap of its own: unticking two boxes in turn sends the same form twice, which
    # a moment apart would be merged as a double tap (companion.web.taps).
    data["repeat"] = "1"
    response = htmx_post(Client(), f"/h/{table.host_token}/act/options", data)
    assert response.status_code < 300, (table.mode, name, on, response.content.decode()[:300])
    table.refresh_from_db()
    assert bool(table.options.get(name)) is on, (table.mode, name, on, table.options)


def playing(key: str) -> Table:
    """A game of this mode in play (its heroes chosen or drafted)."""
    if key == modes.DEFAULT:
        return picked_all(5)[0]
    return in_play(key)[0]


@pytest.mark.parametrize("key", modes.keys())
def test_every_option_of_the_mode_is_on_the_lobby_form_and_accepted(key: str) -> None:
    table, _seats = mode_table(key, 0)
    declared = modes.get(key).options_type.names()
    offered = form_options(table)
    assert sorted(offered) == sorted(declared), key
    for name in declared:
        set_option(table, name, True)
        set_option(table, name, False)


@pytest.mark.parametrize("key", modes.keys())
def test_every_live_option_is_on_the_form_in_play_and_accepted(key: str) -> None:
    table = playing(key)
    assert table.status == Table.Status.PLAYING
    live = modes.get(key).options_type.live()
    assert live, key
    assert sorted(form_options(table)) == sorted(live), key
    for name in live:
        set_option(table, name, True)
        set_option(table, name, False)


@pytest.fixture
def identity_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A probe package's options for the identity game only: a variant with its words, and an
    option a host may still change in play."""
    monkeypatch.setitem(VARIANTS, "probe_variant", ("Probe variant", "What it changes."))
    monkeypatch.setitem(OPTIONS, "probe_live", "Probe live")
    modes.add_option("probe_variant", modes=("identity",), variant=True, place=1)
    modes.add_option("probe_live", modes=("identity",), live=True)
    yield
    modes.remove_option("probe_variant")
    modes.remove_option("probe_live")


@pytest.mark.usefixtures("identity_only")
def test_an_option_declared_for_the_identity_game_is_on_its_form_only() -> None:
    table, _seats = mode_table(modes.DEFAULT, 0)
    offered = form_options(table)
    assert {"probe_variant", "probe_live"} <= set(offered)
    assert offered.index("probe_variant") < offered.index("rebirth")
    set_option(table, "probe_variant", True)
    set_option(table, "probe_live", True)
    for key in modes.keys():
        if key != modes.DEFAULT:
            assert not {"probe_variant", "probe_live"} & set(form_options(mode_table(key, 0)[0]))
    game = playing(modes.DEFAULT)
    assert "probe_live" in form_options(game) and "probe_variant" not in form_options(game)
    set_option(game, "probe_live", True)


@pytest.mark.parametrize("key", [k for k in modes.keys() if k != modes.DEFAULT])
def test_another_modes_form_lists_none_of_the_identity_games_variants(key: str) -> None:
    variants = modes.get(modes.DEFAULT).options_type.variants()
    assert "rebirth" in variants
    assert not set(variants) & set(form_options(mode_table(key, 0)[0])), key
