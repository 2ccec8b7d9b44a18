"""The host's options are the mode's own: each mode's lobby form shows the options that mode
declares (`TableOptions.names`), no other, and every one of them is accepted when ticked the way
the page sends it (the form's `fields` and its ticked boxes), then unticked."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion import actions
from companion.models import Table
from companion.rules import modes
from tests.web.test_views import htmx_post

pytestmark = pytest.mark.django_db

FORM = re.compile(r'<form class="options[^"]*" hx-post="act/options".*?</form>', re.S)
BOX = re.compile(r'<input type="checkbox" name="([a-z_]+)" value="1"([^>]*)>')
FIELD = re.compile(r'<input type="hidden" name="fields" value="([a-z_]+)">')


def _forms(table: Table) -> list[str]:
    page = Client().get(f"/h/{table.host_token}/").content.decode()
    return FORM.findall(page)


def _tick(table: Table, name: str, on: bool) -> int:
    """Tick or untick one box as the page does: its form's fields and its ticked boxes."""
    form = next(f for f in _forms(table) if f'name="{name}"' in f)
    ticked = {n for n, attrs in BOX.findall(form) if "checked" in attrs} ^ {name}
    assert (name in ticked) == on
    # `repeat`: another tap, not the same one sent twice (companion.web.taps).
    data = {"fields": FIELD.findall(form), "repeat": "1", **{n: "1" for n in ticked}}
    return htmx_post(Client(), f"/h/{table.host_token}/act/options", data).status_code


@pytest.mark.parametrize("key", modes.keys())
def test_each_mode_offers_its_own_options_and_takes_each(key: str) -> None:
    table = actions.table_create(key)
    declared = modes.get(key).options_type.names()
    shown = [n for form in _forms(table) for n, _attrs in BOX.findall(form)]
    assert sorted(shown) == sorted(declared)
    for name in declared:
        assert _tick(table, name, True) == 204, name
        table.refresh_from_db()
        assert table.opts.flag(name) is True, name
        assert _tick(table, name, False) == 204, name
        table.refresh_from_db()
        assert table.opts.flag(name) is False, name
