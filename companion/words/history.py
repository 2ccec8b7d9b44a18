"""The history's event lines in the active language (`describe`): one line of words per event,
from its public part only. The sentences come from the Django translation files; the labels
they use from companion.words.labels, the names of heroes, cards, skills and judgements from
companion.words.names.

Each event kind has one function that makes its line, kept in a registry that this module
owns and names no kind of its own. The modules beside it register theirs, grouped by subject
(`table_lines`: the table, seats, deal, heroes, box and sessions; `play_lines`: HP, deaths,
equipment, delayed tricks, judgements, turns, a mode's flow and undo), and
`companion.words` imports them all, in that order, the first time any of its modules is
imported. A game's package (companion/games/) adds its own kinds the same way, from
the `words` module its app imports when ready, without any module here naming it:

    from companion.words.history import clause, line

    @line("my_kind")
    def _my_kind(public: dict[str, Any], name: str) -> str:
        # `public` is the event's public part, `name` its seat's name (public["name"])
        return _("%(name)s did it") % {"name": name}

    @clause("damage")
    def _my_note(public: dict[str, Any]) -> list[str]:
        # a clause after another kind's line ("line · clause"): [] when there is nothing to add
        return [_("my note")] if public.get("my_key") else []

- `line(kind)` registers its function as the line of `kind` (`register(kind, make)` without
  the decorator). A kind has one line: registering it again raises `ValueError`, unless
  `replace=True`, which a game uses to vary another's line, keeping the one it replaces
  (`line_of(kind)`, read before) for the cases it leaves alone.
- `clause(*kinds)` adds its function's clauses after each kind's line, in the order registered.
  Replacing a kind's line keeps its clauses. A kind may name a family of kinds instead
  (`WORKED_DAMAGE`: a damage the rules worked out), whose members a game declares with
  `member(kind, family)`: its clauses come after the member's own, so one game's clause reaches
  another's kinds without naming them.
- `change(modifier)` registers its function as the words of a game's own modifier of a damage
  step (`rules.damage.game_modifier`; from the step's [modifier, before, after]), which the
  game that words the steps (`change_of`) says without naming it.
- `describe(kind, public)` makes the line; a kind with no line is shown as its own name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.words.names import english_ui, hero_card

# A kind's line from the event's public part and its seat's name.
Line = Callable[[dict[str, Any], str], str]
# Clauses after a kind's line, from the event's public part ([] for none).
Clause = Callable[[dict[str, Any]], list[str]]

# A game's modifier of a damage step in words, from the amount before and after it.
Change = Callable[[int, int], str]

_LINES: dict[str, Line] = {}
_CHANGES: dict[str, Change] = {}
_CLAUSES: dict[str, list[Clause]] = {}
# The families each kind is a member of (`member`).
_FAMILIES: dict[str, tuple[str, ...]] = {}

# The family of the kinds of a damage the rules worked out (a game's resolver, the rest of a chain).
WORKED_DAMAGE = "worked_damage"


def register(kind: str, make: Line, *, replace: bool = False) -> Line:
    """Make `make` the line of `kind`; `replace` to change a line registered before."""
    if (kind in _LINES) != replace:
        raise ValueError(
            f"{kind!r} has a line already" if not replace else f"{kind!r} has no line to replace"
        )
    _LINES[kind] = make
    return make


def line(kind: str, *, replace: bool = False) -> Callable[[Line], Line]:
    """The decorator form of `register`: `@line("damage")`."""
    return lambda make: register(kind, make, replace=replace)


def clause(*kinds: str) -> Callable[[Clause], Clause]:
    """Add the decorated function's clauses after each kind's line: `@clause("damage")`."""

    def add(extra: Clause) -> Clause:
        for kind in kinds:
            _CLAUSES.setdefault(kind, []).append(extra)
        return extra

    return add


def member(kind: str, family: str) -> None:
    """`kind` takes the clauses of `family` after its own (a game's kind of a sort others add
    clauses to: `WORKED_DAMAGE`)."""
    if family not in _FAMILIES.get(kind, ()):
        _FAMILIES[kind] = (*_FAMILIES.get(kind, ()), family)


def change(modifier: str) -> Callable[[Change], Change]:
    """Make the decorated function the words of a game's `modifier` (one function each)."""

    def add(words: Change) -> Change:
        if modifier in _CHANGES:
            raise ValueError(f"{modifier!r} has words already")
        _CHANGES[modifier] = words
        return words

    return add


def change_of(modifier: str) -> Change | None:
    """The words registered for a game's `modifier`, or None."""
    return _CHANGES.get(modifier)


def line_of(kind: str) -> Line:
    """The line registered for `kind` now (KeyError when there is none)."""
    return _LINES[kind]


def known(kind: str) -> bool:
    """Whether `kind` has a line."""
    return kind in _LINES


def describe(kind: str, public: dict[str, Any]) -> dict[str, Any]:
    """One history line from an event's public part only."""
    make = _LINES.get(kind)
    if make is None:
        return {"kind": kind, "text": kind}
    text = make(public, public.get("name", ""))
    extras = _CLAUSES.get(kind)
    families = _FAMILIES.get(kind)
    if families:
        extras = [*(extras or ()), *(c for family in families for c in _CLAUSES.get(family, ()))]
    if extras:
        parts = [part for extra in extras for part in extra(public)]
        if parts:
            text = " · ".join([text, *parts])
    return {"kind": kind, "text": text}


def hero_name(hero_id: str, public: dict[str, Any] | None = None) -> str:
    """A hero's name; a hero the table added is named by the event itself (`names`: id ->
    [Chinese, English], written with the event)."""
    card = hero_card(hero_id)
    if card is None:
        zh, en = ((public or {}).get("names") or {}).get(hero_id, ["", ""])
        return f"{zh} {en}" if en and english_ui() else zh
    return f"{card.name_zh} {card.name_en}" if card.english else card.name_zh
