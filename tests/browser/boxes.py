"""Measuring an element on a live page, for the browser tests.

A live page replaces what a frame brings whole (`#table-state`, the host's controls, the private
seat), and may get a frame at any moment: the same state twice, the state a sync asks for. An
element found by Playwright and then measured in a second step may meanwhile have left the page;
`locator.bounding_box()` then answers None, and an evaluate on it reads a detached element (a box
of zeros, `elementFromPoint` finding the element that replaced it). Here the measurement runs on
the element in one step in the page, and starts again on the element the locator finds now when
the one it had was replaced; an element that is there but not drawn fails, as it should.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, expect

# Replacements are finite (a frame or two after a change): this many in a row is not a race.
TRIES = 10

RECT_JS = """el => { const r = el.getBoundingClientRect();
  return {x: r.left, y: r.top, width: r.width, height: r.height}; }"""


def measure(locator: Locator, js: str) -> Any:
    """`js` (a function of the element) on the one element the locator names, once it is
    visible, on that element while it is on the page: found again if a frame replaced it."""
    guarded = f"""el => {{
      if (!el.isConnected || !el.getClientRects().length) return {{replaced: true}};
      return {{value: ({js})(el)}};
    }}"""
    for _try in range(TRIES):
        expect(locator).to_be_visible()
        got = locator.evaluate(guarded)
        if not got.get("replaced"):
            return got.get("value")
    raise AssertionError(f"{locator}: gone or not drawn on each of {TRIES} measurements")


def box_of(locator: Locator) -> dict[str, float]:
    """What `locator.bounding_box()` answers for a visible element (CSS pixels, the viewport's
    top left the origin), never None for one that a frame replaced meanwhile."""
    return dict(measure(locator, RECT_JS))
