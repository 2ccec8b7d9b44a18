"""The history's lines of the game in play: HP (damage, HP loss, recovery, max HP, 桃 and 酒),
a death and the end of the game, equipment, delayed tricks and judgements, phases and turns, an
undo (companion.words.history has the registry)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.rules import modes
from companion.rules.cards import corner_label, parse_suit
from companion.rules.flow import peaches_needed, shown_hp
from companion.words.history import clause, describe, known, line
from companion.words.labels import (
    answer_label,
    game_word,
    identity_label,
    outcome_label,
    phase_label,
    place_label,
    side_label,
)
from companion.words.names import card_label, check_label, skill_list


def _hp(public: dict[str, Any]) -> Any:
    """The HP a line shows: never below 0; the 桃 needed say the rest."""
    hp = public.get("hp")
    return shown_hp(hp) if isinstance(hp, int) else hp


def _card(public: dict[str, Any]) -> str:
    return card_label(public.get("card", ""))


# HP ------------------------------------------------------------------------------------------


@line("damage")
def _damage(public: dict[str, Any], name: str) -> str:
    return (
        _("%(name)s took %(n)s damage from %(source)s (HP %(hp)s)")
        if public.get("source_name")
        else _("%(name)s took %(n)s damage (HP %(hp)s)")
    ) % {
        "name": name,
        "n": public.get("amount"),
        "source": public.get("source_name"),
        "hp": _hp(public),
    }


@line("lose_hp")
def _lose_hp(public: dict[str, Any], name: str) -> str:
    return _("%(name)s lost %(n)s HP (HP %(hp)s)") % {
        "name": name,
        "n": public.get("amount"),
        "hp": _hp(public),
    }


@line("recover")
def _recover(public: dict[str, Any], name: str) -> str:
    return _("%(name)s recovered to HP %(hp)s") % {"name": name, "hp": _hp(public)}


@line("max_hp")
def _max_hp(public: dict[str, Any], name: str) -> str:
    return _("%(name)s's max HP is now %(max)s") % {"name": name, "max": public.get("max_hp")}


@line("rescue")
def _rescue(public: dict[str, Any], name: str) -> str:
    return (
        _("%(by)s gave %(name)s a Peach (HP %(hp)s)")
        if public.get("card") == "peach"
        else _("%(name)s drank Wine (HP %(hp)s)")
    ) % {"by": public.get("by_name"), "name": name, "hp": _hp(public)}


@clause("damage")
def _skills(public: dict[str, Any]) -> list[str]:
    if public.get("skills"):
        return [_("may trigger: %(skills)s") % {"skills": skill_list(public["skills"])}]
    return []


@clause("rescue")
def _jiuyuan(public: dict[str, Any]) -> list[str]:
    return [_("Rescue 救援: a Wu hero's Peach heals 1 more")] if public.get("jiuyuan") else []


# A death and the end of the game ------------------------------------------------------------


@line("died")
def _died(public: dict[str, Any], name: str) -> str:
    name = public.get("name", "")
    place = public.get("place")
    label = place_label(place) if place else identity_label(public.get("identity"))
    killer = public.get("killer_name", "")
    text = (
        _("%(name)s (%(identity)s) was killed by %(killer)s")
        if killer
        else _("%(name)s (%(identity)s) died")
    ) % {"name": name, "identity": label, "killer": killer}
    consequence = public.get("consequence")
    if consequence == "draw3":
        text += " · " + _("%(killer)s draws 3 cards") % {"killer": killer}
    elif consequence == "lord_discards_all":
        text += " · " + _("the Lord discards all hand and equipment cards")
    return text


@clause("died")
def _turn_passed(public: dict[str, Any]) -> list[str]:
    return [_("%(name)s's turn") % {"name": public["turn_name"]}] if public.get("turn_name") else []


@clause("damage", "lose_hp", "rescue")
def _peaches(public: dict[str, Any]) -> list[str]:
    """The 桃 still needed after a change that leaves the hero at 0 HP or below."""
    hp = public.get("hp")
    if not isinstance(hp, int) or hp > 0:
        return []
    n = peaches_needed(hp)
    return [ngettext("needs %(n)s Peach", "needs %(n)s Peaches", n) % {"n": n}]


@line("game_over")
def _game_over(public: dict[str, Any], name: str) -> str:
    return side_label(
        public.get("winner", ""),
        public.get("mode", modes.DEFAULT),
        [str(n) for n in public.get("winner_names", [])],
    )


# Equipment, delayed tricks and judgements ----------------------------------------------------


@line("equipped")
def _equipped(public: dict[str, Any], name: str) -> str:
    return _("%(name)s equipped %(card)s") % {"name": name, "card": _card(public)}


@line("unequipped")
def _unequipped(public: dict[str, Any], name: str) -> str:
    return _("%(name)s lost %(card)s") % {"name": name, "card": _card(public)}


@line("trick_placed")
def _trick_placed(public: dict[str, Any], name: str) -> str:
    return (
        _("%(by)s placed %(card)s on %(name)s")
        if public.get("by_name")
        else _("%(card)s placed on %(name)s")
    ) % {"name": name, "card": _card(public), "by": public.get("by_name")}


@line("trick_removed")
def _trick_removed(public: dict[str, Any], name: str) -> str:
    return (
        _("%(by)s removed %(card)s from %(name)s")
        if public.get("by_name")
        else _("The host removed %(card)s from %(name)s")
        if "by_name" in public
        else _("%(card)s removed from %(name)s")
    ) % {"name": name, "card": _card(public), "by": public.get("by_name")}


@line("trick_nullified")
def _trick_nullified(public: dict[str, Any], name: str) -> str:
    words = {"name": name, "card": _card(public), "to": public.get("moved_to_name", "")}
    if public.get("moved_to_name"):
        text = _(
            "无懈可击 (Nullification): %(card)s on %(name)s is cancelled and moves on to %(to)s,"
            " unjudged"
        )
    elif public.get("lightning_stays"):
        text = _("无懈可击 (Nullification): %(card)s on %(name)s is cancelled and stays, unjudged")
    else:
        text = _(
            "无懈可击 (Nullification): %(card)s on %(name)s is cancelled and discarded, unjudged"
        )
    text = text % words
    if public.get("by_name") and public["by_name"] != name:
        text += " · " + _("recorded by %(by)s") % {"by": public["by_name"]}
    return text


def _judgement_words(public: dict[str, Any]) -> dict[str, str]:
    suit = parse_suit(public["suit"])
    return {
        "name": public.get("name", ""),
        "check": check_label(public.get("check", "")),
        "card": corner_label(suit, public.get("rank")),
        "result": outcome_label(public.get("outcome", "")),
    }


@line("judgement_pending")
def _judgement_pending(public: dict[str, Any], name: str) -> str:
    return _(
        "Judgement for %(name)s: %(check)s, %(card)s → %(result)s"
        " (Demonic Talent 鬼才 may replace it)"
    ) % _judgement_words(public)


@line("judgement_replaced")
def _judgement_replaced(public: dict[str, Any], name: str) -> str:
    return _("Demonic Talent 鬼才 replaced the card: %(card)s → %(result)s") % _judgement_words(
        public
    )


@line("judgement")
def _judgement(public: dict[str, Any], name: str) -> str:
    text = _("Judgement for %(name)s: %(check)s, %(card)s → %(result)s") % _judgement_words(public)
    extra = []
    if public.get("moved_to_name"):
        extra.append(_("the Lightning moves to %(name)s") % {"name": public["moved_to_name"]})
    if public.get("lightning_stays"):
        extra.append(_("the Lightning stays"))
    if public.get("skips"):
        extra.append(_("%(phase)s phase skipped") % {"phase": phase_label(public["skips"])})
    if public.get("tiandu"):
        extra.append(_("Envy of Heaven 天妒: Guo Jia takes the judgement card"))
    return " · ".join([text, *extra])


# Phases and turns ---------------------------------------------------------------------------


@line("phase")
def _phase(public: dict[str, Any], name: str) -> str:
    return _("%(name)s: %(phase)s") % {"name": name, "phase": phase_label(public.get("phase", ""))}


@line("turn")
def _turn(public: dict[str, Any], name: str) -> str:
    return _("Round %(round)s: %(name)s's turn") % {"name": name, "round": public.get("round")}


@line("turn_ended")
def _turn_ended(public: dict[str, Any], name: str) -> str:
    if public.get("asking"):  # the mode's flow asks who acts next, in its mode's words
        return _("%(from)s ended the turn · %(asking)s") % {
            "from": public.get("from_name", ""),
            "asking": game_word("asking", public.get("asking", "")) or "",
        }
    return _("%(from)s ended the turn · Round %(round)s: %(name)s's turn") % {
        "from": public.get("from_name", ""),
        "name": name,
        "round": public.get("round"),
    }


@line("flow_answered")
def _flow_answered(public: dict[str, Any], name: str) -> str:
    return _("%(name)s: %(answer)s") % {
        "name": name,
        "answer": answer_label(public.get("answer", "")),
    }


@line("turn_set")
def _turn_set(public: dict[str, Any], name: str) -> str:
    return _("The host set the turn: %(name)s, %(phase)s") % {
        "name": name,
        "phase": phase_label(public.get("phase", "")),
    }


# An undo -------------------------------------------------------------------------------------


@line("undo")
def _undo(public: dict[str, Any], name: str) -> str:
    """What was undone, in words: the undone line itself when the event keeps it."""
    undone = public.get("undone_public")
    kind = public.get("undone_kind", "")
    if isinstance(undone, dict) and known(kind):
        change = describe(kind, undone)["text"]
    else:
        words = {
            "damage": _("the damage to %(name)s"),
            "recover": _("the recovery of %(name)s"),
            "max_hp": _("the max HP change of %(name)s"),
            "rescue": _("the rescue of %(name)s"),
            "died": _("the death of %(name)s"),
        }
        change = words.get(kind, _("a change to %(name)s")) % {"name": name}
    text = _("Undone: %(change)s") % {"change": change}
    if "hp" in public and kind in ("damage", "lose_hp", "recover", "max_hp", "rescue", "died"):
        text += " · " + _("%(name)s has HP %(hp)s") % {"name": name, "hp": _hp(public)}
    return text


@line("deck_reshuffled")
def _deck_reshuffled(public: dict[str, Any], name: str) -> str:
    return _("The deck was reshuffled: the judgement odds start over")
