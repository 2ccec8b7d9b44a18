"""The live fragments every HP tap sends, built as plain strings instead of through templates.

An HP change is the commonest tap, and its frame (a seat's place in the ring, its HP tracker, the
history line) was most of a tap's server time when rendered by Django's template engine: about
sixty variable lookups through nested partials. These functions build the same markup directly.
The live templates (`templates/companion/live/`) use them too, through the `sgs` template tags
(`seat_item`, `hp_tracker`, `event_line`, `hero_label`, `jades` and `distances`), so each piece
of markup is written once and the whole state and the delta cannot disagree.

Every value is escaped with Django's `conditional_escape`, as the template engine's autoescaping
does; translated words come from the same catalogue entries the templates used.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from django.template.loader import get_template
from django.utils.html import conditional_escape as escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext, override

from companion.live.pieces import card_name, now_strip, turn_bar
from companion.rules import help as rules_help
from companion.words.labels import identity_label

if TYPE_CHECKING:
    from companion.hooks import SeatMark
    from companion.read.delta import TableDelta
    from companion.read.history import HistoryLine
    from companion.read.private import PrivateState
    from companion.read.public_seat import PublicSeat
    from companion.read.state import PublicState
    from companion.words.names import HeroCard


def hero_name(hero: HeroCard) -> SafeString:
    """A hero's Chinese name, with the English one beside it in the English UI."""
    english = (
        f' <span class="en">{escape(hero.name_en)}</span>' if hero.english and hero.name_en else ""
    )
    return mark_safe(  # noqa: S308 - every value escaped
        f'<span class="hero-name kingdom-{escape(hero.kingdom)}">'
        f'<span lang="zh-CN">{escape(hero.name_zh)}</span>{english}</span>'
    )


def jades(hp: int, max_hp: int) -> SafeString:
    """The HP jades (`companion/live/cards.html#jades`) for `hp` of `max_hp`.

    Every HP change shows them twice (the seat's line and the seat's own tracker), and the
    partial's translated label made them a quarter of a change's rendering; there are only so
    many (HP, max HP) pairs, so each is rendered once per language and process.
    """
    return _jades(int(hp), int(max_hp), get_language())


@lru_cache(maxsize=512)
def _jades(hp: int, max_hp: int, lang: str) -> SafeString:
    with override(lang):
        html = get_template("companion/live/cards.html#jades").render(
            {"marks": [i < hp for i in range(max_hp)], "hp": hp, "max": max_hp}
        )
    return mark_safe(html)  # noqa: S308 - our own template's output


def peach_need(n: int) -> str:
    """How many 桃 a dying hero still needs, in words."""
    return ngettext("needs %(n)s Peach", "needs %(n)s Peaches", n) % {"n": n}


def seat_item(seat: PublicSeat, i: int, turn_seat_id: int | None) -> SafeString:
    """One seat's place in the ring (`<li class="seat" data-seat=…>`), as every screen shows it."""
    classes = "seat"
    if not seat.alive:
        classes += " dead"
    if seat.leader:
        # The leader's class keeps the identity game's name (the stylesheet and the browser
        # tests use it).
        classes += " is-lord"
    if seat.dying:
        classes += " dying"
    for mark in seat.marks:  # a game's (companion.hooks.SeatMark)
        if mark.css:
            classes += f" {escape(mark.css)}"
    if seat.id == turn_seat_id:
        classes += " has-turn"
    if seat.sideways:
        classes += " sideways"
    name = escape(seat.name)
    label = gettext("Details of %(name)s") % {"name": name}
    if seat.identity:
        word = escape(seat.role or identity_label(seat.identity))
        idn = f'<span class="idn idn-{escape(seat.identity)}">{word}</span>'
    else:
        idn = '<span class="idn idn-hidden">?</span>'
    parts = [
        f'<li class="{classes}" data-seat="{seat.id}" data-i="{i}">',
        f'<button type="button" class="seat-open" hx-get="seat/{seat.id}" hx-target="#dialog"'
        f' aria-label="{label}">',
        f'<span class="seat-no">{i + 1}</span>',
        f'<span class="seat-name">{name}</span>',
        idn,
    ]
    if seat.hero:
        parts.append(f'<span class="seat-hero">{hero_name(seat.hero)}</span>')
    if seat.max_hp and seat.alive:
        # A dead seat shows no HP, and HP below 0 shows as 0 (the 桃 needed say the rest).
        parts.append(
            f'<span class="seat-hp">{jades(seat.shown_hp, seat.max_hp)}'
            f'<span class="hp-num">{seat.shown_hp}/{seat.max_hp}</span></span>'
        )
    if seat.equipment:
        chips = "".join(
            f'<span class="chip eq eq-{escape(e.slot)}" data-help="card:{escape(e.name_zh)}">'
            f"{card_name(e.name_zh)}"
            f"{f'<small>{e.range}</small>' if e.range else ''}</span>"
            for e in seat.equipment
        )
        parts.append(f'<span class="equip">{chips}</span>')
    if seat.zone:
        chips = "".join(
            f'<span class="chip trick" data-help="card:{escape(c)}">{card_name(c)}</span>'
            for c in seat.zone
        )
        parts.append(f'<span class="zone">{chips}</span>')
    parts += seat_marks(seat.marks)
    if seat.sideways:
        # A drafted mode's identity card turned sideways once the seat has acted.
        acted = escape(gettext("acted"))
        parts.append(f'<span class="sideways-mark"><i class="card-sideways"></i>{acted}</span>')
    if seat.is_host:
        host = escape(gettext("Host"))
        parts.append(f'<span class="host-mark" title="{host}">★</span>')
    if seat.dying:
        dying = escape(gettext("Dying"))
        parts.append(f'<span class="dying-mark">{dying}</span>')
        need = escape(peach_need(seat.peaches))
        parts.append(f'<span class="peach-need" data-peaches="{seat.peaches}">{need}</span>')
    if not seat.alive:
        if seat.killer_name:
            fate = gettext("Killed by %(k)s") % {"k": escape(seat.killer_name)}
        else:
            fate = escape(gettext("Dead"))
        parts.append(f'<span class="dead-mark">{fate}</span>')
    parts.append("</button>\n</li>")
    return mark_safe("\n".join(parts))  # noqa: S308 - every value escaped


def seat_marks(marks: tuple[SeatMark, ...]) -> list[str]:
    """The games' marks on a seat (companion.hooks.SeatMark), a group's in one span."""
    found: list[tuple[str, list[str]]] = []
    for mark in marks:
        label = escape(str(mark.label))
        title = f' title="{label}"' if mark.titled else ""
        span = f'<span class="{escape(mark.mark)}"{title}>{label}</span>'
        if mark.group and found and found[-1][0] == mark.group:
            found[-1][1].append(span)
        else:
            found.append((mark.group, [span]))
    return [
        f'<span class="{escape(group)}">{"".join(spans)}</span>' if group else spans[0]
        for group, spans in found
    ]


def hp_tracker(me: PrivateState, action_id: Any = None) -> SafeString:
    """A seat's own HP tracker (`#my-hp`): the jades, the number, − and + while in play."""
    return seat_tracker(me, me.seat_id, me.version, me.status == "playing", action_id)


def seat_tracker(
    me: PrivateState | PublicSeat,
    seat_id: int,
    version: int,
    playing: bool,
    action_id: Any = None,
    *,
    seat_mark: bool = False,
) -> SafeString:
    """The HP tracker of seat `seat_id` (`me`: its phone's state, or the seat as every screen
    sees it, whose HP is the same) at table version `version`."""
    classes = "hp-tracker"
    if me.dying:
        classes += " dying"
    if not me.alive:
        classes += " dead"
    action = f' data-action="{escape(action_id)}"' if action_id else ""
    buttons = me.alive and playing
    # A delta of several seats' HP (a chain's damage) marks each tracker with its seat.
    mark = f' data-seat="{seat_id}"' if seat_mark else ""
    parts = [f'<div id="my-hp" class="{classes}" data-version="{version}"{action}{mark}>']
    if buttons:
        damage = escape(gettext("Take damage"))
        parts.append(
            f'<button type="button" class="btn hp-btn hp-minus" hx-get="seat/{seat_id}"'
            f' hx-target="#dialog" aria-label="{damage}">−</button>'
        )
    if not me.alive:
        dead = escape(gettext("Dead"))
        parts.append(f'<div class="hp-center"><span class="hp-dead">{dead}</span></div>')
    else:
        need = ""
        if me.dying:
            words = escape(peach_need(me.peaches))
            need = f'\n<span class="peach-need" data-peaches="{me.peaches}">{words}</span>'
        parts.append(
            f'<div class="hp-center">{jades(me.shown_hp, me.max_hp)}\n'
            f'<span class="hp-big">{me.shown_hp}<small>/{me.max_hp}</small></span>{need}</div>'
        )
    if buttons:
        disabled = " disabled" if me.hp >= me.max_hp else ""
        recover = escape(gettext("Recover 1 HP"))
        parts.append(
            '<form hx-post="act/hp" hx-swap="none">'
            f'<input type="hidden" name="seat" value="{seat_id}">'
            '<input type="hidden" name="delta" value="1">'
            f'<button class="btn hp-btn hp-plus" aria-label="{recover}"'
            f"{disabled}>+</button></form>"
        )
    parts.append("</div>")
    return mark_safe("\n".join(parts))  # noqa: S308 - every value escaped


def event_line(e: HistoryLine, *, data_line: bool = False) -> SafeString:
    """One line of the table's history (`<li>`), marked when worth an announcement."""
    classes = ("important" if e.important else "") + (" reveal" if e.reveal else "")
    mark = " data-line" if data_line else ""
    undone = ""
    if e.undone:
        classes += " undone"
        label = escape(gettext("undone"))
        undone = f' <span class="undone-mark">{label}</span>'
    text = help_links(e.text)
    return mark_safe(  # noqa: S308 - every value escaped
        f'<li{mark} class="{classes}">{text}{undone}</li>'
    )


def help_links(text: str) -> SafeString:
    """A line of words (a history line, an HP change, a damage step), escaped, with each card,
    hero and skill name it holds made a tap that opens its help entry."""
    return mark_safe(_linked(str(escape(text))))  # noqa: S308 - escaped


# Every change renders the history's lines again, per language: each line's links are found once.
@lru_cache(maxsize=2048)
def _linked(escaped: str) -> str:
    return _help_names().sub(_help_span, escaped)


# Skill names that are also ordinary words of the history's lines (对 X 的救援).
_PLAIN_WORDS = frozenset({"救援"})


@cache
def _help_names() -> re.Pattern[str]:
    """The card, hero and skill names a history line may name, longest first:
    each becomes a tap that opens its help entry. One-character names (杀, 闪, 桃,
    酒) are left out: they are also parts of ordinary words (击杀); so are the skill names that
    are ordinary words too (救援)."""
    keys = {
        e.name_zh: e.key
        for e in rules_help.skill_entries() + rules_help.hero_entries() + rules_help.card_entries()
        if e.name_zh not in _PLAIN_WORDS
    }
    _HELP_KEYS.update({name: key for name, key in keys.items() if len(name) > 1})
    names = sorted(_HELP_KEYS, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in names))


_HELP_KEYS: dict[str, str] = {}


def _help_span(match: re.Match[str]) -> str:
    name = match.group()
    return f'<span data-help="{_HELP_KEYS[name]}">{name}</span>'


def distances(state: PublicState) -> SafeString:
    """The distance table (the public state's `.distances`): each living seat's card (how far each
    other seat is, both ways; in range of 杀, in reach of 顺手牵羊) and the matrix. A horse or a
    weapon changes it, and as a template it was half of such a tap's time (some 600 nodes)."""
    # The words are the catalogue's, used as the template's `{% translate %}` used them:
    # as they are (a template's string literals are not escaped).
    t_dist, t_player = gettext("Distances"), gettext("Player")
    t_to, t_back = gettext("Me → them"), gettext("Them → me")
    t_slash, t_snatch = gettext("Slash"), gettext("Snatch")
    t_note = gettext(
        "Slash: within your attack range. Snatch: within reach of Snatch 顺手牵羊 and "
        "Supply Shortage 兵粮寸断 (distance 1, horses count, weapons don't)."
    )
    head = (
        f"<thead><tr><th>{t_player}</th><th>{t_to}</th><th>{t_back}</th><th>{t_slash}</th>"
        f"<th>{t_snatch}</th></tr></thead>"
    )
    parts = ['<div class="distances">']
    for seat in state.alive_seats:
        rows = "".join(
            f'<tr class="{"in-range" if r.attack else ""}"><td>{escape(r.name)}</td>'
            f'<td class="num">{r.to}</td><td class="num">{r.back}</td>'
            f'<td class="yes">{"✓" if r.attack else ""}</td>'
            f'<td class="yes">{"✓" if r.reach else ""}</td></tr>'
            for r in seat.distances
        )
        parts.append(
            f'<section class="dist-card" data-dist="{seat.id}"><h3>{t_dist}</h3>'
            f'<table class="dist-table">{head}<tbody>{rows}</tbody></table>'
            f'<p class="muted small">{t_note}</p></section>'
        )
    columns = "".join(
        f'<th title="{escape(seat.name)}"><span class="mx-no">{seat.position + 1}</span></th>'
        for seat in state.alive_seats
    )
    matrix = "".join(
        f'<tr><th><span class="mx-no">{seat.position + 1}</span> '
        f'<span class="mx-name">{escape(seat.name)}</span></th>'
        + "".join(f'<td class="num">{"—" if d is None else d}</td>' for d in row)
        + "</tr>"
        for seat, row in state.matrix_seats
    )
    summary = gettext("Distance table (row → column)")
    legend = gettext("Numbers are seats, as on each seat's badge.")
    parts.append(
        f'<details class="matrix-box" open><summary>{summary}</summary>'
        f'<table class="matrix"><thead><tr><th></th>{columns}</tr></thead>'
        f'<tbody>{matrix}</tbody></table><p class="mx-legend muted">{legend}</p></details></div>'
    )
    return mark_safe("".join(parts))  # noqa: S308 - every value escaped


def delta(d: TableDelta, action_id: str | None = None) -> str:
    """A change's frame: `<template id="table-delta">` on top of version `d.base`, holding what
    the change touched (live.js puts each in place): the now strip, the touched seats' places
    in the ring, the dying banners (in `<div data-banners>`), the turn bar, the distance table,
    the seat's own HP tracker and the new history line. The pieces come from the same partials
    as the whole state, so the two cannot disagree."""
    action = f' data-action="{escape(action_id)}"' if action_id else ""
    parts = [
        f'<template id="table-delta" data-version="{d.version}" data-base="{d.base}"'
        f' data-keep="{d.keep}"{action}>',
    ]
    state = d.state
    if state is not None and "strip" in d.parts:
        parts.append(now_strip(state))
    parts.extend(seat_item(seat, index, d.turn_seat_id) for seat, index in d.seats)
    if state is not None and "strip" in d.parts:
        parts.append(
            f"<div data-banners>{_partial('public.html#dying_banners', {'state': state})}</div>"
        )
    if d.turn:
        parts.append(turn_bar(d.turn))
    if state is not None and "distances" in d.parts and state.matrix:
        parts.append(distances(state))
    if d.me:
        parts.append(seat_tracker(d.me, d.me.id, d.version, d.playing, action_id))
    parts.extend(
        seat_tracker(m, m.id, d.version, d.playing, action_id, seat_mark=True) for m in d.mine
    )
    parts.append(event_line(d.line, data_line=True))
    parts.append("</template>")
    return "".join(parts)


def _partial(name: str, context: dict[str, Any]) -> str:
    return str(get_template(f"companion/live/{name}").render(context))
