"""What-if settings for `bench/run.py --settings bench.settings_no_persistent_db`: the app's
own settings with persistent database connections switched off (CONN_MAX_AGE=0).

Django's documentation: "When using ASGI, persistent connections should be disabled." Each
request runs in a thread of its own, so with CONN_MAX_AGE=60 every request leaves a PostgreSQL
connection behind until it ages out, and a busy server runs out of connections ("FATAL: sorry,
too many clients already"). This module lets the benchmark measure the change before the app
makes it; it is not used by the app.
"""

from companion.settings import *  # noqa: F403
from companion.settings import DATABASES

DATABASES["default"]["CONN_MAX_AGE"] = 0
