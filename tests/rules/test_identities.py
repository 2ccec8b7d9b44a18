"""Tests for identity distribution, dealing and visibility (docs/rules.md §1)."""

from __future__ import annotations

import itertools
import random
import secrets
from collections import Counter
from collections.abc import Callable

import pytest

from companion.rules import chance
from companion.rules.identities import (
    Identity,
    IdentityOptions,
    can_see_identity,
    deal_identities,
    deal_identities_fixed_lord,
    distribution,
)

LORD, LOYALIST, REBEL, RENEGADE = (
    Identity.LORD,
    Identity.LOYALIST,
    Identity.REBEL,
    Identity.RENEGADE,
)

# docs/rules.md §1 table, written out as (lord, loyalist, rebel, renegade).
TABLE = {
    4: (1, 1, 1, 1),
    5: (1, 1, 2, 1),
    6: (1, 1, 3, 1),
    7: (1, 2, 3, 1),
    8: (1, 2, 4, 1),
    9: (1, 3, 4, 1),
    10: (1, 3, 4, 2),
}
SIX_TWO_RENEGADES = (1, 1, 2, 2)
EIGHT_TWO_RENEGADES = (1, 2, 3, 2)

ALL_OPTIONS = [
    IdentityOptions(six_two_renegades=six, eight_two_renegades=eight)
    for six, eight in itertools.product((False, True), repeat=2)
]

# Chi-square critical values at p = 0.001 by degrees of freedom.
CHI2_CRITICAL_P001 = {
    1: 10.828,
    2: 13.816,
    3: 16.266,
    4: 18.467,
    5: 20.515,
    6: 22.458,
    7: 24.322,
    8: 26.124,
    9: 27.877,
    10: 29.588,
    11: 31.264,
    12: 32.909,
    13: 34.528,
    14: 36.123,
    15: 37.697,
    16: 39.252,
    17: 40.790,
    18: 42.312,
    19: 43.820,
    20: 45.315,
    21: 46.797,
    22: 48.268,
    23: 49.728,
    24: 51.179,
    25: 52.620,
    26: 54.052,
    27: 55.476,
}
DEALS = 10_000


def expected_counts(player_count: int, options: IdentityOptions) -> dict[Identity, int]:
    """Return the docs/rules.md §1 table row for this game, option applied."""
    row = TABLE[player_count]
    if player_count == 6 and options.six_two_renegades:
        row = SIX_TWO_RENEGADES
    if player_count == 8 and options.eight_two_renegades:
        row = EIGHT_TWO_RENEGADES
    return dict(zip((LORD, LOYALIST, REBEL, RENEGADE), row, strict=True))


def chi_square(observed: list[int], expected: list[float]) -> float:
    """Return Pearson's chi-square statistic."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def seat_statistics(
    dealer: Callable[[random.Random], list[Identity]],
    player_count: int,
    counts: dict[Identity, int],
    seed: int,
) -> tuple[list[float], float]:
    """Deal DEALS times; return each seat's chi-square statistic and the whole-table one."""
    rng = random.Random(seed)
    tallies = [Counter[Identity]() for _ in range(player_count)]
    for _ in range(DEALS):
        for seat, identity in enumerate(dealer(rng)):
            tallies[seat][identity] += 1
    kinds = [identity for identity in Identity if counts[identity]]
    per_seat = []
    for tally in tallies:
        observed = [tally[identity] for identity in kinds]
        expected = [DEALS * counts[identity] / player_count for identity in kinds]
        per_seat.append(chi_square(observed, expected))
    return per_seat, sum(per_seat)


# ---------------------------------------------------------------- distribution


@pytest.mark.parametrize("player_count", range(4, 11))
@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_distribution_matches_rules_table(player_count: int, options: IdentityOptions) -> None:
    result = distribution(player_count, options)
    assert result == expected_counts(player_count, options)
    assert sum(result.values()) == player_count
    assert result[LORD] == 1
    assert set(result) == set(Identity)


@pytest.mark.parametrize("player_count", range(4, 11))
def test_distribution_default_options(player_count: int) -> None:
    assert distribution(player_count) == expected_counts(player_count, IdentityOptions())


def test_six_player_option_gives_two_renegades() -> None:
    default = distribution(6)
    option = distribution(6, IdentityOptions(six_two_renegades=True))
    assert (default[REBEL], default[RENEGADE]) == (3, 1)
    assert (option[LOYALIST], option[REBEL], option[RENEGADE]) == (1, 2, 2)


def test_eight_player_option_gives_two_renegades() -> None:
    default = distribution(8)
    option = distribution(8, IdentityOptions(eight_two_renegades=True))
    assert (default[REBEL], default[RENEGADE]) == (4, 1)
    assert (option[LOYALIST], option[REBEL], option[RENEGADE]) == (2, 3, 2)


@pytest.mark.parametrize("player_count", [4, 5, 7, 9, 10])
def test_two_renegade_options_only_touch_their_own_player_count(player_count: int) -> None:
    both = IdentityOptions(six_two_renegades=True, eight_two_renegades=True)
    assert distribution(player_count, both) == distribution(player_count)


@pytest.mark.parametrize("player_count", [-1, 0, 1, 2, 3, 11, 12, 100])
def test_distribution_rejects_unsupported_player_counts(player_count: int) -> None:
    with pytest.raises(ValueError):
        distribution(player_count)


@pytest.mark.parametrize("player_count", [3, 11])
def test_dealing_rejects_unsupported_player_counts(player_count: int) -> None:
    with pytest.raises(ValueError):
        deal_identities(player_count, rng=random.Random(1))
    with pytest.raises(ValueError):
        deal_identities_fixed_lord(player_count, 0, rng=random.Random(1))


# ---------------------------------------------------------------- dealing


@pytest.mark.parametrize("player_count", range(4, 11))
@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_deal_has_the_right_cards(player_count: int, options: IdentityOptions) -> None:
    rng = random.Random(player_count)
    for _ in range(50):
        dealt = deal_identities(player_count, options, rng)
        assert len(dealt) == player_count
        assert all(isinstance(identity, Identity) for identity in dealt)
        assert Counter(dealt) == Counter(
            {k: v for k, v in expected_counts(player_count, options).items() if v}
        )


def test_deal_is_reproducible_with_a_seeded_rng() -> None:
    first = [deal_identities(8, rng=random.Random(42)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng = random.Random(42)
    deals = {tuple(deal_identities(8, rng=rng)) for _ in range(200)}
    assert len(deals) > 100


UNIFORMITY_CASES = [(n, IdentityOptions()) for n in range(4, 11)] + [
    (6, IdentityOptions(six_two_renegades=True)),
    (8, IdentityOptions(eight_two_renegades=True)),
]


@pytest.mark.parametrize(("player_count", "options"), UNIFORMITY_CASES)
def test_deal_is_uniform_over_seats(player_count: int, options: IdentityOptions) -> None:
    counts = expected_counts(player_count, options)
    kinds = sum(1 for v in counts.values() if v)
    per_seat, whole = seat_statistics(
        lambda rng: deal_identities(player_count, options, rng), player_count, counts, seed=2024
    )
    for seat, statistic in enumerate(per_seat):
        assert statistic < CHI2_CRITICAL_P001[kinds - 1], (seat, statistic)
    # Each deal fixes both the seat totals and the identity totals.
    assert whole < CHI2_CRITICAL_P001[(player_count - 1) * (kinds - 1)], whole


@pytest.mark.parametrize("player_count", [4, 7, 10])
def test_uniformity_check_rejects_a_biased_dealer(player_count: int) -> None:
    counts = expected_counts(player_count, IdentityOptions())
    kinds = sum(1 for v in counts.values() if v)

    def naive_swap_dealer(rng: random.Random) -> list[Identity]:
        cards = [identity for identity, count in counts.items() for _ in range(count)]
        # The classic wrong shuffle: swapping with any position is not uniform.
        for i in range(player_count):
            j = rng.randrange(player_count)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    per_seat, _ = seat_statistics(naive_swap_dealer, player_count, counts, seed=2024)
    assert max(per_seat) > CHI2_CRITICAL_P001[kinds - 1]


class SpyRandom(random.Random):
    """A stand-in for SystemRandom that records its creation and use."""

    created: list[SpyRandom] = []

    def __init__(self, *args: object) -> None:
        super().__init__(7)
        self.calls = 0
        SpyRandom.created.append(self)

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        return super().getrandbits(k)

    def random(self) -> float:
        self.calls += 1
        return super().random()


@pytest.fixture
def spy_rng(monkeypatch: pytest.MonkeyPatch) -> type[SpyRandom]:
    SpyRandom.created = []
    monkeypatch.setattr(secrets, "SystemRandom", SpyRandom)
    # Outside the tests' seeding (tests/conftest.py), as in production.
    monkeypatch.setattr(chance, "_pinned", None)
    return SpyRandom


def test_default_rng_is_secrets_system_random(spy_rng: type[SpyRandom]) -> None:
    dealt = deal_identities(8)
    assert len(spy_rng.created) == 1
    assert spy_rng.created[0].calls > 0
    assert Counter(dealt) == Counter(distribution(8))


def test_fixed_lord_default_rng_is_secrets_system_random(spy_rng: type[SpyRandom]) -> None:
    dealt = deal_identities_fixed_lord(8, 3)
    assert len(spy_rng.created) == 1
    assert spy_rng.created[0].calls > 0
    assert dealt[3] == LORD


def test_explicit_rng_bypasses_system_random(spy_rng: type[SpyRandom]) -> None:
    deal_identities(8, rng=random.Random(3))
    deal_identities_fixed_lord(8, 0, rng=random.Random(3))
    assert spy_rng.created == []


def test_secrets_system_random_is_the_os_rng() -> None:
    assert issubclass(secrets.SystemRandom, random.SystemRandom)
    assert len(deal_identities(10)) == 10


# ---------------------------------------------------------------- fixed lord (tournament)


@pytest.mark.parametrize(
    ("player_count", "lord_index"),
    [(n, i) for n in range(4, 11) for i in range(n)],
)
def test_fixed_lord_sits_at_lord_index(player_count: int, lord_index: int) -> None:
    rng = random.Random(lord_index)
    for _ in range(20):
        dealt = deal_identities_fixed_lord(player_count, lord_index, rng=rng)
        assert dealt[lord_index] == LORD
        assert dealt.count(LORD) == 1
        assert Counter(dealt) == Counter({k: v for k, v in distribution(player_count).items() if v})


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_fixed_lord_honours_options(options: IdentityOptions) -> None:
    for player_count in (6, 8):
        dealt = deal_identities_fixed_lord(player_count, 2, options, random.Random(5))
        assert Counter(dealt) == Counter(
            {k: v for k, v in expected_counts(player_count, options).items() if v}
        )


@pytest.mark.parametrize("lord_index", [-1, 7, 8])
def test_fixed_lord_rejects_bad_index(lord_index: int) -> None:
    with pytest.raises(ValueError):
        deal_identities_fixed_lord(7, lord_index, rng=random.Random(1))


@pytest.mark.parametrize(("player_count", "lord_index"), [(5, 0), (7, 3), (10, 9)])
def test_fixed_lord_deals_the_rest_uniformly(player_count: int, lord_index: int) -> None:
    counts = distribution(player_count)
    others = {identity: count for identity, count in counts.items() if identity != LORD}
    kinds = [identity for identity in Identity if others.get(identity)]
    rng = random.Random(99)
    tallies = [Counter[Identity]() for _ in range(player_count)]
    for _ in range(DEALS):
        for seat, identity in enumerate(
            deal_identities_fixed_lord(player_count, lord_index, rng=rng)
        ):
            tallies[seat][identity] += 1
    assert tallies[lord_index][LORD] == DEALS
    for seat, tally in enumerate(tallies):
        if seat == lord_index:
            continue
        assert tally[LORD] == 0
        observed = [tally[identity] for identity in kinds]
        expected = [DEALS * others[identity] / (player_count - 1) for identity in kinds]
        assert chi_square(observed, expected) < CHI2_CRITICAL_P001[len(kinds) - 1], seat


# ---------------------------------------------------------------- visibility


def visibility_cases() -> list[tuple[bool, Identity | None, Identity, bool, bool]]:
    cases = []
    for viewer_is_target, viewer, target, alive, over in itertools.product(
        (False, True), (None, *Identity), Identity, (False, True), (False, True)
    ):
        if viewer_is_target and viewer != target:
            continue  # a phone looking at its own seat has that seat's identity
        cases.append((viewer_is_target, viewer, target, alive, over))
    return cases


@pytest.mark.parametrize(
    ("viewer_is_target", "viewer", "target", "alive", "over"), visibility_cases()
)
def test_visibility_every_combination(
    viewer_is_target: bool,
    viewer: Identity | None,
    target: Identity,
    alive: bool,
    over: bool,
) -> None:
    reasons = {
        "own seat": viewer_is_target,
        "the lord is public": target == LORD,
        "dead players are revealed": not alive,
        "everything is revealed at the end": over,
    }
    expected = any(reasons.values())
    assert (
        can_see_identity(
            viewer_is_target=viewer_is_target,
            viewer_identity=viewer,
            target_identity=target,
            target_alive=alive,
            game_over=over,
        )
        is expected
    ), reasons


@pytest.mark.parametrize("viewer", [None, *Identity])
@pytest.mark.parametrize("target", [LOYALIST, REBEL, RENEGADE])
def test_hidden_identities_stay_hidden_by_default(
    viewer: Identity | None, target: Identity
) -> None:
    assert not can_see_identity(
        viewer_is_target=False,
        viewer_identity=viewer,
        target_identity=target,
        target_alive=True,
        game_over=False,
    )


def test_public_display_sees_the_lord_and_the_dead_only() -> None:
    def public(target: Identity, alive: bool) -> bool:
        return can_see_identity(
            viewer_is_target=False,
            viewer_identity=None,
            target_identity=target,
            target_alive=alive,
            game_over=False,
        )

    assert public(LORD, True)
    assert public(REBEL, False)
    assert not public(REBEL, True)
    assert not public(RENEGADE, True)


def test_can_see_identity_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        can_see_identity(False, None, LORD, True, False)  # type: ignore[misc]
