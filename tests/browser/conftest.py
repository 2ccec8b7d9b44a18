"""Real-browser fixtures: the real server (`manage.py play`) in a subprocess, Debian's Chromium
driven by Playwright, phone-sized contexts and a table-display context.

These tests talk to the server over HTTP and websockets only: they never use pytest-django's
database, and the server has its own data directory (embedded default) or its own PostgreSQL
database and Redis prefix (when DB=postgres / REDIS_URL are set), removed at the end.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from bench.servers import (
    Server,
    child_env,
    create_database,
    delete_redis_keys,
    drop_database,
    free_ports,
    spawn_play,
    wait_ready,
)

BASE_DIR = Path(__file__).resolve().parents[2]
ARTIFACTS = BASE_DIR / "test-artifacts"
# Debian's Chromium in its old headless shell (package chromium-headless-shell): the same Blink
# as /usr/bin/chromium, without the new headless mode's browser window and its extra renderer
# per page, which made the browser tests take 14:42 instead of 8:43 (docs/performance.md).
# SGS_CHROMIUM=/usr/bin/chromium runs them in the whole browser.
CHROMIUM_CHOICES = (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))
CHROMIUM = Path(
    os.environ.get("SGS_CHROMIUM")
    or next((str(p) for p in CHROMIUM_CHOICES if p.exists()), str(CHROMIUM_CHOICES[-1]))
)
LAN_NAME = "table.test"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # A name for the test server that is not localhost: a phone on the LAN (plain http, not a
    # secure context), as at a real table (tests/browser/test_phone_awake.py).
    f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1",
]
STARTUP_SECONDS = 90
# How long a browser test waits for what it expects: what a phone's user would wait for a busy
# laptop at a real table, and what a test machine shared with other work needs (at a load of 15
# on two cores a tap's answer took over 10 s). A test that passes waits no longer for it.
EXPECT_TIMEOUT_MS = 20_000

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DISPLAY = {"viewport": {"width": 1280, "height": 800}}


class AppBugWarning(UserWarning):
    """An app bug these tests work around (see the message); it needs fixing in the app."""


# ---------------------------------------------------------------------------------------------
# The real server


@dataclass
class AppServer(Server):
    """The one server of the session (bench/servers.py), its log tail longer."""

    tail_chars: int = 4000

    @property
    def base_url(self) -> str:
        return self.base


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium-headless-shell)")
    return str(CHROMIUM)


def server_env(data_dir: Path, *, embedded: bool = False) -> dict[str, str]:
    """A test server's environment: its own data, the test names allowed (the embedded default
    instead of DB and REDIS_URL if asked)."""
    env = child_env(
        dict(
            DJANGO_SETTINGS_MODULE="companion.settings",
            DATA_DIR=str(data_dir),
            STATIC_ROOT=str(data_dir / "static"),
            ALLOWED_HOSTS=f"127.0.0.1,{LAN_NAME}",
            DEBUG="0",
            HTTPS="0",
            PYTHONUNBUFFERED="1",
        ),
        drop=("SQLITE_PATH", *(("DB", "REDIS_URL") if embedded else ())),
    )
    return env


@pytest.fixture(scope="session")
def app_server(
    chromium_executable: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AppServer]:
    """`manage.py play` on a free 127.0.0.1 port, with its own data; stopped at the end."""
    data_dir = tmp_path_factory.mktemp("browser-server")
    suffix = f"{os.getpid()}_{secrets.token_hex(3)}"
    env = server_env(data_dir)
    db_name = ""
    if env.get("DB") == "postgres":
        db_name = f"sgs_browser_{suffix}"
        env["DB_NAME"] = db_name
        create_database(db_name)
    redis_prefix = ""
    if env.get("REDIS_URL"):
        redis_prefix = f"sgsbrowser{suffix}"
        env["REDIS_PREFIX"] = redis_prefix
    server: AppServer | None = None
    try:
        for _attempt in range(3):
            port = free_ports(1)[0]
            log_path = data_dir / f"server-{port}.log"
            proc = spawn_play(port, env, log_path)
            server = AppServer(name="app", port=port, proc=proc, log_path=log_path)
            try:
                wait_ready(server, time.monotonic() + STARTUP_SECONDS)
                break
            except RuntimeError:
                server.stop()
                if "address already in use" not in server.log_tail().lower():
                    raise
        else:
            raise RuntimeError("no free port for the server after 3 attempts")
        yield server
    finally:
        if server is not None:
            server.stop()
        if redis_prefix:
            with contextlib.suppress(Exception):
                delete_redis_keys(env["REDIS_URL"], f"{redis_prefix}:*")
        if db_name:
            drop_database(db_name)


@pytest.fixture(autouse=True)
def _clear_cache() -> None:
    """Overrides tests/conftest.py: these tests share nothing with the in-process cache (with
    Redis, clearing it would flush the server's database too)."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """On a failure, show the end of the server's log next to the traceback."""
    outcome = yield
    report = outcome.get_result()
    server = getattr(item, "funcargs", {}).get("app_server")
    if report.failed and isinstance(server, AppServer):
        report.sections.append(("server log (tail)", server.log_tail()))


# ---------------------------------------------------------------------------------------------
# App bug workaround: Referrer-Policy "no-referrer" makes Chromium send `Origin: null` on every
# POST, which Django's CSRF check refuses (403). htmx taps now pass (they carry X-CSRFToken and
# companion/web/middleware.py NullOriginMiddleware vouches for them); plain form posts do not.

REFERRER_FIX_SCRIPT = """
document.addEventListener('DOMContentLoaded', function () {
  var metas = document.querySelectorAll('meta[name="referrer"]');
  if (!metas.length) {
    var m = document.createElement('meta');
    m.name = 'referrer';
    document.head.appendChild(m);
    metas = [m];
  }
  for (var i = 0; i < metas.length; i++) metas[i].content = 'same-origin';
});
"""


def referrer_bug(base_url: str) -> str:
    """A description of the no-referrer bug if the start page still has it, else ""."""
    with urllib.request.urlopen(base_url + "/", timeout=10) as response:  # noqa: S310
        header = (response.headers.get("Referrer-Policy") or "").strip().lower()
        html = response.read().decode("utf-8", "replace")
    meta = re.search(r'<meta name="referrer" content="([^"]*)"', html)
    meta_policy = meta.group(1).strip().lower() if meta else ""
    policy = meta_policy or header
    if policy != "no-referrer":
        return ""
    return (
        "APP BUG: the start page and the join page use Referrer-Policy no-referrer "
        "(companion/web/views/common.py private_headers()), so Chromium sends `Origin: null` with their plain form "
        "POSTs (New table, Take a seat) and Django's CSRF check answers 403: a real browser "
        "cannot open or join a table. htmx taps pass (NullOriginMiddleware). The browser tests "
        "work around it by switching the page's policy to same-origin."
    )


@pytest.fixture(scope="session")
def referrer_workaround(app_server: AppServer) -> str | None:
    """The init script that works around the bug above, or None once the app is fixed."""
    bug = referrer_bug(app_server.base_url)
    if not bug:
        return None
    warnings.warn(bug, AppBugWarning, stacklevel=1)
    return REFERRER_FIX_SCRIPT


# ---------------------------------------------------------------------------------------------
# Playwright


@pytest.fixture(scope="session")
def browser(chromium_executable: str) -> Iterator[Browser]:
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_executable, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


ContextFactory = Callable[..., BrowserContext]


@pytest.fixture
def new_context(
    browser: Browser, app_server: AppServer, referrer_workaround: str | None
) -> Iterator[ContextFactory]:
    """Make browser contexts (one per device); all are closed at the end of the test."""
    made: list[BrowserContext] = []

    def make(
        *, kind: str = "phone", locale: str = "zh-CN", workaround: bool = True
    ) -> BrowserContext:
        options: dict[str, Any] = dict(PHONE if kind == "phone" else DISPLAY)
        context = browser.new_context(locale=locale, base_url=app_server.base_url, **options)
        context.set_default_timeout(EXPECT_TIMEOUT_MS)
        if workaround and referrer_workaround:
            context.add_init_script(referrer_workaround)
        made.append(context)
        return context

    yield make
    for context in made:
        with contextlib.suppress(Exception):
            context.close()


@pytest.fixture
def new_phone(new_context: ContextFactory) -> ContextFactory:
    """A phone: 390x844 CSS pixels at 2x, touch, Simplified Chinese unless told otherwise."""
    return lambda locale="zh-CN", **kw: new_context(kind="phone", locale=locale, **kw)


@pytest.fixture
def display_context(new_context: ContextFactory) -> BrowserContext:
    """A laptop or TV screen at the middle of the table: 1280x800."""
    return new_context(kind="display")


def screenshot(page: Page, name: str, *, full_page: bool = False) -> Path:
    """Save a PNG under test-artifacts/ (gitignored) for a human to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


# Taps go over the page's websocket while it is open ({"type": "act"}), over HTTP otherwise.
_TAP_LOG = """() => {
  window.__taps = [];
  if (window.__tapLog) return;
  window.__tapLog = true;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { const m = JSON.parse(data); if (m.type === 'act') window.__taps.push(m.name); } catch (e) {}
    return send.call(this, data);
  };
}"""


def start_tap_log(page: Page) -> None:
    """From now on, record the names of the taps this page sends over its websocket."""
    page.evaluate(_TAP_LOG)


def socket_taps(page: Page, name: str) -> int:
    """How many `name` taps the page sent over its websocket since start_tap_log."""
    return int(page.evaluate("n => (window.__taps || []).filter(x => x === n).length", name))


def wait_until(
    page: Page, condition: Callable[[], bool], what: str, *, timeout_ms: int = 30_000
) -> None:
    """Until `condition()` (a check on what the test's own handlers recorded, a relay's
    messages say) holds: Playwright delivers events to those handlers only while the test waits
    in one of its calls, so the page waits in short steps. A generous deadline, as a phone on a
    busy server would get; AssertionError naming `what` after it."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout_ms} ms: {what}"
        page.wait_for_timeout(50)
