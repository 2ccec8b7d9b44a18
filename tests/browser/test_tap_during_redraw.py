"""A tap whose press spans a redraw of its controls: the host at a laptop clicks "deal" just as
the server's redraw of the host's controls (the answer to an option ticked a moment before)
lands. The redraw used to replace the pressed button; a click pressed on one element and
released on another goes to neither, so the deal never left the page (a browser test under
load lost it that way). Here the page's socket holds the redraw back until the mouse is down,
and hands it to the page before the mouse comes up. The same with a key: Space on a focused button
clicks as the key comes up, and a redraw between its down and its up took the button away. And a
redraw that replaced the focused control threw a keyboard back to the page's start."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import ContextFactory
from tests.browser.game_steps import seated_table

pytestmark = [pytest.mark.browser]

# The page's socket, its frames that redraw the host's controls held back while
# window.__holdPanel is set (handed to the page's own handler by release_frames).
HOLD_PANEL = """
(() => {
  const Native = window.WebSocket;
  window.__holdPanel = false;
  window.__heldFrames = [];
  class Holding extends Native {
    set onmessage(handler) {
      this.__handler = handler;
      super.onmessage = (ev) => {
        if (window.__holdPanel && String(ev.data).includes('id="host-panel"')) {
          window.__heldFrames.push({ handler, data: ev.data });
          return;
        }
        handler.call(this, ev);
      };
    }
    get onmessage() { return this.__handler; }
  }
  window.WebSocket = Holding;
})();
"""


def release_frames(page: Page) -> int:
    """The held frames, handed to the page now (as their arrival would), in order."""
    return int(
        page.evaluate(
            """() => {
                window.__holdPanel = false;
                const held = window.__heldFrames.splice(0);
                held.forEach((f) => f.handler({ data: f.data }));
                return held.length;
            }"""
        )
    )


def test_a_click_pressed_as_the_controls_are_redrawn_deals(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    first, _seats, _urls = seated_table(display_context, new_phone)
    host = display_context.new_page()
    host.add_init_script(HOLD_PANEL)
    host.goto(first.url)
    expect(host.locator("#conn")).to_have_attribute("data-state", "open")
    deal = host.locator("#host-panel form[hx-post='act/deal'] button")
    box = deal.bounding_box()
    assert box is not None
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    # A press moved off "deal" and released elsewhere: no deal, and the redraw that came
    # meanwhile (an option ticked on the other console) is on the screen after it.
    version = int(host.locator("#table-state").get_attribute("data-version") or "0")
    host.mouse.down()
    first.locator("#host-panel input[name=referee_mode]").check()
    expect(first.locator("#table-state")).to_have_attribute("data-version", str(version + 1))
    host.mouse.move(2, 2)
    host.mouse.up()
    expect(host.locator("#host-panel input[name=referee_mode]")).to_be_checked()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "lobby")

    # The option's tick, then a click on "deal" pressed before its redraw lands and released
    # after: the table is dealt, the redraw on the screen before the deal's own.
    host.evaluate("() => { window.__holdPanel = true; }")
    host.locator("#host-panel input[name=first_game_mode]").check()
    host.wait_for_function("() => window.__heldFrames.length > 0")
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    host.mouse.down()
    assert release_frames(host) >= 1
    host.mouse.up()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    expect(host.locator("#host-panel form[hx-post='act/start']")).to_have_count(1)


def test_a_space_pressed_as_the_controls_are_redrawn_deals(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    first, _seats, _urls = seated_table(display_context, new_phone)
    host = display_context.new_page()
    host.add_init_script(HOLD_PANEL)
    host.goto(first.url)
    expect(host.locator("#conn")).to_have_attribute("data-state", "open")

    # An option ticked on the other console, its redraw held back until Space on "deal" is
    # down, handed to the page before it comes up: the table is dealt all the same.
    host.evaluate("() => { window.__holdPanel = true; }")
    first.locator("#host-panel input[name=first_game_mode]").check()
    host.wait_for_function("() => window.__heldFrames.length > 0")
    host.locator("#host-panel form[hx-post='act/deal'] button").focus()
    host.keyboard.down(" ")
    assert release_frames(host) >= 1
    host.keyboard.up(" ")
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    expect(host.locator("#host-panel form[hx-post='act/start']")).to_have_count(1)


def test_the_focused_control_keeps_the_focus_through_a_redraw(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    first, _seats, _urls = seated_table(display_context, new_phone)
    host = display_context.new_page()
    host.goto(first.url)
    expect(host.locator("#conn")).to_have_attribute("data-state", "open")
    version = int(host.locator("#table-state").get_attribute("data-version") or "0")
    ticks = host.locator("#host-panel form.options input[type=checkbox]")
    box = host.locator("#host-panel input[name=first_game_mode]")

    # Space ticks the box; its answer redraws the host's controls, a new box in focus.
    box.focus()
    host.keyboard.press(" ")
    expect(host.locator("#table-state")).to_have_attribute("data-version", str(version + 1))
    expect(box).to_be_checked()
    expect(box).to_be_focused()

    # A redraw from the other console leaves it there too, and Tab goes on to the next box.
    first.locator("#host-panel input[name=referee_mode]").check()
    expect(host.locator("#table-state")).to_have_attribute("data-version", str(version + 2))
    expect(host.locator("#host-panel input[name=referee_mode]")).to_be_checked()
    expect(box).to_be_focused()
    names = ticks.evaluate_all("(els) => els.map((el) => el.name)")
    host.keyboard.press("Tab")
    expect(ticks.nth(names.index("first_game_mode") + 1)).to_be_focused()
