"""The identity game's variant options (docs/rules.md §9, docs/variants.md): off by default, each a
flag of `IdentityGameOptions`, refused with a reason when it does not fit another option or
the number of players."""

from __future__ import annotations

import itertools

import pytest

from companion.games.identity.rules import IdentityGameOptions
from companion.rules import modes
from companion.rules.identities import Identity
from companion.rules.modes import OptionsError, OptionsRefused

VARIANTS = (
    "rebirth",
    "dark_souls",
    "first_out_protection",
    "last_three",
    "lord_pack",
    "rebels_know_each_other",
    "lord_five_cards",
)
CLASHES = {
    frozenset({"rebirth", "dark_souls"}): ("rebirth", "rebirth_dark_souls"),
    frozenset({"rebirth", "first_game_mode"}): ("rebirth", "rebirth_first_game"),
    frozenset({"dark_souls", "first_out_protection"}): ("dark_souls", "protection_dark_souls"),
    frozenset({"lord_pack", "first_game_mode"}): ("lord_pack", "lord_pack_first_game"),
}


def identity(raw: dict[str, bool]) -> IdentityGameOptions:
    options = modes.get("identity").options(raw)
    assert isinstance(options, IdentityGameOptions)
    return options


def test_every_variant_is_off_by_default_and_an_existing_table_reads_as_before() -> None:
    old = {
        "six_two_renegades": True,
        "eight_two_renegades": False,
        "first_game_mode": False,
        "maneuvering": True,
        "referee_mode": False,
    }
    options = identity(old)
    assert options.variants_on() == ()
    assert all(getattr(options, name) is False for name in VARIANTS)
    assert {k: v for k, v in options.stored().items() if k in old} == old
    assert IdentityGameOptions.variants() == VARIANTS
    assert options.refusals() == () and all(options.refusals(n) == () for n in range(4, 11))


@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_alone_is_a_flag_that_round_trips(name: str) -> None:
    options = identity({name: True})
    assert options.variants_on() == (name,)
    assert identity(options.stored()) == options
    with pytest.raises(OptionsError, match="true or false"):
        identity({name: "on"})  # type: ignore[dict-item]


@pytest.mark.parametrize("pair", list(itertools.combinations(("first_game_mode", *VARIANTS), 2)))
def test_two_options_that_exclude_each_other_are_refused_with_the_reason(
    pair: tuple[str, str],
) -> None:
    raw = dict.fromkeys(pair, True)
    clash = CLASHES.get(frozenset(pair))
    if clash is None:
        assert identity(raw).refusals() == ()
        return
    with pytest.raises(OptionsRefused) as caught:
        identity(raw)
    option, code = clash
    assert (caught.value.refusal.option, caught.value.refusal.code) == (option, code)
    assert caught.value.refusal.reason and str(caught.value) == caught.value.refusal.reason
    # Changing one option into a clash is refused the same way; the table keeps its options.
    first, second = pair
    with pytest.raises(OptionsRefused):
        identity({first: True}).with_changes({second: True})


def test_the_reasons_name_what_clashes() -> None:
    with pytest.raises(OptionsRefused, match="Rebirth and dark souls"):
        identity({"rebirth": True, "dark_souls": True})
    with pytest.raises(OptionsRefused, match="without dark souls"):
        identity({"dark_souls": True, "first_out_protection": True})
    with pytest.raises(OptionsRefused, match="without heroes"):
        identity({"lord_pack": True, "first_game_mode": True})


@pytest.mark.parametrize("count", range(4, 11))
def test_rebirth_and_the_other_variants_fit_every_table_from_four(count: int) -> None:
    """Decided: rebirth is allowed at 4 players (docs/rules.md §9.1 gives its threshold for 4–5), and
    dark souls, protection, the lord pack and the lord's five cards fit any count."""
    for name in ("rebirth", "dark_souls", "first_out_protection", "lord_pack", "lord_five_cards"):
        assert identity({name: True}).refusals(count) == ()


@pytest.mark.parametrize("count", range(4, 11))
def test_the_last_three_rule_fits_every_table_from_four(count: int) -> None:
    """docs/rules.md §9.4: "It applies at every table size from 4, whenever exactly three players are
    alive"."""
    assert identity({"last_three": True}).refusals(count) == ()


@pytest.mark.parametrize("count", range(4, 11))
@pytest.mark.parametrize("two_renegades", [False, True])
def test_rebels_who_know_each_other_need_two_rebels(count: int, two_renegades: bool) -> None:
    options = identity(
        {
            "rebels_know_each_other": True,
            "six_two_renegades": two_renegades,
            "eight_two_renegades": two_renegades,
        }
    )
    rebels = modes.get("identity").identity_counts(count, options)[Identity.REBEL]
    refused = options.refusals(count)
    assert (refused != ()) == (rebels < 2) == (count == 4)
    if refused:
        assert refused[0].code == "rebels_know_one_rebel"


def test_the_variants_are_fixed_once_dealt() -> None:
    assert identity({}).live() == frozenset({"referee_mode"})


@pytest.mark.parametrize("count", [0, 3, 11])
def test_a_count_no_deal_allows_refuses_nothing_about_rebels(count: int) -> None:
    options = identity({"rebels_know_each_other": True, "last_three": True})
    codes = [r.code for r in options.refusals(count)]
    assert "rebels_know_one_rebel" not in codes
    assert codes == []
