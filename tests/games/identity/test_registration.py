"""The identity game is a game package: its app registers its mode and its words when ready, the
core names it by its key only; and what the core builds from every mode (the options tap's
flags, the export's score columns) asks the registry when it runs, so a mode registered after
the core's modules were imported is in them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from django.conf import settings
from django.http import QueryDict
from django.utils import translation

from companion.games.identity.rules import IdentityGameOptions, IdentityMode
from companion.read import session_export
from companion.rules import modes
from companion.rules.modes import Mode, TableOptions
from companion.web import forms
from companion.words.labels import mode_choices, seats_needed, side_label
from companion.words.variants import OPTIONS, VARIANTS


def test_its_app_registers_the_default_mode_and_its_words() -> None:
    assert settings.GAMES[0] == "companion.games.identity"
    assert type(modes.get(modes.DEFAULT)) is IdentityMode
    assert modes.get(modes.DEFAULT).options_type is IdentityGameOptions
    assert modes.keys()[0] == modes.DEFAULT
    with translation.override("en"):
        assert mode_choices()[0] == ("identity", "Identity game", "4 to 10 players; a public lord.")
        assert side_label("rebels") == "The Rebels win"
        assert seats_needed("identity") == "Identities need 4 to 10 players."
    assert set(IdentityGameOptions.variants()) <= set(VARIANTS)
    assert {"six_two_renegades", "first_game_mode", "maneuvering"} <= set(OPTIONS)


@dataclass(frozen=True)
class LateOptions(TableOptions):
    late_flag: bool = False


class LateMode(Mode):
    key: ClassVar[str] = "late"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    options_type: ClassVar[type[TableOptions]] = LateOptions
    score_codes: ClassVar[tuple[str, ...]] = ("late_code",)


@pytest.fixture
def late(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(modes._MODES, LateMode.key, LateMode())  # noqa: SLF001 - for the test


@pytest.mark.usefixtures("late")
def test_a_mode_registered_late_is_in_the_options_tap_and_the_export() -> None:
    data = QueryDict(mutable=True)
    data.setlist("fields", ["late_flag", "rebirth"])
    data["late_flag"] = "1"
    form = forms.bound("options", data)
    assert form.is_valid(), form.errors
    arguments: dict[str, Any] = form.arguments()
    assert arguments == {"options": {"late_flag": True, "rebirth": False}}
    assert "late_code" in session_export.csv_columns()
    assert session_export.csv_columns()[-2:] == ("total", "cumulative")
    # A mode with a range of players and no words of its own: the count from its limits.
    with translation.override("en"):
        assert seats_needed("late") == "Identities need 2 to 3 players."
