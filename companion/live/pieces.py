"""Pieces of the live fragments built as strings, below `fragments`: a card's name, and the
turn bar (`Turn`), once a template.

Every change of the turn or the phase, every seat entering or leaving dying and every 桃 sends
the turn bar in its frame; as a template (some hundred nodes, a translated word in most) it was a
quarter of such a frame's rendering. The live templates use this too (the `turn_bar` tag of
`sgs`), so the whole state and a delta cannot disagree. Words come from the catalogue entries
the template used: a `{% translate %}` literal as it is, a `{% blocktranslate %}`'s values
escaped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from django.template.loader import get_template
from django.utils.html import conditional_escape as escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from companion import hooks
from companion.words.labels import phase_label
from companion.words.names import card_english, card_label, english_ui, skill_label

if TYPE_CHECKING:
    from companion.read.turn import Turn


def card_name(name_zh: str) -> SafeString:
    """A card's Chinese name as printed on it, with its English name before it in the English
    UI (`<span class="en">Qilin Bow</span> 麒麟弓`)."""
    english = card_english(name_zh) if english_ui() else ""
    if not english:
        return escape(name_zh)
    return mark_safe(f'<span class="en">{escape(english)}</span> {escape(name_zh)}')  # noqa: S308


def turn_bar(t: Turn) -> SafeString:
    """`<div class="turn-bar">`: whose turn and round, the timer, the games' part, the phases,
    what the phase asks, the skills now, and the buttons (for the turn's holder)."""
    name = gettext("%(name)s's turn") % {"name": escape(t.name)}
    timer = (
        f'<span class="timer" data-deadline="{t.deadline_ms}"'
        f' data-expired="{gettext("Time is up!")}"></span>'
        if t.deadline_ms
        else ""
    )
    skipped = f" <small>{gettext('skipped')}</small>"
    phases = "".join(
        f'<li class="phase {escape(st)}">{escape(phase_label(phase))}'
        f"{skipped if st == 'skipped' else ''}</li>"
        for phase, st in t.phases
    )
    parts = [
        f'\n  <div class="turn-bar" data-turn-seat="{t.seat_id}">\n'
        f'    <div class="turn-head"><span class="pill">'
        f"{gettext('Round %(n)s') % {'n': t.round}}</span>\n"
        f'      <strong class="turn-name">{name}</strong>\n'
        f"      {timer}</div>\n"
        f"    {_games(t)}\n"
        f'    <ol class="phases">{phases}</ol>\n'
        f'    <p class="phase-note">{_note(t)}</p>\n'
    ]
    if t.skills:
        tags = "".join(
            f'<span class="tag" data-help="skill:{escape(sk.id)}">{escape(skill_label(sk))}</span>'
            for sk in t.skills
        )
        parts.append(f'    <p class="skills-now">{gettext("Skills now:")} {tags}</p>\n')
    parts.append(
        f'    <div class="row-actions turn-only">\n      {_buttons(t)}\n    </div>\n  </div>\n'
    )
    return mark_safe("".join(parts))  # noqa: S308 - every value escaped


def _games(t: Turn) -> str:
    """The templates of the games on for the slot "turn_bar", given the turn as `t`."""
    found = []
    for key in t.games.on:
        game = hooks.by_key(key)
        name = game.templates.get("turn_bar") if game is not None else None
        if name:
            found.append(get_template(name).render({"t": t}))
    return "".join(found)


def _note(t: Turn) -> str:
    """What the phase asks of the table."""
    if t.phase == "draw":
        note = ngettext("Draw %(n)s card.", "Draw %(n)s cards.", t.draw) % {"n": t.draw}
        if t.draw_change < 0:
            fewer = gettext("One card fewer: the side that moves first, in its first draw phase.")
            note += f' <span class="draw-change">{fewer}</span>'
        return note
    if t.phase == "discard":
        note = gettext("Hand limit: %(n)s (current HP).") % {"n": t.hand_limit}
        if t.keji:
            note += " " + gettext(
                "Self-Restraint 克己: no discard if no Slash was used this play phase."
            )
        return note
    if t.phase == "judgement":
        if not t.zone:
            return gettext("Nothing to judge.")
        chips = "".join(
            f'<span class="chip trick" data-help="card:{escape(c)}">{card_name(c)}</span>'
            for c in t.zone
        )
        return f"{gettext('Judge the delayed tricks, last placed first:')} {chips}"
    if t.phase == "play":
        return gettext("One Slash per play phase unless a card or skill says otherwise.")
    return ""


def _buttons(t: Turn) -> str:
    """The holder's buttons: wait for the dying or the judgement, judge, next phase, end turn."""
    if t.dying_name and not t.pending_seat:
        words = gettext("Waiting: %(name)s is dying. A Peach or the death first.")
        first = (
            '<button type="button" class="btn btn-wide dying-wait" disabled>'
            f"{words % {'name': escape(t.dying_name)}}</button>"
        )
    elif t.pending_seat:
        if t.pending_replacer:
            words = gettext(
                "Waiting for %(name)s: only they let it take effect (Demonic Talent 鬼才)"
            )
            first = (
                '<button type="button" class="btn btn-wide judge-wait" disabled>'
                f"{words % {'name': escape(t.pending_replacer)}}</button>"
            )
        elif t.pending_seat == t.seat_id:
            first = (
                '<form class="judge-confirm" hx-post="act/confirm" hx-swap="none">'
                '<button class="btn btn-primary btn-wide">'
                f"{gettext('Let the judgement take effect ▶')}</button></form>"
            )
        else:
            first = (
                '<button type="button" class="btn btn-wide" disabled>'
                f"{gettext('Waiting for the judgement…')}</button>"
            )
    elif t.phase == "judgement" and t.zone:
        c = t.zone[0]
        judge = gettext("Judge %(card)s") % {"card": escape(card_label(c))}
        first = (
            f'<button type="button" class="btn btn-primary" hx-get="judge/{t.seat_id}'
            f'?trick={escape(quote(c, safe="/"))}" hx-target="#dialog">{judge}</button>'
        )
    else:
        first = (
            '<form hx-post="act/next" hx-swap="none"><input type="hidden" name="from"'
            f' value="{t.seat_id}.{t.round}.{escape(t.phase)}"><button class="btn btn-wide">'
            f"{gettext('Next phase ▶')}</button></form>"
        )
    end = ""
    if not t.pending_seat and not t.dying_name:
        if not t.zone or (t.phase != "start" and t.phase != "judgement"):
            end = (
                '<form class="end-turn" hx-post="act/endturn" hx-swap="none">'
                f'<button class="btn btn-primary btn-wide">{gettext("End turn")}</button></form>'
            )
    return f"{first}\n      {end}"
