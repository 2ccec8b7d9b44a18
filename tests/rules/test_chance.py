"""The app's one source of chance (companion/rules/chance.py): the OS's secure source in
production, a per-test seed in the tests, and no way for a running server to be seeded."""

from __future__ import annotations

import os
import random
import re
import secrets
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.games.afterlife.rules import draw
from companion.games.draft.rules import Draft
from companion.games.house import rules as house
from companion.rules import box, chance, heroes, identities, modes
from tests.conftest import SEED_SALT

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def production(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside the tests' seeding (tests/conftest.py), as in production."""
    monkeypatch.setattr(chance, "_pinned", None)


def test_production_source_is_the_os_secure_source(production: None) -> None:
    assert not chance.is_seeded()
    first, second = chance.source(), chance.source()
    assert type(first) is secrets.SystemRandom
    assert isinstance(first, random.SystemRandom)
    assert first is not second
    # The OS's source cannot be seeded into repeating itself.
    first.seed(1)
    second.seed(1)
    assert [first.random() for _ in range(4)] != [second.random() for _ in range(4)]


class Spy(random.Random):
    """The source, counting the draws made from it."""

    def __init__(self) -> None:
        super().__init__(3)
        self.uses = 0

    def random(self) -> float:
        self.uses += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.uses += 1
        return super().getrandbits(k)


def _draft(mode: str) -> Draft:
    plan = modes.get(mode).draft_plan()
    assert plan is not None
    return Draft.deal(plan, [f"H{i:03d}" for i in range(plan.pool_size)])


DRAWS = {
    "identities": lambda: identities.deal_identities(8),
    "identities_fixed_lord": lambda: identities.deal_identities_fixed_lord(8, 2),
    "lord_candidates": lambda: heroes.lord_candidates(),
    "hero_candidates": lambda: heroes.deal_candidates(taken=[], player_count=5, non_lord_count=4),
    "box_lord_offer": lambda: box.lord_offer(box.Box()),
    "lord_pack_offer": lambda: house.lord_pack_offer(box.Box()),
    "box_candidates": lambda: box.deal_candidates(box.Box(), taken=[], player_count=5, count=4),
    "rebirth": lambda: draw.rebirth_hero(box.Box(), old_hero="WEI001", held=["WEI001"]),
    "threes_cards": lambda: modes.get("threes").deal(6, modes.TableOptions()),
    "duel_cards": lambda: modes.get("duel").deal(2, modes.TableOptions()),
    "threes_draft": lambda: _draft("threes"),
    "duel_draft": lambda: _draft("duel"),
}


@pytest.mark.parametrize("name", DRAWS)
def test_every_draw_without_rng_takes_the_source(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy()
    monkeypatch.setattr(chance, "source", lambda: spy)
    DRAWS[name]()
    assert spy.uses > 0


def test_a_test_draws_from_its_own_id(request: pytest.FixtureRequest) -> None:
    assert chance.is_seeded()
    own = random.Random(f"{SEED_SALT}:{request.node.nodeid}")  # noqa: S311
    assert identities.deal_identities(10) == identities.deal_identities(10, rng=own)


def test_seeded_repeats_and_gives_the_previous_source_back() -> None:
    before = chance.source()
    with chance.seeded("a"):
        first = [identities.deal_identities(10) for _ in range(5)]
    assert chance.source() is before
    with chance.seeded("a"):
        again = [identities.deal_identities(10) for _ in range(5)]
    with chance.seeded("b"):
        other = [identities.deal_identities(10) for _ in range(5)]
    assert first == again
    assert first != other
    assert Counter(first[0]) == Counter(identities.distribution(10))


def test_no_module_of_the_app_seeds_the_source() -> None:
    """Only the tests call `seeded`; the app and the bench never do, nor read a seed."""
    callers = [
        path.relative_to(BASE_DIR)
        for folder in ("companion", "bench")
        for path in (BASE_DIR / folder).rglob("*.py")
        if path.name != "chance.py"
        and re.search(r"\bseeded\(|_pinned|SGS_TEST_SEED", path.read_text(encoding="utf-8"))
    ]
    assert callers == []


def test_a_production_server_is_not_seeded(tmp_path: Path) -> None:
    """The real settings and the whole app loaded, the tests' seed variable set: still the OS's
    source."""
    script = (
        "import django, secrets\n"
        "django.setup()\n"
        "import companion.asgi, companion.urls\n"
        "from companion.rules import chance\n"
        "assert not chance.is_seeded()\n"
        "assert type(chance.source()) is secrets.SystemRandom\n"
        "print('os source')\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "companion.settings",
        "DATA_DIR": str(tmp_path),
        "SGS_TEST_SEED": "1",
    }
    for name in ("DB", "REDIS_URL", "SQLITE_PATH"):
        env.pop(name, None)
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", script],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "os source"


def test_every_draw_of_the_app_goes_through_the_source() -> None:
    """No module draws from `secrets.SystemRandom` or the `random` module's shared generator
    itself: it would escape both the OS's source and the tests' seed."""
    direct = re.compile(
        r"SystemRandom\(|\brandom\.(shuffle|choice|choices|sample|randrange|randint|random|uniform)\("
    )
    drawers = [
        path.relative_to(BASE_DIR)
        for path in (BASE_DIR / "companion").rglob("*.py")
        if path.name != "chance.py" and direct.search(path.read_text(encoding="utf-8"))
    ]
    assert drawers == []
