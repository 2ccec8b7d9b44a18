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
