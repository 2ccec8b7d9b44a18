"""The structure the rest relies on: imports in one direction and no circle; a write
announces its change only once committed; every action runs in the one frame (lock, replay)."""

from __future__ import annotations

import ast
import importlib.util
import inspect
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from companion import actions, outbox
from companion.models import Event, Table
from tests.support.game import picked_all

ROOT = Path(__file__).resolve().parents[2]


def _import_graph() -> Any:
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts/import_graph.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_import_graph_of_companion_has_no_circle() -> None:
    graph = _import_graph()
    edges = graph.edges()
    assert "companion.outbox" in edges and edges["companion.actions.core"] >= {"companion.outbox"}
    assert graph.circles(edges) == []


def _underscore_imports(root: Path) -> list[str]:
    """Every `from <the app's module> import _name` under `root` (an underscore name another
    module takes)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("companion"):
                found += [
                    f"{path.relative_to(root)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    return found


def test_what_a_module_takes_from_another_is_public() -> None:
    """A name another module imports is part of its module's API: public, no underscore."""
    assert _underscore_imports(ROOT / "companion") == []


def test_an_underscore_import_would_be_found(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "from companion.somewhere import (\n    _hidden,\n    shown,\n)\n"
        "from collections import _private_thing\n"
    )
    assert _underscore_imports(tmp_path) == ["m.py: companion.somewhere._hidden"]


def test_a_circle_would_be_found() -> None:
    circles = _import_graph().circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert circles == [["a", "b", "c"]]


@pytest.mark.django_db(transaction=True)
def test_a_change_is_announced_once_committed_and_never_when_rolled_back() -> None:
    # Table 1 does not exist: delivery's own receiver fails on it (logged), and this one still
    # hears the change.
    heard: list[outbox.Change] = []

    def listen(sender: object, change: outbox.Change, **kwargs: Any) -> None:
        heard.append(change)

    outbox.change_committed.connect(listen)
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            outbox.announce(outbox.Change(table_id=1, version=1))
            raise RuntimeError("rolled back")
        assert heard == []
        with transaction.atomic():
            outbox.announce(outbox.Change(table_id=1, version=2))
            assert heard == [], "not before the commit"
        assert [c.version for c in heard] == [2]
    finally:
        outbox.change_committed.disconnect(listen)


def test_every_action_that_takes_a_token_runs_in_the_one_frame() -> None:
    """Lock, replay and transaction come from one decorator (actions.core.action), never
    repeated by hand: every public action reached by a token is made by it."""
    by_token = []
    for name in actions.__all__:
        fn = getattr(actions, name)
        if not inspect.isfunction(fn):
            continue
        params = inspect.signature(fn, follow_wrapped=False).parameters
        if "token" in params and "action_id" in params:
            by_token.append(name)
            assert getattr(fn, "is_action", False), f"{name} does not use @action"
    assert len(by_token) >= 30, by_token


@pytest.mark.django_db
def test_a_repeated_action_id_runs_the_action_once() -> None:
    table, seats = picked_all(4)
    me = seats[1]
    first = actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1, action_id="frame-hp-1")
    again = actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1, action_id="frame-hp-1")
    assert first.applied and not again.applied
    me.refresh_from_db()
    assert me.hp == me.max_hp - 1
    assert Event.objects.filter(table=table, action_id="frame-hp-1").count() == 1
    assert Table.objects.get(pk=table.pk).version == again.version
