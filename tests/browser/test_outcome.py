"""No tap whose outcome is in doubt, in a real browser.

- A tap waiting for its answer shows as pending; another tap meanwhile is refused visibly.
- A tap whose answer never comes (its socket dies) is checked with the server: the phone says
  whether it was applied and shows the real state.
- A double tap on + (60 ms apart) is one tap.
- A phone that missed a frame catches up by its heartbeat, without anybody tapping.

Screenshots for a human go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route, WebSocketRoute, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import (
    ContextFactory,
    screenshot,
    socket_taps,
    start_tap_log,
    wait_until,
)
from tests.browser.game_steps import seated_table

pytestmark = [pytest.mark.browser]

ZH_RECORDED = "你的操作已记录。"  # msgid "Your tap was recorded."
ZH_NOT_RECORDED = "你的操作没有记录。如仍需要，请再点一次。"
ZH_CHECKING = "正在确认你的操作是否已记录…"
ZH_MERGED = "与上一次点击合并，只算一次。"  # msgid "Counted once with your previous tap."
ACT_POST = re.compile(r"/act/[a-z_]+$")  # a tap over HTTP
TAP_SAME_MS = 400  # live.js: the same tap again within this long is the same tap


def playing_table(
    display_context: BrowserContext, new_phone: ContextFactory
) -> tuple[Page, list[tuple[BrowserContext, str]], list[str]]:
    """Four seats in play (first-game mode: no hero choice)."""
    host, seats, urls = seated_table(display_context, new_phone)
    host.locator("#host-panel input[name=first_game_mode]").check()
    expect(host.locator("#host-panel input[name=first_game_mode]")).to_be_checked()
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    return host, seats, urls


class Relay:
    """The page's websocket, relayed through the test: it can hold or drop what either side
    sends, and cut the connection (a server killed between commit and answer)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.hold_taps = False
        self.drop_taps = False
        self.lose_answers = False
        self.drop_next_change = False
        # Each tap is preceded by an identical one with another id (a seat's other phone).
        self.twin_taps = False
        self.held: list[str] = []
        self.sent: list[dict[str, Any]] = []
        self.dropped: list[str] = []
        self.sockets = 0
        self.server: WebSocketRoute | None = None
        self.client: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, page_side: WebSocketRoute) -> None:
        self.sockets += 1
        server_side = page_side.connect_to_server()
        self.server, self.client = server_side, page_side
        tap_ids: list[str] = []

        def from_page(message: str | bytes) -> None:
            parsed = json.loads(message) if isinstance(message, str) else {}
            self.sent.append(parsed)
            if parsed.get("type") == "act":
                tap_ids.append(parsed.get("action_id", ""))
                if self.hold_taps:
                    self.held.append(str(message))
                    return
                if self.twin_taps:
                    twin = {**parsed, "action_id": "twin" + str(parsed.get("action_id", ""))[:40]}
                    server_side.send(json.dumps(twin))
                if self.drop_taps:
                    self.dropped.append(str(message))
                    page_side.close(code=1011)
                    return
            server_side.send(message)

        def from_server(message: str | bytes) -> None:
            text = message if isinstance(message, str) else ""
            if self.lose_answers and any(f'data-action="{i}"' in text for i in tap_ids if i):
                # The change committed; its answer never reaches the phone.
                self.dropped.append(text)
                page_side.close(code=1011)
                return
            if self.drop_next_change and "data-version" in text:
                self.drop_next_change = False
                self.dropped.append(text)
                return
            page_side.send(message)

        page_side.on_message(from_page)
        server_side.on_message(from_server)

    def release(self) -> None:
        assert self.server is not None and self.held
        while self.held:
            self.server.send(self.held.pop(0))

    def kinds(self) -> list[str]:
        return [m.get("type", "") for m in self.sent]


def open_phone(context: BrowserContext, url: str) -> tuple[Page, Relay]:
    page = context.new_page()
    relay = Relay(page)
    page.goto(url)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page, relay


def hp_of(page: Page) -> tuple[int, int]:
    text = page.locator("#my-hp .hp-big").inner_text().replace(" ", "")
    hp, max_hp = (int(n) for n in text.split("/"))
    return hp, max_hp


def expect_hp(page: Page, hp: int, max_hp: int, timeout: int = 10_000) -> None:
    expect(page.locator("#my-hp .hp-big")).to_have_text(f"{hp}/{max_hp}", timeout=timeout)


def hurt_myself(page: Page) -> None:
    """The phone's own −, then "no source": one damage. The dialog opened again makes it
    another tap than the one before, however soon."""
    page.locator("#my-seat .hp-minus").click()
    dialog = page.locator("#dialog .dialog")
    dialog.locator(".damage-form .source-grid button[value='']").click()
    expect(dialog).to_have_count(0)


def test_a_slow_tap_shows_as_pending_and_the_next_tap_waits_its_turn(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    _host, seats, urls = playing_table(display_context, new_phone)
    context, _name = seats[1]
    page, relay = open_phone(context, urls[1])
    hurt_myself(page)
    hp, max_hp = hp_of(page)

    # The + tap does not reach the server yet: its button spins, its form is busy. (Held on its
    # socket and, should the page give up on the socket first, over HTTP too: however slow the
    # machine, the tap stays unanswered until it is released.)
    acts = relay.kinds().count("act")
    relay.hold_taps = True
    held_posts: list[Route] = []
    page.route(ACT_POST, lambda route: held_posts.append(route))
    plus = page.locator("#my-seat .hp-plus")
    plus.click()
    expect(plus).to_have_class(re.compile(r"\btap-pending-btn\b"))
    expect(plus).to_have_attribute("aria-busy", "true")
    expect(plus).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#my-hp form[aria-busy=true]")).to_have_count(1)
    screenshot(page, "zh-phone-tap-pending")
    # Another tap meanwhile waits for the first one's answer, and shows it waits.
    page.locator("#my-seat .hp-minus").click()
    dialog = page.locator("#dialog .dialog")
    source = dialog.locator(".damage-form .source-grid button[value='']")
    source.click()
    expect(source).to_have_attribute("aria-busy", "true")
    screenshot(page, "zh-phone-tap-queued")
    assert relay.kinds().count("act") == acts + 1

    # The first answer comes, then the waiting tap goes: +1 then −1, nothing pending any more.
    relay.hold_taps = False
    page.unroute(ACT_POST)
    relay.release()
    for route in held_posts:
        # The page may have given the request up meanwhile (its answer came on the socket).
        with contextlib.suppress(PlaywrightError):
            route.continue_()
    expect(dialog).to_have_count(0)
    expect_hp(page, hp, max_hp)
    expect(page.locator("[aria-busy=true]")).to_have_count(0)
    expect(page.locator(".tap-pending-btn")).to_have_count(0)
    assert relay.kinds().count("act") == acts + 2
    history = page.locator("#table-state .history .events li")
    expect(history.first).to_contain_text("受到")

    # The same in English (language cookie), for the screenshot.
    origin = re.match(r"https?://[^/]+", page.url)
    assert origin
    page.context.add_cookies([{"name": "sgs_lang", "value": "en", "url": origin.group(0) + "/"}])
    page.reload()
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    expect(page.locator("#my-seat .hp-plus")).to_have_attribute("aria-label", "Recover 1 HP")
    relay.hold_taps = True
    page.locator("#my-seat .hp-plus").click()
    expect(page.locator("#my-seat .hp-plus")).to_have_attribute("aria-busy", "true")
    screenshot(page, "en-phone-tap-pending")
    relay.hold_taps = False
    relay.release()
    expect_hp(page, hp + 1, max_hp)
    expect(page.locator("[aria-busy=true]")).to_have_count(0)


def test_a_tap_whose_answer_is_lost_is_checked_and_the_true_state_shown(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    host, seats, urls = playing_table(display_context, new_phone)
    context, _name = seats[1]
    page, relay = open_phone(context, urls[1])
    hurt_myself(page)
    hurt_myself(page)
    hp, max_hp = hp_of(page)

    # Applied, but the server's answer is lost and the socket dies: the phone asks on its next
    # socket, says it was recorded, and shows it (it does not say "failed", nor tap again).
    acts = relay.kinds().count("act")
    relay.lose_answers = True
    page.locator("#my-seat .hp-plus").click()
    page.evaluate("() => { window.__plusAt = performance.now(); }")
    expect(page.locator("#toast")).to_have_text(ZH_CHECKING)
    relay.lose_answers = False
    expect(page.locator("#toast")).to_have_text(ZH_RECORDED, timeout=15_000)
    expect_hp(page, hp + 1, max_hp)
    screenshot(page, "zh-phone-tap-recorded")
    assert relay.sockets >= 2
    assert "status" in relay.kinds()
    assert relay.kinds().count("act") == acts + 1
    seat_id = page.locator("#my-seat").get_attribute("data-seat")
    on_host = host.locator(f"#table-state .ring .seat[data-seat='{seat_id}'] .hp-num")
    expect(on_host).to_have_text(f"{hp + 1}/{max_hp}")

    # Lost before it reached the server: the phone learns it was not applied and says so (a
    # tap past the double-tap window of the one above).
    page.wait_for_function("ms => performance.now() - window.__plusAt > ms", arg=TAP_SAME_MS + 50)
    relay.drop_taps = True
    page.locator("#my-seat .hp-plus").click()
    expect(page.locator("#toast")).to_have_text(ZH_NOT_RECORDED, timeout=15_000)
    relay.drop_taps = False
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    expect_hp(page, hp + 1, max_hp)
    expect(on_host).to_have_text(f"{hp + 1}/{max_hp}")
    expect(page.locator("[aria-busy=true]")).to_have_count(0)
    screenshot(page, "zh-phone-tap-not-recorded")
    # And the player can tap again: this time it goes through.
    page.locator("#my-seat .hp-plus").click()
    expect_hp(page, hp + 2, max_hp)


def test_a_double_tap_on_plus_is_one_tap(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    _host, seats, urls = playing_table(display_context, new_phone)
    context, _name = seats[1]
    page, _relay = open_phone(context, urls[1])
    hurt_myself(page)
    hurt_myself(page)
    hp, max_hp = hp_of(page)
    start_tap_log(page)
    page.evaluate(
        """() => {
          const plus = document.querySelector('#my-seat .hp-plus');
          plus.click();
          setTimeout(() => { plus.click(); window.__plusAt = performance.now(); }, 60);
        }"""
    )
    # Once the second tap has happened and nothing waits any more (a tap queued behind
    # another shows busy), one tap went and one change was made.
    page.wait_for_function("() => window.__plusAt !== undefined")
    expect_hp(page, hp + 1, max_hp)
    expect(page.locator("[aria-busy=true]")).to_have_count(0)
    expect(page.locator(".tap-pending-btn")).to_have_count(0)
    assert socket_taps(page, "hp") == 1
    expect_hp(page, hp + 1, max_hp)
    # A second tap after the window is another tap.
    page.wait_for_function("ms => performance.now() - window.__plusAt > ms", arg=TAP_SAME_MS + 50)
    page.locator("#my-seat .hp-plus").click()
    expect_hp(page, hp + 2, max_hp)


def test_a_tap_the_server_merged_with_an_identical_one_just_before_says_so(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    """The same tap from another phone of the seat arrives just before this
    one; this one is answered "merged", and the phone says it was counted once."""
    _host, seats, urls = playing_table(display_context, new_phone)
    context, _name = seats[1]
    page, relay = open_phone(context, urls[1])
    hurt_myself(page)
    hp, max_hp = hp_of(page)
    relay.twin_taps = True
    page.locator("#my-seat .hp-plus").click()
    expect(page.locator("#toast")).to_have_text(ZH_MERGED)
    expect_hp(page, hp + 1, max_hp)
    expect(page.locator("#my-seat .tap-pending-btn")).to_have_count(0)
    screenshot(page, "outcome-merged")


def test_a_phone_that_missed_a_frame_catches_up_by_heartbeat(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    host, seats, urls = playing_table(display_context, new_phone)
    context, _name = seats[1]
    page, relay = open_phone(context, urls[1])
    seat_id = page.locator("#my-seat").get_attribute("data-seat")
    hp, max_hp = hp_of(page)
    start_tap_log(page)
    # The host damages this seat; the phone never gets that frame (a lost publish).
    relay.drop_next_change = True
    host.bring_to_front()
    host.locator(f"#table-state .ring .seat[data-seat='{seat_id}'] .seat-open").click()
    dialog = host.locator("#dialog [role=dialog]")
    dialog.locator(".damage-form .source-grid button[value='']").click()
    on_host = host.locator(f"#table-state .ring .seat[data-seat='{seat_id}'] .hp-num")
    expect(on_host).to_have_text(f"{hp - 1}/{max_hp}")
    # The phone's copy of the frame reaches the relay (and is dropped).
    wait_until(page, lambda: bool(relay.dropped), "the change's frame reaches the relay")
    assert len(relay.dropped) == 1
    page.bring_to_front()
    expect_hp(page, hp, max_hp)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    # Nobody taps. Within a heartbeat (12 s idle on a phone, 3 s here) the phone catches up.
    page.evaluate("document.body.setAttribute('data-heartbeat-ms', '3000')")
    expect_hp(page, hp - 1, max_hp, timeout=25_000)
    kinds = relay.kinds()
    assert "ping" in kinds and "sync" in kinds[kinds.index("ping") :]
    assert socket_taps(page, "hp") == 0
    assert relay.sockets == 1
