"""Every page's stylesheet, css/app.css, is joined from its parts by component (static/css/app/):
no selector set appears in two rules of the same @media context, so a later rule never silently
overrides an earlier one of the same selectors (one rule per selector set, where each value is
the one that wins)."""

from __future__ import annotations

import re
from collections import Counter

from companion.infra.staticstorage import (
    APP_PARTS,
    GAMES_LAST_SLOT,
    GAMES_SLOT,
    SOURCE,
    joined_text,
)

COMMENT = re.compile(r"/\*.*?\*/", re.S)


def split_top(text: str, sep: str) -> list[str]:
    """`text` split at each `sep` outside brackets (a selector list's commas, not :is()'s)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def block_end(text: str, opening: int) -> int:
    """Just after the brace that closes the block opened at `opening`."""
    depth = 0
    for i in range(opening, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    raise AssertionError("unbalanced braces")


def rules(css: str) -> list[tuple[str, tuple[str, ...]]]:
    """(@media context, selector set) of each style rule, in order; @keyframes skipped."""
    text = COMMENT.sub(" ", css)
    found: list[tuple[str, tuple[str, ...]]] = []
    contexts: list[str] = []
    i = 0
    while True:
        opening, closing = text.find("{", i), text.find("}", i)
        if closing == -1:
            break
        if opening == -1 or closing < opening:  # the end of an @media block
            contexts.pop()
            i = closing + 1
            continue
        prelude = " ".join(text[i:opening].split())
        if prelude.startswith("@keyframes"):
            i = block_end(text, opening)
        elif prelude.startswith("@"):
            contexts.append(prelude)
            i = opening + 1
        else:
            selectors = tuple(sorted(" ".join(s.split()) for s in split_top(prelude, ",")))
            found.append((" ".join(contexts), selectors))
            i = text.index("}", opening) + 1
    assert not contexts, "unbalanced braces"
    return found


def repeated(css: str) -> list[tuple[str, tuple[str, ...]]]:
    return [key for key, n in Counter(rules(css)).items() if n > 1]


def test_no_selector_set_twice_in_one_media_context() -> None:
    found = rules(joined_text("css/app.css"))
    assert len(found) > 600  # the parser read the whole sheet
    assert repeated(joined_text("css/app.css")) == []


def test_the_check_sees_a_repeat_in_another_part_and_not_across_contexts() -> None:
    css = (
        ".a, .b { color: red; }\n@media (min-width: 900px) { .a, .b { color: blue; } }\n"
        "@keyframes spin { from { opacity: 0; } to { transform: rotate(1turn); } }\n.c { --x: ':is(.a, .b)'; }\n"
    )
    assert repeated(css) == []
    assert repeated(css + ".b,\n.a { margin: 0; }") == [("", (".a", ".b"))]
    assert repeated(css + "@media (min-width: 900px) { .b, .a { margin: 0; } }") == [
        ("@media (min-width: 900px)", (".a", ".b"))
    ]


def test_every_part_is_joined_once() -> None:
    own = [p for p in APP_PARTS if p not in (f"{GAMES_SLOT}.css", f"{GAMES_LAST_SLOT}.css")]
    assert sorted(own) == sorted(p.name for p in (SOURCE / "css" / "app").glob("*.css"))
    assert len(set(APP_PARTS)) == len(APP_PARTS) and APP_PARTS[0] == "base.css"
    assert not (SOURCE / "css" / "app.css").exists()  # only the parts are sources


def only_the_displays(selector: str) -> bool:
    """A selector that matches only inside body.page-display (the table display, the host console)."""
    return selector.split(" ", 1)[0] in {".page-display", "body.page-display"}


def test_the_phones_sheet_holds_no_rule_for_the_display_alone_from_900px() -> None:
    """A phone downloads app.css for its game page: the table display's rules from 900 px (its
    play, its end, the session panel's place on it) are display.css's, which every page with
    body.page-display loads (display.html), and not a phone's bytes."""
    wide = [
        selectors
        for context, selectors in rules(joined_text("css/app.css"))
        if "min-width: 900px" in context and all(only_the_displays(s) for s in selectors)
    ]
    assert not wide, wide[:5]
    display = rules(joined_text("css/display.css"))
    assert ("@media (min-width: 900px)", (".page-display .session-tools",)) in display
    assert ("@media (min-width: 900px)", (".page-display .phase-note",)) in display
