"""`Table.opts`: the table's options typed by its mode, parsed once per table instance and
options value (an HP tap reads them several times) and once per process for the tables storing
the same options (`modes.options_of`), fresh once `options` or `mode` change; a game reads its
own option with `flag`, False where the table's mode has no such option."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion import actions, hooks
from companion.live import broadcast
from companion.models import Table
from companion.rules import modes
from companion.rules.modes import TableOptions
from tests.support.game import by_identity, picked_all


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Every parse of a table's stored options, by any mode (the raw mapping parsed)."""
    found: list[dict[str, Any]] = []
    monkeypatch.setattr(modes, "_PARSED", {})  # parsed by earlier tests: parsed again here
    for key in modes.keys():
        mode = modes.get(key)
        real = mode.options

        def counted(raw: Any, real: Any = real) -> TableOptions:
            found.append(dict(raw or {}))
            return real(raw)

        monkeypatch.setattr(mode, "options", counted)
    yield found


def test_the_options_are_parsed_once_per_instance_and_value(parses: list[dict[str, Any]]) -> None:
    table = Table(code="OPTS1", mode="identity", options={})
    first = table.opts
    assert table.opts is first and not table.opts.flag("rebirth")
    assert len(parses) == 1
    # Set by an action (a new mapping): the next read is the new value, parsed once.
    table.options = {"rebirth": True}
    assert table.opts.flag("rebirth") and table.opts.variants_on() == ("rebirth",)
    assert len(parses) == 2
    # Changed in place: fresh too.
    table.options["last_three"] = True
    assert table.opts.flag("last_three") and len(parses) == 3
    assert table.opts.flag("last_three") and len(parses) == 3
    # Another instance of the same row, or another table storing the same, shares them.
    other = Table(code="OPTS1", mode="identity", options=dict(table.options))
    assert other.opts is table.opts and len(parses) == 3
    assert Table(code="OPTS3", mode="identity", options={}).opts is first and len(parses) == 3


def test_a_shared_parse_still_refuses_what_the_parse_refuses(parses: list[dict[str, Any]]) -> None:
    assert modes.options_of("identity", {"rebirth": True}).flag("rebirth")
    # 1 equals True, but is not a flag: refused, however often True was parsed.
    with pytest.raises(modes.OptionsError):
        modes.options_of("identity", {"rebirth": 1})
    with pytest.raises(modes.OptionsError):
        modes.options_of("identity", {"no_such_option": True})
    with pytest.raises(modes.OptionsError):
        modes.options_of("identity", {"no_such_option": True})
    assert modes.options_of("identity", {"rebirth": True}) is modes.options_of(
        "identity", {"rebirth": True}
    )
    assert len(parses) == 4


def test_a_new_mode_reads_its_own_options_and_a_game_flag_is_off_there(
    parses: list[dict[str, Any]],
) -> None:
    table = Table(code="OPTS2", mode="identity", options={"maneuvering": True})
    assert "rebirth" in table.opts.names()
    table.mode = "threes"
    assert type(table.opts) is modes.get("threes").options_type and len(parses) == 2
    # The identity game's variant is no option of 3 vs 3: off, whatever the name.
    assert table.opts.maneuvering and not table.opts.flag("rebirth")
    # A name that is not a field (a class attribute) is no option either.
    assert not table.opts.flag("LIVE") and not table.opts.flag("VARIANTS")


@pytest.mark.django_db
def test_an_action_that_sets_options_sees_them_and_so_do_the_games_on() -> None:
    table = actions.table_create()
    assert "last_three" not in {g.key for g in hooks.on(table)}
    actions.table_set_options(token=table.host_token, options={"last_three": True})
    table.refresh_from_db()
    assert table.opts.flag("last_three")
    assert "last_three" in {g.key for g in hooks.on(table)}
    actions.table_set_options(token=table.host_token, options={"last_three": False})
    table.refresh_from_db()
    assert not table.opts.flag("last_three")
    assert "last_three" not in {g.key for g in hooks.on(table)}


@pytest.mark.django_db(transaction=True)
def test_an_hp_tap_parses_each_table_instance_options_once(
    parses: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The action and the render of its change read the options of every table instance
    they load once each (they were parsed again at every read: a referee's tap read them twice,
    for referee mode and for the tracker's 军争 parts)."""
    table, _ = picked_all(5, referee_mode=True)
    rebel = by_identity(table, "rebel")[0]
    lord = by_identity(table, "lord")[0]
    read = Table.opts.fget
    assert read is not None
    readers: dict[int, Table] = {}  # kept alive, so that no two share an id

    def counted(self: Table) -> TableOptions:
        readers[id(self)] = self
        return read(self)

    monkeypatch.setattr(Table, "opts", property(counted))
    parses.clear()
    with broadcast.collecting() as box:
        actions.seat_change_hp(token=lord.token, seat_id=rebel.pk, delta=-1)
    assert list(box), "the change was rendered"
    assert readers and len(parses) <= len(readers), (len(parses), len(readers))
