"""A phone keeps its screen on once identities are dealt, however it reaches the laptop.

- By the laptop's LAN name over plain http (here `table.test`, mapped to the test server by
  Chromium's --host-resolver-rules): not a secure context, no Screen Wake Lock. The player's
  first tap starts a muted, looping, inline video served by the app (not fetched before), laid
  over the whole viewport as Chromium wants of a video that keeps the screen on.
- On 127.0.0.1 (a secure context) the browser's own wake lock is asked for, and no video.
- When neither works (the video refused), the page says so, in both languages.
- `play --https`: a secure context from a LAN address, the live socket over wss.

The table is seated and dealt with plain HTTP requests (tests/browser/tables.py).
"""

from __future__ import annotations

import re
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from bench.servers import STOP_SECONDS, die_with_parent, free_ports
from tests.browser import tables
from tests.browser.conftest import LAN_NAME, PHONE, AppServer, screenshot, server_env

pytestmark = [pytest.mark.browser]

BASE_DIR = Path(__file__).resolve().parents[2]
NOTE = {
    "zh": "你的屏幕可能会锁屏：本局请关闭自动锁屏。",
    "en": "Your screen may lock: set auto-lock off for this game.",
}
# The video as the page holds it: playing, muted, looping, inline; its box over the viewport.
VIDEO_STATE = """() => {
  const v = document.querySelector('video.awake-video');
  if (!v) return null;
  const r = v.getBoundingClientRect();
  return {paused: v.paused, muted: v.muted, loop: v.loop, inline: v.playsInline,
          time: v.currentTime, src: v.currentSrc, box: [r.left, r.top, r.width, r.height]};
}"""


def seated(server: AppServer, count: int = 4) -> tables.HttpTable:
    return tables.seated(server.base_url, tables.NAMES_ZH[:count])


def open_phone(
    browser: Browser, url: str, lang: str, *, init: str = "", **options: object
) -> tuple[Page, list[str]]:
    """A phone's page at `url`; the list collects the media it requests."""
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US", **{**PHONE, **options}
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": url}])
    if init:
        context.add_init_script(init)
    page = context.new_page()
    media: list[str] = []
    page.on("request", lambda r: media.append(r.url) if "/media/" in r.url else None)
    page.goto(url)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page, media


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_phone_on_the_lan_name_keeps_awake_with_the_video_from_its_first_tap(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = seated(app_server)
    lan = f"http://{LAN_NAME}:{app_server.port}"
    page, media = open_phone(browser, lan + table.seats[0].device.url, lang)
    assert page.evaluate("() => [window.isSecureContext, 'wakeLock' in navigator]") == [
        False,
        False,
    ]
    note = page.locator("#awake-note")
    expect(note).to_be_hidden()  # the lobby: nothing to keep on
    tables.deal(table, first_game=True)
    expect(page.locator("#table-state")).to_have_attribute("data-status", "dealt")
    # Dealt, not yet tapped: the screen may lock, and the page says so; no video fetched yet.
    expect(note).to_be_visible()
    expect(note).to_have_text(NOTE[lang])
    assert page.evaluate(VIDEO_STATE) is None
    assert media == [], "the video is not part of the first load"
    screenshot(page, f"awake-note-{lang}")

    page.locator("#my-seat .me-name").click()
    page.wait_for_function(
        "() => { const v = document.querySelector('video.awake-video');"
        " return v && !v.paused && v.currentTime > 0; }"
    )
    state = page.evaluate(VIDEO_STATE)
    assert state["muted"] and state["loop"] and state["inline"], state
    assert state["src"].startswith(lan + "/static/media/awake"), state
    width, height = PHONE["viewport"]["width"], PHONE["viewport"]["height"]  # type: ignore[index]
    assert state["box"] == [0, 0, width, height], "the whole viewport: Chromium's video lock"
    expect(note).to_be_hidden()
    assert media, "fetched on the first tap"
    # It loops: back to the start after the file's two seconds, still playing.
    page.wait_for_function(
        "() => { const v = document.querySelector('video.awake-video');"
        " window.__last = Math.max(window.__last || 0, v.currentTime);"
        " return !v.paused && window.__last > 1.5 && v.currentTime < 1; }",
        timeout=10_000,
    )


def test_on_this_laptop_the_browser_wake_lock_is_asked_for_and_no_video(
    browser: Browser, app_server: AppServer
) -> None:
    count_requests = """
    window.__lockAsks = 0;
    if (window.WakeLock) {
      const ask = WakeLock.prototype.request;
      WakeLock.prototype.request = function (type) {
        window.__lockAsks += 1;
        return ask.call(this, type);
      };
    }
    """
    table = seated(app_server)
    page, media = open_phone(
        browser, app_server.base_url + table.seats[0].device.url, "zh", init=count_requests
    )
    assert page.evaluate("() => [window.isSecureContext, 'wakeLock' in navigator]") == [
        True,
        True,
    ]
    assert page.evaluate("() => window.__lockAsks") == 0, "not before the deal"
    tables.deal(table, first_game=True)
    page.wait_for_function("() => window.__lockAsks >= 1")
    page.locator("#my-seat .me-name").click()
    assert page.evaluate(VIDEO_STATE) is None
    assert media == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_when_nothing_keeps_the_screen_on_the_page_says_so(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    refuse = """
    HTMLMediaElement.prototype.play = function () {
      return Promise.reject(new DOMException('refused', 'NotAllowedError'));
    };
    """
    table = seated(app_server)
    tables.deal(table, first_game=True)
    lan = f"http://{LAN_NAME}:{app_server.port}"
    page, _media = open_phone(browser, lan + table.seats[1].device.url, lang, init=refuse)
    note = page.locator("#awake-note")
    page.locator("#my-seat .me-name").click()
    expect(page.locator("video.awake-video")).to_have_count(1)
    expect(note).to_be_visible()
    expect(note).to_have_text(NOTE[lang])


def test_a_video_told_to_play_that_never_starts_leaves_the_note_where_it_is(
    browser: Browser, app_server: AppServer
) -> None:
    """The note goes only once the video really plays: a tap that starts one that never plays
    (not paused, no 'playing') must not make it blink away and back, moving the page."""
    stalls = """
    HTMLMediaElement.prototype.play = function () {
      Object.defineProperty(this, 'paused', {value: false, configurable: true});
      return new Promise(() => {});
    };
    """
    table = seated(app_server)
    tables.deal(table, first_game=True)
    lan = f"http://{LAN_NAME}:{app_server.port}"
    page, _media = open_phone(browser, lan + table.seats[1].device.url, "en", init=stalls)
    note = page.locator("#awake-note")
    expect(note).to_be_visible()
    page.evaluate(
        "() => { window.__noteMoves = 0; new MutationObserver(() => window.__noteMoves++)"
        ".observe(document.getElementById('awake-note'), {attributes: true}); }"
    )
    page.locator("#my-seat .me-name").click()
    expect(page.locator("video.awake-video")).to_have_count(1)
    page.locator("#my-seat .me-name").click()
    expect(note).to_be_visible()
    assert page.evaluate("() => window.__noteMoves") == 0


# ---------------------------------------------------------------------------------------------
# play --https


@pytest.fixture(scope="module")
def https_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """`manage.py play --https` on a free port: its port and its certificate."""
    data_dir = tmp_path_factory.mktemp("https-server")
    port = free_ports(1)[0]
    env = server_env(data_dir, embedded=True)
    log = (data_dir / "server.log").open("wb")
    command = [str(BASE_DIR / ".venv/bin/python"), "manage.py", "play", "--https"]
    proc = subprocess.Popen(  # noqa: S603 - our own command
        [*command, "--host", "127.0.0.1", "--port", str(port)],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=die_with_parent,
    )
    cert = data_dir / "tls" / "cert.pem"
    deadline = time.monotonic() + 90
    try:
        while True:
            assert proc.poll() is None, (data_dir / "server.log").read_text()
            assert time.monotonic() < deadline, (data_dir / "server.log").read_text()
            if cert.exists():
                context = ssl.create_default_context(cafile=str(cert))
                try:
                    with urllib.request.urlopen(  # noqa: S310 - our own server
                        f"https://127.0.0.1:{port}/", timeout=2, context=context
                    ) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
            time.sleep(0.2)
        yield port, cert
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_https_mode_gives_a_lan_phone_the_wake_lock_and_a_live_socket(
    browser: Browser, https_server: tuple[int, Path]
) -> None:
    port, _cert = https_server
    base = f"https://{LAN_NAME}:{port}"
    # The phone accepted the laptop's certificate (ignore_https_errors stands for that tap).
    context = browser.new_context(locale="zh-CN", ignore_https_errors=True, **PHONE)
    page = context.new_page()
    page.goto(base + "/")
    page.locator("form[action='/new/'] button").click()
    expect(page).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    assert page.evaluate("() => [window.isSecureContext, 'wakeLock' in navigator]") == [
        True,
        True,
    ]
    assert page.evaluate("() => location.protocol") == "https:"
    context.close()
