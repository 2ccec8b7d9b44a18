"""The translated words of the game's states: identities, winning sides, phases and judgement
outcomes (from the Django translation files)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

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
    """The translated words for a winning side, keyed by the mode: the identity
    game's sides; 3 vs 3's colours, with their players when `names` are given; 1 vs 1's
    winner by name (`names`), or the card's side when no name is known."""
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
    return {
        "lord": _("The Lord and the Loyalists win"),
        "rebels": _("The Rebels win"),
        "renegade": _("The Renegade wins"),
    }.get(side, "")


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


def mode_choices() -> list[tuple[str, str, str]]:
    """The ways to play a new table may choose, in the registry's order: key, name, and one line
    on who plays (the home page's create form)."""
    words = {
        "identity": (_("Identity game"), _("4 to 10 players; a public lord.")),
        "threes": (_("3 vs 3"), _("Exactly 6 players: two teams, a commander each, a draft.")),
        "duel": (_("1 vs 1"), _("Exactly 2 players: three heroes each, in a secret order.")),
    }
    return [(key, *words[key]) for key in modes.keys() if key in words]


def mode_label(key: str) -> str:
    """The translated name of a way to play."""
    return next((name for k, name, _line in mode_choices() if k == key), key)


def seats_needed(key: str) -> str:
    """What the host's deal button waits for: the mode's number of players."""
    mode = modes.get(key)
    if mode.min_players == mode.max_players:
        return _("The deal needs exactly %(n)s players.") % {"n": mode.min_players}
    return _("Identities need 4 to 10 players.")
