"""Test settings: the real settings (embedded or PostgreSQL/Redis, by environment) with plain
static files storage, so tests need no collectstatic, and a test database of this process's own."""

import os
import tempfile

from companion.settings import *  # noqa: F403
from companion.settings import DATABASES, STORAGES

STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}

if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not memory: transactional tests use several threads and connections.
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"sgs-test-{os.getpid()}.sqlite3")
    }
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_sgs_{os.getpid()}"}
    # Threads of database_sync_to_async must not keep the test database open at teardown.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
