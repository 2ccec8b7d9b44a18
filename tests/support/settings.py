"""Test settings: the real settings (embedded or PostgreSQL/Redis, by environment) with plain
static files storage, so tests need no collectstatic, and a test database of this process's own."""

import os
import re
import tempfile

# Several test processes at once (pytest-xdist, ./scripts/test): each worker gets its own Redis
# database number, so one worker's `cache.clear()` (FLUSHDB) never empties another's cache, and
# with it its own channel prefix (companion.settings.channel_prefix hashes the number) and the
# servers it starts (they inherit the environment). The test databases are per process already.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and os.environ.get("REDIS_URL"):
    _number = 1 + int(re.sub(r"\D", "", _worker) or 0)
    os.environ["REDIS_URL"] = re.sub(r"(/\d+)?$", f"/{_number}", os.environ["REDIS_URL"], count=1)

from companion.settings import *  # noqa: E402, F403
from companion.settings import DATABASES, STORAGES  # noqa: E402

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
