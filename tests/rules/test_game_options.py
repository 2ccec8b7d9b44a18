"""An option a game package declares for some modes only (`modes.add_option(name, modes=...)`):
it joins the options of those modes (their class names its mode, `TableOptions.MODE`) and of no
other, with its place in the form, whether it may change in play, the options it does not go
with (named as data) and its rule about the number of players; the stored options of a table
read as before."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest

from companion.games.identity.rules import IdentityGameOptions
from companion.rules import modes
from companion.rules.modes import (
    Clash,
    Mode,
    OptionRefusal,
    OptionsError,
    OptionsRefused,
    TableOptions,
)


@dataclass(frozen=True)
class ProbeOptions(TableOptions):
    own_flag: bool = False

    MODE: ClassVar[str] = "probe"


@dataclass(frozen=True)
class OtherOptions(TableOptions):
    MODE: ClassVar[str] = "other"


def few_seats(options: TableOptions, seat_count: int) -> OptionRefusal | None:
    if seat_count < 5:
        return OptionRefusal("probe_rule", "probe_few", "Five players or more.")
    return None


@pytest.fixture
def declared() -> Iterator[None]:
    modes.add_option("probe_late", modes=("probe",), variant=True, place=20, live=True)
    modes.add_option(
        "probe_rule",
        modes=("probe",),
        variant=True,
        place=10,
        clashes=(
            Clash("own_flag", "probe_own", "Not with its own flag."),
            Clash("probe_late", "probe_late", "Not with the late one."),
        ),
        seats=few_seats,
    )
    modes.add_option("probe_plain", modes=("probe", "other"))
    yield
    for name in ("probe_late", "probe_rule", "probe_plain"):
        modes.remove_option(name)


@pytest.mark.usefixtures("declared")
def test_an_option_declared_for_a_mode_joins_its_options_only_in_its_place() -> None:
    assert ProbeOptions.names()[:3] == ("own_flag", "probe_rule", "probe_late")
    assert ProbeOptions.names()[-1] == "referee_mode"
    assert ProbeOptions.variants() == ("probe_rule", "probe_late")
    assert "probe_plain" in ProbeOptions.names() and "probe_plain" in OtherOptions.names()
    assert not {"probe_rule", "probe_late"} & set(OtherOptions.names())
    assert not {"probe_rule", "probe_late", "probe_plain"} & set(TableOptions.names())
    assert not {"probe_rule", "probe_late", "probe_plain"} & set(IdentityGameOptions.names())
    with pytest.raises(OptionsError, match="unknown options: probe_rule"):
        OtherOptions.parse({"probe_rule": True})
    assert not OtherOptions.parse({}).flag("probe_rule")
    options = ProbeOptions.parse({"probe_rule": True})
    assert options.flag("probe_rule") and options.variants_on() == ("probe_rule",)
    assert ProbeOptions.parse(options.stored()) == options
    assert ProbeOptions.live() == {"referee_mode", "probe_late"}
    with pytest.raises(TypeError, match="keys, not one string"):
        modes.add_option("probe_typo", modes="probe")
    assert "probe_typo" not in modes.game_options()


@pytest.mark.usefixtures("declared")
def test_its_clashes_are_refused_naming_the_first_of_the_two_in_the_form() -> None:
    with pytest.raises(OptionsRefused) as caught:
        ProbeOptions.parse({"probe_rule": True, "own_flag": True})
    assert caught.value.refusal == OptionRefusal(
        "probe_rule", "probe_own", "Not with its own flag."
    )
    with pytest.raises(OptionsRefused) as caught:
        ProbeOptions.parse({"probe_late": True}).with_changes({"probe_rule": True})
    assert (caught.value.refusal.option, caught.value.refusal.code) == ("probe_rule", "probe_late")
    # Either of the two alone is no clash; the rule about the players only at a count.
    assert ProbeOptions.parse({"own_flag": True, "probe_late": True}).refusals() == ()
    alone = ProbeOptions.parse({"probe_rule": True})
    assert alone.refusals() == () and alone.refusals(5) == ()
    assert [r.code for r in alone.refusals(4)] == ["probe_few"]
    assert ProbeOptions.parse({}).refusals(4) == ()


def test_declaring_again_replaces_and_a_parse_kept_before_is_not_reused() -> None:
    class ProbeMode(Mode):
        key: ClassVar[str] = "probe"
        min_players: ClassVar[int] = 2
        max_players: ClassVar[int] = 4
        options_type: ClassVar[type[TableOptions]] = ProbeOptions

    modes.register(ProbeMode())
    try:
        assert modes.options_of("probe", {}).stored() == {"own_flag": False, **_every()}
        modes.add_option("probe_late", modes=("probe",))
        assert "probe_late" in modes.options_of("probe", {}).stored()
        assert ProbeOptions.live() == {"referee_mode"}
        modes.add_option("probe_late", modes=("probe",), live=True)
        assert ProbeOptions.live() == {"referee_mode", "probe_late"}
    finally:
        modes.remove_option("probe_late")
        modes._MODES.pop("probe")  # noqa: SLF001 - the test's own mode


def _every() -> dict[str, bool]:
    return dict.fromkeys(TableOptions.names(), False)


def test_a_mode_whose_options_name_another_mode_is_refused() -> None:
    class Mislabelled(Mode):
        key: ClassVar[str] = "mislabelled"
        options_type: ClassVar[type[TableOptions]] = OtherOptions

    with pytest.raises(ValueError, match="mislabelled"):
        modes.register(Mislabelled())
    assert "mislabelled" not in modes.keys()
