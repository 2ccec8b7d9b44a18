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

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from django.template.loader import get_template
from django.utils.html import conditional_escape as escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from companion import hooks
from companion.rules.help.first_game import PHASE_HINTS
from companion.words.labels import phase_label
from companion.words.names import card_english, card_label, english_ui, skill_label

if TYPE_CHECKING:
    from companion.read.state import PublicState
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
    # The words outside the f-strings, where makemessages finds them.
    name = gettext("%(name)s's turn") % {"name": escape(t.name)}
    round_ = gettext("Round %(n)s") % {"n": t.round}
    timer = _timer(t)
    skipped = " <small>" + gettext("skipped") + "</small>"
    phases = "".join(
        f'<li class="phase {escape(st)}">{escape(phase_label(phase))}'
        f"{skipped if st == 'skipped' else ''}</li>"
        for phase, st in t.phases
    )
    parts = [
        f'\n  <div class="turn-bar" data-turn-seat="{t.seat_id}">\n'
        f'    <div class="turn-head"><span class="pill">'
        f"{round_}</span>\n"
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
        now = gettext("Skills now:")
        parts.append(f'    <p class="skills-now">{now} {tags}</p>\n')
    parts.append(
        f'    <div class="row-actions turn-only">\n      {_buttons(t)}\n    </div>\n  </div>\n'
    )
    return mark_safe("".join(parts))  # noqa: S308 - every value escaped


def _timer(t: Turn) -> str:
    """The turn's countdown, when the table has a timer."""
    if not t.deadline_ms:
        return ""
    expired = gettext("Time is up!")
    return f'<span class="timer" data-deadline="{t.deadline_ms}" data-expired="{expired}"></span>'


def _games(t: Turn) -> str:
    """The templates of the games on for the slot "turn_bar", given the turn as `t`."""
    return _slot("turn_bar", t.games, {"t": t})


def _slot(slot: str, parts: hooks.Parts, context: dict[str, Any]) -> str:
    """The templates of the games on (`parts.on`) for `slot`, in order (as `game_slot`)."""
    found = []
    for key in parts.on:
        game = hooks.by_key(key)
        name = game.templates.get(slot) if game is not None else None
        if name:
            found.append(get_template(name).render(context))
    return "".join(found)


def _stage(status: str) -> str:
    """The game's stage, while nobody has the turn."""
    if status == "lobby":
        return gettext("Waiting for players")
    if status == "dealt":
        return gettext("Identities dealt")
    if status == "heroes":
        return gettext("Choosing heroes")
    if status == "playing":
        return gettext("In play")
    return gettext("Game over")


def now_strip(state: PublicState, oob: bool = False) -> SafeString:
    """`#now-strip`, first on every screen: whose turn and which phase (a first game's hint), or
    the game's stage (none at the end); the games' part; each dying seat with its 桃; whom
    the table waits for."""
    swap = 'hx-swap-oob="true"' if oob else ""
    parts = [
        f'\n<div id="now-strip" class="now-strip" {swap} data-version="{state.version}"'
        f' data-status="{escape(state.status)}">\n'
    ]
    t = state.turn
    if t:
        name = gettext("%(name)s's turn") % {"name": escape(t.name)}
        round_ = gettext("Round %(n)s") % {"n": t.round}
        yours = gettext("Your turn!")
        parts.append(
            f'  \n  <p class="now-turn" data-turn-seat="{t.seat_id}"><span class="pill now-round">'
            f"{round_}</span>\n"
            f'    <strong class="now-who"><span class="turn-other">{name}</span>'
            f'<span class="turn-you">{yours}</span></strong>\n'
            f'    <span class="now-phase">{escape(phase_label(t.phase))}</span>{_timer(t)}</p>\n'
        )
        if t.draw_change < 0 and t.phase in "start judgement draw":
            draw = ngettext("Draw %(n)s card.", "Draw %(n)s cards.", t.draw) % {"n": t.draw}
            fewer = gettext("One card fewer: the side that moves first, in its first draw phase.")
            parts.append(f'  <p class="now-draw-change" role="status">{draw} {fewer}</p>\n')
        if state.options.get("first_game_mode"):
            zh, en = PHASE_HINTS.get(t.phase, ("", ""))
            hide = gettext("Hide these hints")
            parts.append(
                f'  <p class="phase-hint" data-phase-hint>{escape(en if english_ui() else zh)}'
                f' <button type="button" class="phase-hint-off" data-phase-hint-off'
                f' aria-label="{hide}" title="{hide}">×</button></p>\n'
            )
    elif state.status != "finished":
        # (At the end the status line under it says the game is over, the result who won: the
        # strip has nothing to add, and a phone leaves it out, app/strip.css.)
        parts.append(
            f'  <p class="now-turn"><span class="pill">{_stage(state.status)}</span></p>\n'
        )
    parts.append(f"  {_slot('now_strip', state.games, {'state': state})}\n")
    for d in state.dying:
        need = ngettext("needs %(n)s Peach", "needs %(n)s Peaches", d.peaches) % {"n": d.peaches}
        name = escape(d.name)
        label = gettext("A Peach for %(name)s") % {"name": name}
        dying, you, peach = gettext("Dying"), gettext("(you)"), gettext("Peach 桃")
        parts.append(
            f'  <div class="now-dying" data-dying="{d.id}" role="alert">\n'
            f'    <p class="now-dying-text"><span class="dying-mark">{dying}</span>'
            f' <strong class="now-dying-name">{name}</strong>'
            f'<span class="for-me">{you}</span>'
            f' <span class="peach-need" data-peaches="{d.peaches}">{need}</span></p>\n'
            '    <form class="strip-peach" hx-post="act/rescue" hx-swap="none">'
            f'<input type="hidden" name="seat" value="{d.id}">'
            '<input type="hidden" name="kind" value="peach">'
            f'<button class="btn btn-primary" aria-label="{label}">{peach}</button>'
            "</form>\n"
            f"    {_slot('dying_strip', state.games, {'state': state, 'd': d})}\n  </div>\n"
        )
    view = state.mode_view
    notice = getattr(view, "draw_notice", None)
    if (
        (state.pending is not None and state.pending.guicai_id)
        or getattr(view, "asking", None)
        or getattr(notice, "seat_id", None)
    ):
        waits = get_template("companion/live/now_strip.html#now_waits")
        parts.append(waits.render({"state": state}))
    parts.append("</div>\n")
    return mark_safe("".join(parts))  # noqa: S308 - every value escaped


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
        return gettext("Judge the delayed tricks, last placed first:") + " " + chips
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
                + gettext("Let the judgement take effect ▶")
                + "</button></form>"
            )
        else:
            first = (
                '<button type="button" class="btn btn-wide" disabled>'
                + gettext("Waiting for the judgement…")
                + "</button>"
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
            + gettext("Next phase ▶")
            + "</button></form>"
        )
    end = ""
    if not t.pending_seat and not t.dying_name:
        if not t.zone or (t.phase != "start" and t.phase != "judgement"):
            end = (
                '<form class="end-turn" hx-post="act/endturn" hx-swap="none">'
                '<button class="btn btn-primary btn-wide">'
                + gettext("End turn")
                + "</button></form>"
            )
    return f"{first}\n      {end}"
