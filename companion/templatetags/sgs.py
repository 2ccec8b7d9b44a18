"""Template filters for game words: phases, judgements and their results, card names."""

from __future__ import annotations

from django import template

from companion import state

register = template.Library()


@register.filter
def phase_label(phase: str) -> str:
    """A phase's name in the active language."""
    return state.phase_label(phase)


@register.filter
def check_label(check: str) -> str:
    """A judgement's name (Chinese, plus English in the English UI)."""
    return state.check_label(check)


@register.filter
def outcome_label(outcome: str) -> str:
    """A judgement result in words."""
    return state.outcome_label(outcome)


@register.filter
def card_label(name: str) -> str:
    """A card's Chinese name, plus its English name in the English UI."""
    return state._card({"card": name})


@register.filter
def percent(value: float) -> str:
    """A probability as a whole percentage."""
    return f"{round(float(value) * 100)}%"
