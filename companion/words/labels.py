"""The translated words of the game's states: identities, winning sides, phases and judgement
outcomes (from the Django translation files); a mode's own (its name, its winning sides) come
from its game package (`register_mode`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from companion.rules import modes
from companion.rules.identities import Identity


def identity_label(identity: str | None, mode: str = modes.DEFAULT) -> str:
    """The translated name of an identity, in the mode's words: a mode whose seats are not the
    identity game's names the role the card marks (`Mode.role`: a side and role, or a first or
    second player)."""
    if not identity:
        return ""
    role = modes.get(mode).role(Identity(identity))
    if role:
        return place_label(role)
    labels = {
        "lord": _("Lord"),
        "loyalist": _("Loyalist"),
        "rebel": _("Rebel"),
        "renegade": _("Renegade"),
    }
    return labels.get(identity, "")


# The words a game package gives for its own codes, by kind: "side" (a draft side's name),
# "side_tag" (a side in one short word), "place" (a seat's place or role), "role_hint" (what a
# role means, under its open card), "slot" (a place a side fills in its placement), "question"
# and "asking" (what a mode's flow asks, on the screens and in the history) and "answer". Each is
# a function code -> words, None for a code that is not its own (`register_words`, from the
# package's `words` module, imported when its app is ready).
_WORDS: dict[str, list[Callable[[str], str | None]]] = {}


def register_words(kind: str, words: Callable[[str], str | None]) -> None:
    """A game package's words for its codes of `kind` (see `_WORDS`)."""
    found = _WORDS.setdefault(kind, [])
    if words not in found:
        found.append(words)


def game_word(kind: str, code: str) -> str | None:
    """The words a game package gives for `code` of `kind`, or None: no package's code."""
    for words in _WORDS.get(kind, ()):
        text = words(code)
        if text is not None:
            return text
    return None


def draft_side_label(side: str) -> str:
    """A draft side's name, in its mode's words (its colours, its players)."""
    return game_word("side", side) or side


def place_label(place: str) -> str:
    """A seat's place or role (a code of its mode's), in its mode's words."""
    return game_word("place", place) or place


def answer_label(answer: str) -> str:
    """An answer to the question a mode's flow asks, in its mode's words."""
    return game_word("answer", answer) or answer


def side_label(side: str, mode: str = modes.DEFAULT, names: Sequence[str] = ()) -> str:
    """The translated words for a winning side, keyed by the mode: its package's words
    (`register_mode`), with the players when `names` are given where the mode says so."""
    joined = pgettext("list separator", ", ").join(names)
    words = _MODE_WORDS.get(mode)
    return words.side(side, joined) if words is not None and words.side is not None else ""


def phase_label(phase: str) -> str:
    """The translated name of a phase."""
    return {
        "start": _("Start"),
        "judgement": _("Judgement"),
        "draw": _("Draw"),
        "play": _("Play"),
        "discard": _("Discard"),
        "end": _("End"),
    }.get(phase, phase)


def outcome_label(outcome: str) -> str:
    """What a judgement result means, in words."""
    return {
        "escaped": _("no effect: the trick is discarded"),
        "skip_play": _("skip the play phase"),
        "skip_draw": _("skip the draw phase"),
        "struck": _("struck: 3 thunder damage"),
        "passes_on": _("no strike: it passes on"),
        "dodge": _("red: counts as a Dodge"),
        "no_dodge": _("black: may still play a Dodge"),
        "unblockable": _("red: the Slash cannot be dodged"),
        "normal": _("black: a normal Slash"),
        "succeeds": _("succeeds: the source discards 2 or takes 1 damage"),
        "fails": _("fails: nothing happens"),
        "gain_card_again": _("black: take the card, may judge again"),
        "stop": _("red: stop"),
        "spade": "♠",
        "heart": "♥",
        "club": "♣",
        "diamond": "♦",
    }.get(outcome, outcome)


@dataclass(frozen=True)
class ModeWords:
    """A way to play's words: its name and one line on who plays (the create form), how it
    words a winning side (`side(side, joined names)`; None: no words), and what the deal button
    waits for while too few or too many are seated (None: the count from its limits)."""

    name: Promise | str
    line: Promise | str
    side: Callable[[str, str], str] | None = None
    seats_needed: Promise | str | None = None


# Each mode's words, registered by its package (`register_mode`).
_MODE_WORDS: dict[str, ModeWords] = {}


def register_mode(key: str, words: ModeWords) -> None:
    """A mode's package gives its words (from its `words` module, imported when its app is
    ready); a key registered again is replaced."""
    _MODE_WORDS[key] = words


def mode_choices() -> list[tuple[str, str, str]]:
    """The ways to play a new table may choose, in the registry's order: key, name, and one line
    on who plays (the home page's create form)."""
    return [
        (key, str(words.name), str(words.line))
        for key in modes.keys()
        if (words := _MODE_WORDS.get(key)) is not None
    ]


def mode_label(key: str) -> str:
    """The translated name of a way to play."""
    return next((name for k, name, _line in mode_choices() if k == key), key)


def seats_needed(key: str) -> str:
    """What the host's deal button waits for: the mode's number of players."""
    mode = modes.get(key)
    if mode.min_players == mode.max_players:
        return _("The deal needs exactly %(n)s players.") % {"n": mode.min_players}
    words = _MODE_WORDS.get(key)
    if words is not None and words.seats_needed is not None:
        return str(words.seats_needed)
    return _("Identities need %(min)d to %(max)d players.") % {
        "min": mode.min_players,
        "max": mode.max_players,
    }
