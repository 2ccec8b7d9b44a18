"""Shared fixtures. Django is imported lazily so tests/rules also runs with `-p no:django`."""

from __future__ import annotations

import pytest


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
    from companion import dbthread

    blocker = request.getfixturevalue("django_db_blocker")
    with blocker.unblock():
        dbthread.shutdown()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last. Playwright's sync API marks its own event loop as the main
    thread's running loop between calls (its session-wide browser stays open to the end), and
    pytest-asyncio cannot start a test's loop while one is marked running: an async test after
    a browser test would fail with "Runner.run() cannot be called from a running event loop"."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
