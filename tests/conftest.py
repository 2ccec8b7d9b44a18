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
