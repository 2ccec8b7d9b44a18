"""Measuring an element on a live page, for the browser tests.

A live page replaces what a frame brings whole (`#table-state`, the host's controls, the private
seat), and may get a frame at any moment: the same state twice, the state a sync asks for. An
element found by Playwright and then measured in a second step may meanwhile have left the page;
`locator.bounding_box()` then answers None, and an evaluate on it reads a detached element (a box
of zeros, `elementFromPoint` finding the element that replaced it). Here a measurement that found
its element gone starts again on the element the locator finds now; an element that is there but
not drawn fails, as it should.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page, expect

# Replacements are finite (a frame or two after a change): this many in a row is not a race.
TRIES = 10


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
    """`locator.bounding_box()` of a visible element (Playwright's coordinates, the ones its
    mouse takes: on a phone the visual viewport's), measured again when it answered None because
    a frame replaced the element between finding and measuring it."""
    for _try in range(TRIES):
        expect(locator).to_be_visible()
        box = locator.bounding_box()
        if box is not None:
            return dict(box)
    raise AssertionError(f"{locator}: gone or not drawn on each of {TRIES} measurements")


def said(page: Page, words: str) -> int:
    """How many times the page shows `words` (its rendered text: nothing hidden, nothing in a
    closed <details>)."""
    return int(page.evaluate("(w) => document.body.innerText.split(w).length - 1", words))
