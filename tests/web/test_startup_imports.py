"""A server process pays at start-up only for what it uses: the rules-help search's pinyin
library (pypinyin, tens of MiB of dictionaries) is imported by the first search, not by the
app's modules. Checked in a fresh interpreter, where nothing else has imported it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]

# The app as `manage.py play` loads it: settings, the ASGI application (HTTP and websocket
# routing), every URL's view, and a page's template tags.
PROBE = """
import sys
import companion.asgi
import django.urls
from django.template import engines

resolver = django.urls.get_resolver()
resolver.url_patterns  # imports every view module
for engine in engines.all():
    engine.engine.template_libraries  # every template tag library
print("before", "pypinyin" in sys.modules)
from companion.rules import help as rules_help

assert [e.key for e in rules_help.search("bagua")][:1] == ["card:八卦阵"]
print("after", "pypinyin" in sys.modules)
"""


def test_the_app_imports_the_pinyin_library_only_when_the_help_search_needs_it(
    tmp_path: Path,
) -> None:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DB", "REDIS_URL", "PYTEST_XDIST_WORKER")
    }
    env.update(DJANGO_SETTINGS_MODULE="companion.settings", DATA_DIR=str(tmp_path))
    done = subprocess.run(  # noqa: S603 - this interpreter, a fixed script
        [sys.executable, "-c", PROBE],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["before", "False", "after", "True"], done.stdout
