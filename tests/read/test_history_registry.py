"""The history's lines are a registry (companion.words.history): a package the core never names
adds its own event kinds, clauses after another kind's line, or varies a line, and the history
shows them; a kind has one line unless replaced on purpose."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from companion.words import history


@pytest.fixture(autouse=True)
def _own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    # What a test registers is gone after it: the registry's tables, copied.
    monkeypatch.setattr(history, "_LINES", dict(history._LINES))
    monkeypatch.setattr(history, "_CLAUSES", {k: list(v) for k, v in history._CLAUSES.items()})


def test_a_kind_registered_from_outside_gets_its_line() -> None:
    assert history.describe("probe_done", {"name": "甲"})["text"] == "probe_done"

    @history.line("probe_done")
    def _probe(public: dict[str, Any], name: str) -> str:
        return f"{name} probed {public['n']}"

    assert history.known("probe_done")
    assert history.describe("probe_done", {"name": "甲", "n": 2}) == {
        "kind": "probe_done",
        "text": "甲 probed 2",
    }


def test_a_clause_follows_the_line_and_the_clauses_registered_before() -> None:
    public = {"name": "甲", "amount": 1, "hp": 0, "probe": True}
    with translation.override("en"):
        before = history.describe("damage", public)["text"]

        @history.clause("damage")
        def _probe(public: dict[str, Any]) -> list[str]:
            return ["probe clause"] if public.get("probe") else []

        assert history.describe("damage", public)["text"] == f"{before} · probe clause"
        assert history.describe("damage", {**public, "probe": False})["text"] == before


def test_a_kind_has_one_line_unless_replaced_on_purpose() -> None:
    with pytest.raises(ValueError, match="damage"):
        history.register("damage", lambda public, name: "twice")
    with pytest.raises(ValueError, match="probe_none"):
        history.register("probe_none", lambda public, name: "", replace=True)

    public = {"name": "甲", "amount": 1, "hp": 0}
    with translation.override("en"):
        before = history.describe("damage", public)["text"]
        plain = history.line_of("damage")
        history.register("damage", lambda p, name: "varied: " + plain(p, name), replace=True)
        # The kind's clauses (the 桃 still needed) stay after the varied line.
        assert history.describe("damage", public)["text"] == f"varied: {before}"
        assert "needs 1 Peach" in before
