"""The history's event lines in the active language (`describe`): one line of words per event,
from its public part only. The sentences come from the Django translation files; the labels
they use from companion.words.labels, the names of heroes, cards, skills and judgements from
companion.words.names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.actions.sessions import GAME_CORRECTED, SESSION_STARTED
from companion.rules import modes
from companion.rules.cards import corner_label, parse_suit
from companion.rules.flow import peaches_needed, shown_hp
from companion.words.labels import (
    draft_side_label,
    identity_label,
    outcome_label,
    phase_label,
    place_label,
    side_label,
    soul_label,
)
from companion.words.names import card_label, check_label, english_ui, hero_card, skill_list


def _hero_name(hero_id: str, public: dict[str, Any] | None = None) -> str:
    """A hero's name; a hero the table added is named by the event itself (`names`: id ->
    [Chinese, English], written with the event)."""
    card = hero_card(hero_id)
    if card is None:
        zh, en = ((public or {}).get("names") or {}).get(hero_id, ["", ""])
        return f"{zh} {en}" if en and english_ui() else zh
    return f"{card.name_zh} {card.name_en}" if card.english else card.name_zh


def _in_sentence(label: str) -> str:
    """A label that starts a line ("The warm side: commander") inside a sentence."""
    return label[:1].lower() + label[1:]


def _box_text(public: dict[str, Any]) -> str:
    """A change of the table's hero box (companion.actions.box_offers)."""
    what = public.get("what")
    hero = _hero_name(public.get("hero", ""), public)
    if what == "add":
        return _("The host added %(hero)s to the hero box") % {"hero": hero}
    if what == "remove":
        return _("The host took %(hero)s out of the hero box") % {"hero": hero}
    if what == "off":
        return _("The host took %(hero)s out of the hero box") % {"hero": hero}
    if what == "on":
        return _("The host put %(hero)s back in the hero box") % {"hero": hero}
    return _("The host imported a hero box")


def describe(kind: str, public: dict[str, Any]) -> dict[str, Any]:
    """One history line from an event's public part only."""
    make = _TEXTS.get(kind)
    if make is None and kind in (SESSION_STARTED, GAME_CORRECTED):
        return {"kind": kind, "text": _session_text(kind, public)}
    return {"kind": kind, "text": make(public, public.get("name", "")) if make else kind}


def _names_of_change(item: dict[str, Any]) -> str:
    name = item.get("name", "")
    what = item.get("what")
    if what == "killer":
        if item.get("now_name"):
            return _("%(name)s was killed by %(killer)s") % {
                "name": name,
                "killer": item["now_name"],
            }
        return _("%(name)s died with no killer") % {"name": name}
    if what == "alive":
        if item.get("now"):
            return _("%(name)s was alive at the end") % {"name": name}
        return _("%(name)s was dead at the end") % {"name": name}
    if what == "final_duel":
        if item.get("now"):
            return _("%(name)s lost the final duel") % {"name": name}
        return _("%(name)s did not die in the final duel") % {"name": name}
    return name


def _session_text(kind: str, public: dict[str, Any]) -> str:
    """The history line of a session event (companion.actions.sessions)."""
    if kind == SESSION_STARTED:
        if public.get("tournament"):
            return _("Tournament session %(n)s started: %(name)s is the first Lord") % {
                "n": public.get("session"),
                "name": public.get("first_lord_name", ""),
            }
        return _("Session %(n)s started") % {"n": public.get("session")}
    if kind == GAME_CORRECTED:
        text = _("The host corrected game %(n)s") % {"n": public.get("game")}
        parts = [_names_of_change(item) for item in public.get("changes", [])]
        if public.get("winner") != public.get("winner_before"):
            parts.append(side_label(public.get("winner", "")))
        return f"{text}: {'; '.join(parts)}" if parts else text
    return kind


# One history line per event kind, from the event's public part and its seat's name. Built once
# (describe runs for every line of every screen's history).
_TEXTS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "table_created": lambda public, name: _("Table opened"),
    "seat_joined": lambda public, name: _("%(name)s joined") % {"name": name},
    "seat_moved": lambda public, name: (
        _("%(name)s moved to seat %(pos)s")
        % {"name": name, "pos": int(public.get("position", 0)) + 1}
    ),
    "seat_removed": lambda public, name: _("%(name)s was removed") % {"name": name},
    "seat_handed_over": lambda public, name: (
        _("%(name)s's seat moved to a new phone, by the host") % {"name": name}
        if public.get("by_host")
        else _("%(name)s's seat moved to another phone") % {"name": name}
    ),
    "seat_handover_requested": lambda public, name: (
        _(
            "%(name)s's seat is moving to a new phone, by the host: in %(s)s seconds unless "
            "%(name)s's phone refuses or someone objects"
        )
        % {"name": name, "s": public.get("seconds")}
    ),
    "seat_handover_cancelled": lambda public, name: (
        _("%(by)s objected: %(name)s's seat stays on its phone")
        % {"by": public.get("by_name"), "name": name}
        if public.get("by_name")
        else _("The move of %(name)s's seat to a new phone was stopped") % {"name": name}
    ),
    "host_passed": lambda public, name: _("%(name)s is now the host") % {"name": name},
    "table_locked": lambda public, name: _("Table locked"),
    "table_unlocked": lambda public, name: _("Table unlocked"),
    "options_changed": lambda public, name: _("Table options changed"),
    "identities_dealt": lambda public, name: (
        _("Identities dealt: %(name)s is %(role)s")
        % {"name": public.get("lord_name", ""), "role": _in_sentence(place_label(public["role"]))}
        if public.get("role")
        else _("Identities dealt: %(name)s is the Lord") % {"name": public.get("lord_name", "")}
    ),
    "identities_redealt": lambda public, name: (
        _("Identities dealt again: %(name)s is %(role)s")
        % {"name": public.get("lord_name", ""), "role": _in_sentence(place_label(public["role"]))}
        if public.get("role")
        else _("Identities dealt again: %(name)s is the Lord")
        % {"name": public.get("lord_name", "")}
    ),
    "game_started": lambda public, name: _("The game has started"),
    "heroes_lord_choosing": lambda public, name: (
        _("%(name)s, the Lord, is choosing a hero") % {"name": name}
    ),
    "hero_lord_picked": lambda public, name: (
        _("The Lord %(name)s plays %(hero)s")
        % {"name": name, "hero": _hero_name(public.get("hero", ""), public)}
    ),
    "hero_picked": lambda public, name: (
        _("%(name)s has chosen a hero (%(n)s of %(of)s)")
        % {"name": name, "n": public.get("picked"), "of": public.get("of")}
    ),
    "hero_repicked": lambda public, name: (
        _("%(name)s changed their choice (%(n)s of %(of)s)")
        % {"name": name, "n": public.get("picked"), "of": public.get("of")}
    ),
    "heroes_revealed": lambda public, name: _(
        "All heroes revealed: take your hero card from the box"
    ),
    "heroes_redealt": lambda public, name: _("The host dealt the hero candidates again"),
    "box_changed": lambda public, name: _box_text(public),
    "my_hero_picked": lambda public, name: (
        _("You chose %(hero)s") % {"hero": _hero_name(public["hero"], public)}
    ),
    "damage": lambda public, name: (
        (
            _("%(name)s took %(n)s damage from %(source)s (HP %(hp)s)")
            if public.get("source_name")
            else _("%(name)s took %(n)s damage (HP %(hp)s)")
        )
        % {
            "name": name,
            "n": public.get("amount"),
            "source": public.get("source_name"),
            "hp": _hp(public),
        }
    ),
    "recover": lambda public, name: (
        _("%(name)s recovered to HP %(hp)s") % {"name": name, "hp": _hp(public)}
    ),
    "max_hp": lambda public, name: (
        _("%(name)s's max HP is now %(max)s") % {"name": name, "max": public.get("max_hp")}
    ),
    "rescue": lambda public, name: (
        (
            _("%(by)s gave %(name)s a Peach (HP %(hp)s)")
            if public.get("card") == "peach"
            else _("%(name)s drank Wine (HP %(hp)s)")
        )
        % {"by": public.get("by_name"), "name": name, "hp": _hp(public)}
    ),
    "died": lambda public, name: _died_text(public),
    "game_over": lambda public, name: side_label(
        public.get("winner", ""),
        public.get("mode", modes.DEFAULT),
        [str(n) for n in public.get("winner_names", [])],
    ),
    "equipped": lambda public, name: (
        _("%(name)s equipped %(card)s") % {"name": name, "card": _card(public)}
    ),
    "unequipped": lambda public, name: (
        _("%(name)s lost %(card)s") % {"name": name, "card": _card(public)}
    ),
    "trick_placed": lambda public, name: (
        (
            _("%(by)s placed %(card)s on %(name)s")
            if public.get("by_name")
            else _("%(card)s placed on %(name)s")
        )
        % {"name": name, "card": _card(public), "by": public.get("by_name")}
    ),
    "trick_removed": lambda public, name: (
        (
            _("%(by)s removed %(card)s from %(name)s")
            if public.get("by_name")
            else _("The host removed %(card)s from %(name)s")
            if "by_name" in public
            else _("%(card)s removed from %(name)s")
        )
        % {"name": name, "card": _card(public), "by": public.get("by_name")}
    ),
    "trick_nullified": lambda public, name: _nullified_text(public, name),
    "judgement_pending": lambda public, name: (
        _(
            "Judgement for %(name)s: %(check)s, %(card)s → %(result)s"
            " (Demonic Talent 鬼才 may replace it)"
        )
        % _judgement_words(public)
    ),
    "judgement_replaced": lambda public, name: (
        _("Demonic Talent 鬼才 replaced the card: %(card)s → %(result)s") % _judgement_words(public)
    ),
    "judgement": lambda public, name: _judgement_text(public),
    "phase": lambda public, name: (
        _("%(name)s: %(phase)s") % {"name": name, "phase": phase_label(public.get("phase", ""))}
    ),
    "turn": lambda public, name: (
        _("Round %(round)s: %(name)s's turn") % {"name": name, "round": public.get("round")}
    ),
    "turn_set": lambda public, name: (
        _("The host set the turn: %(name)s, %(phase)s")
        % {"name": name, "phase": phase_label(public.get("phase", ""))}
    ),
    "timer": lambda public, name: (
        _("Turn timer: %(s)s seconds") % {"s": public.get("seconds")}
        if public.get("seconds")
        else _("Turn timer off")
    ),
    "undo": lambda public, name: _undo_text(public, name),
}


def _hp(public: dict[str, Any]) -> Any:
    """The HP a line shows: never below 0; the 桃 needed say the rest."""
    hp = public.get("hp")
    return shown_hp(hp) if isinstance(hp, int) else hp


def _peaches(public: dict[str, Any]) -> list[str]:
    """The 桃 still needed after a change that leaves the hero at 0 HP or below."""
    hp = public.get("hp")
    if not isinstance(hp, int) or hp > 0:
        return []
    n = peaches_needed(hp)
    return [ngettext("needs %(n)s Peach", "needs %(n)s Peaches", n) % {"n": n}]


def _undo_text(public: dict[str, Any], name: str) -> str:
    """What was undone, in words: the undone line itself when the event keeps it."""
    undone = public.get("undone_public")
    kind = public.get("undone_kind", "")
    if isinstance(undone, dict) and kind in _TEXTS:
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


def _extend(kind: str, extra: Callable[[dict[str, Any]], list[str]]) -> None:
    """Add clauses to one kind's line ("text · clause"), leaving its own text as it is."""
    base = _TEXTS[kind]
    _TEXTS[kind] = lambda public, name: " · ".join([base(public, name), *extra(public)])


_TEXTS["lose_hp"] = lambda public, name: (
    _("%(name)s lost %(n)s HP (HP %(hp)s)")
    % {"name": name, "n": public.get("amount"), "hp": _hp(public)}
)
_TEXTS["turn_ended"] = lambda public, name: (
    _("%(from)s ended the turn · Round %(round)s: %(name)s's turn")
    % {"from": public.get("from_name", ""), "name": name, "round": public.get("round")}
)
_extend(
    "damage",
    lambda public: (
        [_("may trigger: %(skills)s") % {"skills": skill_list(public["skills"])}]
        if public.get("skills")
        else []
    ),
)
_extend(
    "rescue",
    lambda public: (
        [_("Rescue 救援: a Wu hero's Peach heals 1 more")] if public.get("jiuyuan") else []
    ),
)
_extend(
    "died",
    lambda public: (
        [_("%(name)s's turn") % {"name": public["turn_name"]}] if public.get("turn_name") else []
    ),
)


def _died_text(public: dict[str, Any]) -> str:
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


def _card(public: dict[str, Any]) -> str:
    return card_label(public.get("card", ""))


def _judgement_words(public: dict[str, Any]) -> dict[str, str]:
    suit = parse_suit(public["suit"])
    return {
        "name": public.get("name", ""),
        "check": check_label(public.get("check", "")),
        "card": corner_label(suit, public.get("rank")),
        "result": outcome_label(public.get("outcome", "")),
    }


def _nullified_text(public: dict[str, Any], name: str) -> str:
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


def _judgement_text(public: dict[str, Any]) -> str:
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


for _kind in ("damage", "lose_hp", "rescue"):
    _extend(_kind, _peaches)


# 军争: a resolved damage, step by step, in words -------------------------------------


def _type_word(kind: str) -> str:
    if kind == "fire":
        return _("fire")
    if kind == "thunder":
        return _("thunder")
    return ""


def change_words(change: list[Any]) -> str:
    """One modifier of a damage step ([modifier, before, after]) in words: "白银狮子: 3 → 1"."""
    modifier, before, after = change
    arrow = {"before": before, "after": after}
    if modifier == "feather_fan_fire":
        return _("%(card)s: fire damage") % {"card": card_label("朱雀羽扇")}
    if modifier == "wine":
        return _("%(card)s +1") % {"card": card_label("酒")}
    if modifier == "guding_blade":
        return _("%(card)s +1 (no hand card)") % {"card": card_label("古锭刀")}
    if modifier == "chain_passed":
        return _("chain: %(n)s passed on") % {"n": before}
    if modifier == "qinggang_ignores_armor":
        return _("%(card)s: the armour counts for nothing") % {"card": card_label("青釭剑")}
    if modifier == "vine_immune":
        return _("%(card)s: no damage") % {"card": card_label("藤甲")}
    if modifier == "renwang_shield":
        return _("%(card)s: a black Slash has no effect") % {"card": card_label("仁王盾")}
    if modifier == "ice_sword_prevented":
        return _("%(card)s: no damage, 2 of the target's cards discarded instead") % {
            "card": card_label("寒冰剑")
        }
    if modifier == "vine_fire":
        return _("%(card)s: %(before)s → %(after)s") % {**arrow, "card": card_label("藤甲")}
    if modifier == "silver_lion_cap":
        return _("%(card)s: %(before)s → %(after)s") % {**arrow, "card": card_label("白银狮子")}
    if modifier == "luohan_prevented":
        return _("Luohan 罗汉 prevents 1 before it lands: %(before)s → %(after)s") % arrow
    return str(modifier)


def step_words(step: dict[str, Any]) -> str:
    """What one seat takes, in words: "甘宁 takes 2 fire damage (HP 4 → 2)"."""
    kind = _type_word(step.get("type", ""))
    words = {
        "name": step.get("name", ""),
        "n": step.get("amount"),
        "type": kind,
        "before": step.get("hp_before"),
        "hp": step.get("hp"),
    }
    if not step.get("amount"):
        text = _("%(name)s takes no damage") % words
    elif kind:
        text = _("%(name)s takes %(n)s %(type)s damage (HP %(before)s → %(hp)s)") % words
    else:
        text = _("%(name)s takes %(n)s damage (HP %(before)s → %(hp)s)") % words
    clauses = [change_words(c) for c in step.get("changes", []) if c[0] != "chain_passed"]
    if step.get("dying"):
        clauses.append(_("%(name)s is dying") % words)
    skills = step.get("skills", [])
    if skills:
        times = step.get("times", [1] * len(skills))
        listed = [
            skill_list([s]) + (f" ×{t}" if t and t > 1 else "")
            for s, t in zip(skills, times, strict=False)
        ]
        clauses.append(_("may use %(skills)s") % {"skills": "、".join(listed)})
    return " · ".join([text, *clauses])


def chain_words(steps: list[dict[str, Any]]) -> str:
    """The chain's summary: "chain: 甘宁 and 黄盖 each take 1 fire damage next" ("" for none)."""
    chained = [s for s in steps if s.get("index", 0) > 0]
    if not chained:
        return ""
    names = [s.get("name", "") for s in chained]
    joined = (
        names[0]
        if len(names) == 1
        else _("%(some)s and %(last)s")
        % {
            "some": "、".join(names[:-1]),
            "last": names[-1],
        }
    )
    words = {
        "names": joined,
        "n": chained[0].get("chain_amount"),
        "type": _type_word(chained[0].get("type", "")),
    }
    if len(names) == 1:
        return _("chain: %(names)s takes %(n)s %(type)s damage next") % words
    return _("chain: %(names)s each take %(n)s %(type)s damage next") % words


def _resolved_text(public: dict[str, Any], name: str) -> str:
    steps = public.get("steps", [])
    head = (
        (
            _("%(card)s from %(source)s")
            % {"card": card_label(public.get("card", "")), "source": public.get("source_name")}
            if public.get("source_name")
            else card_label(public.get("card", ""))
        )
        if public.get("card") not in ("skill", "other")
        else (
            _("Damage from %(source)s") % {"source": public.get("source_name")}
            if public.get("source_name")
            else _("Damage")
        )
    )
    parts = [head]
    if public.get("axe"):
        parts.append(_("%(card)s: forced hit") % {"card": card_label("贯石斧")})
    parts.extend(step_words(s) for s in steps)
    if public.get("qilin"):
        parts.append(
            _("%(card)s discarded %(horse)s")
            % {"card": card_label("麒麟弓"), "horse": card_label(public["qilin"])}
        )
    return " · ".join(parts)


_TEXTS["damage_resolved"] = _resolved_text
_TEXTS["chained"] = lambda public, name: (
    _("%(name)s is chained (%(card)s)") % {"name": name, "card": card_label("铁索连环")}
    if public.get("chained")
    else _("%(name)s is no longer chained") % {"name": name}
)
_TEXTS["wine"] = lambda public, name: (
    _("%(name)s drank %(card)s (the next Slash this turn +1)")
    % {"name": name, "card": card_label("酒")}
)


def _silver_lion(public: dict[str, Any]) -> list[str]:
    """白银狮子 left the seat: its holder recovered."""
    if not public.get("recovered"):
        return []
    return [
        _("%(card)s: recovered %(n)s HP (HP %(hp)s)")
        % {"card": card_label("白银狮子"), "n": public["recovered"], "hp": public.get("hp")}
    ]


_extend("equipped", _silver_lion)
_extend("unequipped", _silver_lion)

_TEXTS["deck_reshuffled"] = lambda public, name: _(
    "The deck was reshuffled: the judgement odds start over"
)


def _paused(public: dict[str, Any]) -> list[str]:
    """A chain paused on a seat it left dying (docs/rules.md §9.9)."""
    pause = public.get("paused")
    if not pause:
        return []
    return [_("chain paused: %(name)s is dying") % {"name": pause.get("dying_name", "")}]


_extend("damage_resolved", _paused)
_TEXTS["chain_continued"] = lambda public, name: " · ".join(
    [_("The chain goes on"), *(step_words(s) for s in public.get("steps", [])), *_paused(public)]
)


# 3 vs 3 and 1 vs 1: teams, the draft, the go, a hero falling. Each line reads only
# the event's public part: a face-down pick names no hero, a placement no place.


def answer_label(answer: str) -> str:
    """An answer to the go's question."""
    return {
        "warm": _("the warm side acts first"),
        "cold": _("the cold side acts first"),
        "commander": _("the commander acts"),
        "vanguards": _("the vanguards act"),
    }.get(answer, answer)


def _picked_text(public: dict[str, Any], name: str) -> str:
    heroes = [
        _hero_name(h, public) if h else _("a face-down hero") for h in public.get("heroes", [])
    ]
    return _("%(name)s picked %(heroes)s") % {"name": name, "heroes": ", ".join(heroes)}


def _asking_text(public: dict[str, Any]) -> str:
    return {
        "first_side": _("the cold commander chooses the side that acts first"),
        "who_acts": _("the commander chooses: commander or vanguards"),
    }.get(public.get("asking", ""), "")


def _turn_ended_text(public: dict[str, Any], name: str) -> str:
    if public.get("asking"):
        return _("%(from)s ended the turn · %(asking)s") % {
            "from": public.get("from_name", ""),
            "asking": _asking_text(public),
        }
    return _turn_ended_base(public, name)


_turn_ended_base = _TEXTS["turn_ended"]
_TEXTS["turn_ended"] = _turn_ended_text
_TEXTS.update(
    {
        "team_joined": lambda public, name: (
            _("%(name)s joined team %(team)s") % {"name": name, "team": public.get("team", 0) + 1}
        ),
        "team_commander": lambda public, name: (
            _("%(name)s commands team %(team)s")
            % {"name": name, "team": (public.get("team") or 0) + 1}
        ),
        "draft_started": lambda public, name: _("The hero draft has begun"),
        "draft_first": lambda public, name: (
            _("%(name)s chose: %(side)s picks first")
            % {"name": name, "side": draft_side_label(public.get("side", ""))}
        ),
        "draft_picked": _picked_text,
        "draft_placed": lambda public, name: (
            _("%(name)s placed the heroes of %(side)s face down")
            % {"name": name, "side": draft_side_label(public.get("side", ""))}
        ),
        "draft_revealed": lambda public, name: _(
            "The heroes are revealed: take your hero card from the table"
        ),
        "draft_undone": lambda public, name: (
            _("%(side)s took back a step of the draft")
            % {"side": draft_side_label(public.get("side", ""))}
        ),
        "flow_answered": lambda public, name: (
            _("%(name)s: %(answer)s")
            % {"name": name, "answer": answer_label(public.get("answer", ""))}
        ),
        "hero_fell": lambda public, name: (
            _("%(name)s's %(fallen)s fell; %(hero)s comes in: discard its cards and draw 4")
            % {
                "name": name,
                "fallen": _hero_name(public.get("fallen_hero", ""), public),
                "hero": _hero_name(public.get("hero", ""), public),
            }
        ),
    }
)


# The protection of the first out and the last three (docs/rules.md §9.3, §9.4) --------------


def _protection_clauses(public: dict[str, Any]) -> list[str]:
    found = []
    if public.get("protected"):
        found.append(_("protected: the last game's first out keeps their last HP"))
    if public.get("protection_ended"):
        found.append(_("the protection of the last game's first out ends"))
    return found


def _last_three_started(public: dict[str, Any]) -> list[str]:
    if public.get("last_three_started") is None:
        return []
    return [_("three alive: the last three's countdown begins (3 rounds after this one)")]


def _round_loss(public: dict[str, Any]) -> list[str]:
    loss = public.get("last_three")
    if not isinstance(loss, dict):
        return []
    if loss.get("carried"):
        return [
            _("Last three: the loss would take everyone out together; it carries to the next round")
        ]
    losers = ", ".join(
        _("%(name)s HP %(hp)s") % {"name": s.get("name", ""), "hp": shown_hp(s.get("hp", 0))}
        for s in loss.get("losers", [])
    )
    return [
        _("Last three: end of round %(round)s, everyone loses 1 HP (%(losers)s)")
        % {"round": loss.get("round_end"), "losers": losers}
    ]


def _luohan_clauses(public: dict[str, Any]) -> list[str]:
    """docs/rules.md §9.2: each 罗汉 that prevented a point of this damage before it landed."""
    return [
        _(
            "Luohan 罗汉 (%(owner)s's soul) prevented 1 point before it landed; %(host)s "
            "discards a hand card"
        )
        % {"owner": row.get("owner_name", ""), "host": row.get("host_name", "")}
        for row in public.get("luohan") or []
    ]


for _kind in ("damage", "lose_hp", "damage_resolved", "chain_continued", "judgement"):
    _extend(_kind, _protection_clauses)
for _kind in ("damage", "damage_resolved", "chain_continued", "judgement"):
    _extend(_kind, _luohan_clauses)
_extend(
    "died",
    lambda public: [
        *_protection_clauses(public),
        *_last_three_started(public),
        *_round_loss(public),
    ],
)
for _kind in ("turn", "turn_ended", "phase"):
    _extend(_kind, _round_loss)
_TEXTS["protection_attacked"] = lambda public, name: (
    _("%(name)s dodged a Slash from %(attacker)s: an attack all the same")
    % {"name": name, "attacker": public.get("attacker_name", "")}
)
_TEXTS["protection_ended"] = lambda public, name: (
    _("%(name)s attacks %(target)s, who attacked them: the protection ends")
    % {"name": name, "target": public.get("target_name", "")}
)


def _soul_words(public: dict[str, Any]) -> dict[str, str]:
    return {
        "name": public.get("name", ""),
        "soul": soul_label(public.get("soul", "")),
        "host": public.get("host_name", ""),
    }


def _gift_text(public: dict[str, Any], name: str) -> str:
    text = _("%(giver)s gave %(name)s a card for rebirth (%(n)s of %(of)s)") % {
        "giver": public.get("giver_name", ""),
        "name": name,
        "n": public.get("cards", 0),
        "of": public.get("threshold", 0),
    }
    if public.get("reborn"):
        text += " · " + _("%(name)s is reborn as %(hero)s with 1 HP") % {
            "name": name,
            "hero": _hero_name(public.get("hero", "")),
        }
    elif public.get("no_hero"):
        text += " · " + _("no hero of his kingdom is left: he keeps his cards")
    return text


def _soul_used_text(public: dict[str, Any], name: str) -> str:
    words = _soul_words(public)
    if public.get("soul") == "luohan":
        return _("%(soul)s (%(name)s's) blocked 1 point of damage to %(host)s (HP %(hp)s)") % {
            **words,
            "hp": public.get("hp", ""),
        }
    return _("%(soul)s (%(name)s's) was used on %(host)s and is gone") % words


# Rebirth 转世 and dark souls 暗魂 (companion/actions/afterlife.py).
_TEXTS.update(
    {
        "rebirth_gift": _gift_text,
        "rebirth_reborn": _gift_text,
        "soul_haunted": lambda public, name: (
            _("%(name)s's dark soul %(soul)s haunts %(host)s") % _soul_words(public)
        ),
        "soul_used": _soul_used_text,
    }
)
