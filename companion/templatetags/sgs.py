"""Template tags and filters: the live fragments (companion.live.fragments) and game words (phases,
judgements and their results, card names)."""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape as escape
from django.utils.html import format_html
from django.utils.safestring import SafeString

from companion.live import fragments, pieces
from companion.read import state
from companion.read.private import PrivateState
from companion.read.turn import Turn
from companion.rules import help as rules_help
from companion.rules import modes
from companion.rules.help import CHECK_KEYS
from companion.rules.help.first_game import PHASE_HINTS
from companion.rules.skills import Skill
from companion.words import labels, names

register = template.Library()


@register.simple_tag
def jades(hp: int, max_hp: int) -> SafeString:
    """The HP jades for `hp` of `max_hp` (companion.live.fragments.jades)."""
    return fragments.jades(hp, max_hp)


@register.filter
def identity_label(ident: str | None, mode: str = "") -> str:
    """An identity's name in the active language, in the words of the table's mode."""
    return labels.identity_label(ident, mode or modes.DEFAULT)


@register.simple_tag
def hero_label(hero: names.HeroCard) -> SafeString:
    """A hero's names (companion.live.fragments.hero_name)."""
    return fragments.hero_name(hero)


@register.simple_tag
def seat_item(seat: state.PublicSeat, i: int, turn_seat_id: int | None) -> SafeString:
    """One seat's place in the ring (companion.live.fragments.seat_item)."""
    return fragments.seat_item(seat, int(i), turn_seat_id)


@register.simple_tag
def distances(state_: state.PublicState) -> SafeString:
    return fragments.distances(state_)


@register.simple_tag
def now_strip(state_: state.PublicState, oob: bool = False) -> SafeString:
    """The now strip (companion.live.pieces.now_strip)."""
    return pieces.now_strip(state_, bool(oob))


@register.simple_tag
def turn_bar(t: Turn) -> SafeString:
    """The turn bar (companion.live.pieces.turn_bar)."""
    return pieces.turn_bar(t)


@register.simple_tag
def hp_tracker(me: PrivateState, action_id: str | None = None) -> SafeString:
    """A seat's own HP tracker (companion.live.fragments.hp_tracker)."""
    return fragments.hp_tracker(me, action_id)


@register.simple_tag
def event_line(e: state.HistoryLine) -> SafeString:
    """One line of the table's history (companion.live.fragments.event_line)."""
    return fragments.event_line(e)


@register.filter
def phase_label(phase: str) -> str:
    """A phase's name in the active language."""
    return labels.phase_label(phase)


@register.filter
def check_label(check: str) -> str:
    """A judgement's name (Chinese, plus English in the English UI)."""
    return names.check_label(check)


@register.filter
def outcome_label(outcome: str) -> str:
    """A judgement result in words."""
    return labels.outcome_label(outcome)


@register.filter
def card_label(name: str) -> str:
    """A card's Chinese name, with its English name before it in the English UI."""
    return names.card_label(name)


@register.simple_tag
def card_name(name: str) -> SafeString:
    """A card's names as a chip shows them (companion.live.pieces.card_name)."""
    return pieces.card_name(name)


@register.filter
def skill_label(skill: Skill) -> str:
    """A skill's Chinese name, with its English name before it in the English UI."""
    return names.skill_label(skill)


@register.filter
def percent(value: float) -> str:
    """A probability as a whole percentage."""
    return f"{round(float(value) * 100)}%"


# The rules help a tap opens in place (the rules-help block at the end of
# js/live.js reads `data-help`).
@register.filter
def check_help(check: str) -> str:
    """The help entry of a judgement ("card:八卦阵", "skill:luoshen"), or the FAQ's summary."""
    return CHECK_KEYS.get(check, "faq:judge-summary")


@register.filter
def phase_hint(phase: str) -> str:
    """A phase's one-line explanation for a first game, in the active language."""
    zh, en = PHASE_HINTS.get(phase, ("", ""))
    return en if names.english_ui() else zh


@register.filter
def help_links(text: str) -> SafeString:
    """Words (an HP change, a private history line, a damage step) escaped, each card, hero and
    skill name in them a tap that opens its help entry (companion.live.fragments.help_links)."""
    return fragments.help_links(str(text))


@register.filter
def card_help(name_zh: str) -> SafeString:
    """A card's label (`card_label`) that one tap opens the help entry of, for a name inside a
    sentence of a dialog (the damage dialog's weapon and armour choices)."""
    key = rules_help.card_key(str(name_zh))
    label = escape(names.card_label(str(name_zh)))
    if not key:
        return label
    return format_html('<span data-help="{}">{}</span>', key, label)


@register.filter
def card_help_key(name_zh: str) -> str:
    """The help key of a card of the box ("card:杀"), or "" for anything else ("other")."""
    return rules_help.card_key(str(name_zh))


@register.filter
def url_breaks(url: str) -> SafeString:
    """An address that may wrap after any / past its scheme (a narrow phone's join box), so the
    table code at its end wraps whole instead of anywhere ("…/j/WMEH", "R/")."""
    scheme, sep, rest = str(url).rpartition("://")
    parts = [str(escape(part)) for part in rest.split("/")]
    return SafeString(str(escape(scheme + sep)) + "/<wbr>".join(parts))
