"""The translated words of the game's states: identities, winning sides, phases and judgement
outcomes (from the Django translation files); a mode's own (its name, its winning sides) come
from its game package (`register_mode`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from companion.rules import modes
from companion.rules.identities import Identity


def identity_label(identity: str | None, mode: str = modes.DEFAULT) -> str:
    """The translated name of an identity, in the mode's words: a mode whose seats are not the
    identity game's names the role the card marks (`Mode.role`: 3 vs 3's colour and role, 1 vs
    1's first or second player)."""
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


def draft_side_label(side: str) -> str:
    """A draft side's name: 3 vs 3's colours; 1 vs 1's players, by who moves first (the
    renegade card's player) and second (the lord card's)."""
    return {
        "warm": _("the warm side"),
        "cold": _("the cold side"),
        "lord": _("the second player"),
        "renegade": _("the first player"),
    }.get(side, side)


def place_label(place: str) -> str:
    """A seat's place or role ("cold_vanguard_a", "warm_commander", "first_player"): 3 vs 3's
    colour and place, 1 vs 1's first or second player."""
    players = {"first_player": _("First player"), "second_player": _("Second player")}
    if place in players:
        return players[place]
    colour, _sep, role = place.partition("_")
    side = capfirst(draft_side_label(colour))
    return {
        "commander": _("%(side)s: commander") % {"side": side},
        "vanguard_a": _("%(side)s: vanguard A") % {"side": side},
        "vanguard_b": _("%(side)s: vanguard B") % {"side": side},
        "vanguard": _("%(side)s: vanguard") % {"side": side},
    }.get(role, place)


def side_label(side: str, mode: str = modes.DEFAULT, names: Sequence[str] = ()) -> str:
    """The translated words for a winning side, keyed by the mode: its package's words
    (`register_mode`: the identity game's sides); 3 vs 3's colours, with their players when
    `names` are given; 1 vs 1's winner by name (`names`), or the card's side when no name is
    known."""
    joined = pgettext("list separator", ", ").join(names)
    if mode == "threes":
        text = {
            "lord": _("The warm side wins"),
            "renegade": _("The cold side wins"),
        }.get(side, "")
        if text and joined:
            return _("%(side)s: %(names)s") % {"side": text, "names": joined}
        return text
    if mode == "duel":
        if side not in ("lord", "renegade"):
            return ""
        if joined:
            return _("%(name)s wins") % {"name": joined}
        return {
            "lord": _("The second player wins"),
            "renegade": _("The first player wins"),
        }[side]
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


_MODE_WORDS: dict[str, ModeWords] = {
    "threes": ModeWords(
        gettext_lazy("3 vs 3"),
        gettext_lazy("Exactly 6 players: two teams, a commander each, a draft."),
    ),
    "duel": ModeWords(
        gettext_lazy("1 vs 1"),
        gettext_lazy("Exactly 2 players: three heroes each, in a secret order."),
    ),
}


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
