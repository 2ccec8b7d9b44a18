"""Shared fixtures. Django is imported lazily so tests/rules also runs with `-p no:django`."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from companion.rules import chance, modes


def pytest_configure(config: pytest.Config) -> None:
    """Without pytest-django (`-p no:django`: the rules alone) no app is made ready: the identity
    game's mode, the default, is registered as its app registers it (its rules are plain
    Python)."""
    if not config.pluginmanager.has_plugin("django"):
        from companion.games.identity.rules import IdentityMode

        modes.register(IdentityMode())


# Mixed into every test's seed, to try the suite under other draws (`SGS_TEST_SEED=2 pytest ...`);
# read here only: the app itself never takes a seed from the environment.
SEED_SALT = os.environ.get("SGS_TEST_SEED", "")


@pytest.fixture(autouse=True)
def _seeded_chance(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every draw the app makes in a test (identities, hero offers, the draft, rebirth) comes
    from a generator seeded with the test's own id: the same draw each run and whatever ran
    before it, a different one for each test. The OS's source is back after the test."""
    with chance.seeded(f"{SEED_SALT}:{request.node.nodeid}"):
        yield


@pytest.fixture(autouse=True)
def _clear_cache(request: pytest.FixtureRequest) -> None:
    if not request.config.pluginmanager.has_plugin("django"):
        return
    from django.conf import settings

    if not settings.configured:
        return
    from django.core.cache import cache

    cache.clear()
    # The test client leaves the last request's language active: start every test in the
    # default language, so no test depends on which one ran before it.
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session", autouse=True)
def _stop_db_thread(request: pytest.FixtureRequest) -> object:
    """Close the websocket taps' database thread (and its connection) before the test database
    is dropped: PostgreSQL refuses to drop a database somebody is connected to."""
    if not request.config.pluginmanager.has_plugin("django"):
        yield None
        return
    request.getfixturevalue("django_db_setup")
    yield None
    from companion.infra import dbthread

    blocker = request.getfixturevalue("django_db_blocker")
    with blocker.unblock():
        dbthread.shutdown()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last. Playwright's sync API marks its own event loop as the main
    thread's running loop between calls (its session-wide browser stays open to the end), and
    pytest-asyncio cannot start a test's loop while one is marked running: an async test after
    a browser test would fail with "Runner.run() cannot be called from a running event loop".

    Among the browser tests, the longest go first (`LONGEST_BROWSER_MODULES`): the test
    processes take tests in this order as they free up, so the last ones handed out are short
    and no process is left running a long test while the others sit idle."""
    items.sort(key=_run_order)


# The browser test modules whose tests take longest (--durations, docs/performance.md), longest
# first. The order only moves them ahead of the other browser tests; a module missing here, or
# gone, changes nothing but the pass's tail.
LONGEST_BROWSER_MODULES = (
    "test_threes_game",
    "test_end_of_night",
    "test_phone_fit",
    "test_big_tables",
    "test_mode_cards",
    "test_judge",
    "test_variantplay_last_three",
    "test_turns_flow",
    "test_secrets",
    "test_lang",
    "test_game_flow_whole",
    "test_table_flow_whole",
    "test_help",
    "test_session_flow",
)


def _run_order(item: pytest.Item) -> tuple[bool, int]:
    if item.get_closest_marker("browser") is None:
        return (False, 0)
    module = item.nodeid.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py")
    if module in LONGEST_BROWSER_MODULES:
        return (True, LONGEST_BROWSER_MODULES.index(module))
    return (True, len(LONGEST_BROWSER_MODULES))
