"""The history's lines of 军争 (maneuvering): a damage resolved step by step (`step_words`,
`chain_words`, also the damage dialog's words), chains, 酒 and 白银狮子 (companion.words.history
has the registry; the app registers them when ready)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.words import history, labels, variants
from companion.words.history import WORKED_DAMAGE, clause, line, member
from companion.words.names import card_label, skill_list


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
    made = history.change_of(modifier)  # another game's (a point it prevents)
    return made(before, after) if made is not None else str(modifier)


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


@line("damage_resolved")
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


@line("chained")
def _chained(public: dict[str, Any], name: str) -> str:
    if public.get("chained"):
        return _("%(name)s is chained (%(card)s)") % {"name": name, "card": card_label("铁索连环")}
    return _("%(name)s is no longer chained") % {"name": name}


@line("wine")
def _wine(public: dict[str, Any], name: str) -> str:
    return _("%(name)s drank %(card)s (the next Slash this turn +1)") % {
        "name": name,
        "card": card_label("酒"),
    }


@clause("equipped", "unequipped")
def _silver_lion(public: dict[str, Any]) -> list[str]:
    """白银狮子 left the seat: its holder recovered."""
    if not public.get("recovered"):
        return []
    return [
        _("%(card)s: recovered %(n)s HP (HP %(hp)s)")
        % {"card": card_label("白银狮子"), "n": public["recovered"], "hp": public.get("hp")}
    ]


@clause("damage_resolved")
def _paused(public: dict[str, Any]) -> list[str]:
    """A chain paused on a seat it left dying (docs/rules.md §9.9)."""
    pause = public.get("paused")
    if not pause:
        return []
    return [_("chain paused: %(name)s is dying") % {"name": pause.get("dying_name", "")}]


@line("chain_continued")
def _chain_continued(public: dict[str, Any], name: str) -> str:
    return " · ".join(
        [
            _("The chain goes on"),
            *(step_words(s) for s in public.get("steps", [])),
            *_paused(public),
        ]
    )


# Its resolved damage and the rest of a chain take the clauses other games add to every damage
# the rules worked out.
member("damage_resolved", WORKED_DAMAGE)
member("chain_continued", WORKED_DAMAGE)

# Its option in the host's form (docs/rules.md §9.9: an expansion of the deck, not a variant).
variants.add_words(
    {
        "maneuvering": gettext_lazy("Maneuvering (军争) expansion cards in the deck"),
    },
    {},
)


# Its damage types in the "−" dialog's choices (companion.hooks.damage_types).
_DAMAGE_TYPES = {"fire": gettext_lazy("Fire"), "thunder": gettext_lazy("Thunder")}
labels.register_words("damage_type", lambda code: _text(_DAMAGE_TYPES.get(code)))


def _text(words: Any) -> str | None:
    return None if words is None else str(words)
