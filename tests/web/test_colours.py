"""One meaning per colour (docs/modes.md, "Colours"): the identities and the sides colour words;
a hero's kingdom is the small square before its name, never the colour of a name or a skill (on
the end table, a green rebel beside a green Wu hero read as one thing)."""

from __future__ import annotations

import re

from companion.infra.staticstorage import joined_text

RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


def _rules(name: str) -> list[tuple[str, str]]:
    # Each sheet is served joined from its parts and the games' sheets (infra/staticstorage.py).
    source = joined_text(f"css/{name}")
    text = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return [(s.strip(), d) for s, d in RULE.findall(text)]


def test_no_name_or_skill_takes_its_kingdoms_colour() -> None:
    for sheet in ("app.css", "display.css", "modes.css"):
        for selector, body in _rules(sheet):
            colour = re.search(r"(?<![-\w])color:\s*([^;]+)", body)
            if colour and "kingdom" in colour.group(1):
                raise AssertionError(f"{sheet}: {selector} coloured by its kingdom")


def test_the_kingdom_is_the_square_before_a_heros_name() -> None:
    squares = [
        body
        for selector, body in _rules("app.css")
        if ".hero-name::before" in selector and "var(--kingdom)" in body
    ]
    assert squares, "a hero's name has its kingdom's square"


def test_each_side_of_a_mode_is_one_tone_whatever_the_role() -> None:
    tones = {selector: body for selector, body in _rules("modes.css") if "--tone: var(--" in body}
    warm = next(s for s, b in tones.items() if "--warm" in b)
    cold = next(s for s, b in tones.items() if "--cold" in b)
    assert all(f".{c}" in warm for c in ("idn-lord", "idn-loyalist", "side-warm", "side-lord"))
    assert all(f".{c}" in cold for c in ("idn-rebel", "idn-renegade", "side-cold", "side-renegade"))
