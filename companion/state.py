"""What each screen may know, as plain data for the templates.

`public_state` is the only input of anything sent to the table's group or shown on the display:
it never carries a living non-lord seat's identity, nor a hero candidate or an unrevealed pick.
`private_state` belongs to one seat's phone. A template cannot leak what it was never given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from companion.actions.inputs import seat_view
from companion.actions.sessions import GAME_CORRECTED, SESSION_STARTED
from companion.actions.table import identity_options
from companion.models import MAX_SEATS, MIN_PLAYERS, Event, Handover, Seat, Table
from companion.rules import modes
from companion.rules.cards import equipment_by_name, load_deck, parse_suit, rank_label
from companion.rules.distance import can_attack, in_trick_reach, seat_distance
from companion.rules.heroes import hero_by_id
from companion.rules.identities import Identity, can_see_identity, distribution
from companion.rules.judgement import Check, judge
from companion.rules.skills import Skill, skills_for, skills_in_phase
from companion.rules.skills import hero_ids as skill_hero_ids
from companion.rules.turns import PHASE_ORDER, draw_count, hand_limit, judgement_order
from companion.rules.victory import SeatStatus, Side

HISTORY_LENGTH = 15
KINGDOMS = {"wei": "魏", "shu": "蜀", "wu": "吴", "qun": "群"}
# The kingdoms' Chinese and English names, for the badges of the English UI.
KINGDOM_NAMES = {
    "wei": ("魏", "Wei"),
    "shu": ("蜀", "Shu"),
    "wu": ("吴", "Wu"),
    "qun": ("群", "Qun"),
}


@dataclass(frozen=True)
class HeroCard:
    """A hero as the app shows it: names, kingdom, HP, gender and skills."""

    id: str
    name_zh: str
    name_en: str
    kingdom: str
    kingdom_zh: str
    hp: int
    gender: str
    skills: tuple[Skill, ...]

    @property
    def english(self) -> bool:
        """Whether the current language shows English names beside the Chinese ones."""
        return (get_language() or "").startswith("en")

    @property
    def display_name(self) -> str:
        """The Chinese name, with the English one in the English UI."""
        return f"{self.name_zh} {self.name_en}" if self.english else self.name_zh

    @property
    def kingdom_en(self) -> str:
        """The kingdom's English name (Wei, Shu, Wu, Qun)."""
        return KINGDOM_NAMES.get(self.kingdom, ("", ""))[1]


def hero_card(hero_id: str) -> HeroCard | None:
    """The card of a hero id, or None for an empty or unknown id."""
    if not hero_id:
        return None
    try:
        hero = hero_by_id(hero_id)
    except KeyError:
        return None
    return HeroCard(
        id=hero.id,
        name_zh=hero.name_zh,
        name_en=hero.name_en,
        kingdom=hero.kingdom,
        kingdom_zh=KINGDOMS.get(hero.kingdom, ""),
        hp=hero.hp,
        gender=hero.gender,
        skills=skills_for(hero.id),
    )


@dataclass(frozen=True)
class EquipmentView:
    slot: str
    name_zh: str
    name_en: str
    range: int | None


@dataclass(frozen=True)
class DistanceRow:
    """From one seat to another living seat: both distances and what reaches."""

    seat_id: int
    name: str
    to: int
    back: int
    attack: bool
    reach: bool


@dataclass(frozen=True)
class PublicSeat:
    id: int
    name: str
    position: int
    alive: bool
    is_host: bool
    # None unless everybody may see it: the lord, a dead seat, or any seat once the game is over.
    identity: str | None
    # Set only once revealed: the lord's at once, everyone else's when all have picked.
    hero: HeroCard | None = None
    hp: int = 0
    max_hp: int = 0
    dying: bool = False
    killer_name: str = ""
    equipment: list[EquipmentView] = field(default_factory=list)
    zone: list[str] = field(default_factory=list)
    distances: list[DistanceRow] = field(default_factory=list)


@dataclass(frozen=True)
class Turn:
    """Whose turn, which round and phase; what the phase asks of the table."""

    seat_id: int
    name: str
    round: int
    phase: str
    skips: list[str]
    phases: list[tuple[str, str]]
    draw: int
    hand_limit: int
    keji: bool
    skills: list[Skill]
    deadline_ms: int | None
    timer_seconds: int
    zone: list[str] = field(default_factory=list)
    # A judgement waiting for 鬼才: whose it is (the turn bar's button follows it).
    pending_seat: int | None = None


@dataclass(frozen=True)
class PendingJudgement:
    seat_id: int
    name: str
    check: str
    card: str
    red: bool
    outcome: str
    favourable: bool
    guicai_id: int | None
    guicai_name: str
    trick: str
    replaced: bool


@dataclass(frozen=True)
class HandoverNotice:
    """A seat move the host asked for, waiting: every screen shows it (issue 10)."""

    seat_id: int
    name: str
    deadline_ms: int


@dataclass(frozen=True)
class PublicState:
    code: str
    status: str
    version: int
    locked: bool
    game_number: int
    options: dict[str, bool]
    seats: list[PublicSeat]
    history: list[HistoryLine]
    distribution: dict[str, int] = field(default_factory=dict)
    hero_stage: str = ""
    picked: int = 0
    pickers: int = 0
    winner: str = ""
    timeline: list[HistoryLine] = field(default_factory=list)
    turn: Turn | None = None
    pending: PendingJudgement | None = None
    matrix: list[list[int | None]] = field(default_factory=list)
    handovers: list[HandoverNotice] = field(default_factory=list)
    mode: str = modes.DEFAULT

    @property
    def seat_count(self) -> int:
        """How many seats are taken."""
        return len(self.seats)

    @property
    def can_deal(self) -> bool:
        """Whether the seats allow a deal."""
        return MIN_PLAYERS <= len(self.seats) and self.status in ("lobby", "dealt")

    @property
    def dying(self) -> list[PublicSeat]:
        """Seats in the dying state, waiting for rescue or death."""
        return [s for s in self.seats if s.alive and s.dying]

    @property
    def alive_seats(self) -> list[PublicSeat]:
        """Living seats in play order."""
        return [s for s in self.seats if s.alive]

    @property
    def matrix_seats(self) -> list[tuple[PublicSeat, list[int | None]]]:
        """The distance matrix, each row with the living seat it starts from."""
        return list(zip(self.alive_seats, self.matrix, strict=False))

    @property
    def phase_names(self) -> list[str]:
        """The six phases in order."""
        return [p.value for p in PHASE_ORDER]

    @property
    def timer_choices(self) -> tuple[int, ...]:
        """Turn timer lengths the host can choose (0: off)."""
        return (0, 30, 60, 90, 120, 180)

    @property
    def turn_seat_id(self) -> int | None:
        """The seat whose turn it is, if a game is in play."""
        return self.turn.seat_id if self.turn else None

    @property
    def winners(self) -> list[PublicSeat]:
        """The winning seats once the game is over."""
        if not self.winner or any(not s.identity for s in self.seats):
            return []
        statuses = [SeatStatus(Identity(s.identity), s.alive) for s in self.seats]
        won = modes.get(self.mode).winners(statuses, Side(self.winner))
        return [self.seats[i] for i in won]


@dataclass(frozen=True)
class PrivateState:
    seat_id: int
    name: str
    identity: str | None
    is_host: bool
    alive: bool
    version: int
    history: list[HistoryLine]
    status: str = ""
    candidates: list[HeroCard] = field(default_factory=list)
    pick: str = ""
    hero: HeroCard | None = None
    hp: int = 0
    max_hp: int = 0
    dying: bool = False
    maneuvering: bool = False
    lord_waiting: bool = False


def _visible_identity(seat: Seat, table: Table) -> str | None:
    if not seat.identity:
        return None
    visible = can_see_identity(
        viewer_is_target=False,
        viewer_identity=None,
        target_identity=Identity(seat.identity),
        target_alive=seat.alive,
        game_over=table.status == Table.Status.FINISHED,
    )
    return seat.identity if visible else None


@dataclass(frozen=True)
class HistoryLine:
    """One event as a screen shows it; the text is made when the template renders it, so each
    language's rendering of one change says it in that language."""

    kind: str
    public: dict[str, Any]
    version: int
    game: int
    undone: bool = False

    @property
    def text(self) -> str:
        """The line in the active language."""
        return describe(self.kind, self.public)["text"]

    @property
    def important(self) -> bool:
        """Lines worth an announcement on every screen."""
        if self.kind == "trick_nullified":
            return True
        if self.kind in ("hero_picked", "hero_repicked"):
            return False
        if self.kind.startswith("seat_hand"):
            # Issue 10: a move the host asked for is announced on every screen.
            return self.kind != "seat_handed_over" or bool(self.public.get("by_host"))
        return self.kind.startswith(("identities", "hero", "died", "game_over", "judgement"))

    @property
    def reveal(self) -> bool:
        """Lines that name a dead player's identity (public by then)."""
        return self.kind in ("died", "game_over", "game_corrected")


def _events(table: Table, limit: int | None = HISTORY_LENGTH, **filters: Any) -> list[HistoryLine]:
    rows = (
        Event.objects.filter(table=table, **filters)
        .order_by("-version", "-pk")
        .values("version", "kind", "public", "game_number", "undone_by")
    )
    if limit is not None:
        rows = rows[:limit]
    return [
        HistoryLine(
            e["kind"], e["public"], e["version"], e["game_number"], e["undone_by"] is not None
        )
        for e in rows
    ]


SLOT_ORDER = ("weapon", "armor", "plus_horse", "minus_horse")
MA_CHAO, HUANG_YUEYING, LU_MENG, SIMA_YI = "SHU006", "SHU007", "WU003", "WEI002"


def _equipment(seat: Seat, maneuvering: bool) -> list[EquipmentView]:
    views = []
    for slot in SLOT_ORDER:
        name = seat.equipment.get(slot)
        if not name:
            continue
        try:
            card = equipment_by_name(name, maneuvering=True)
        except KeyError:
            continue
        views.append(EquipmentView(slot, card.name_zh, card.name_en, card.range))
    return views


def _distances(seats: list[Seat]) -> tuple[dict[int, list[DistanceRow]], list[list[int | None]]]:
    """Every living seat's distance rows, and the matrix for the display (RULES.md §4)."""
    views = [seat_view(s) for s in seats]
    living = [i for i, s in enumerate(seats) if s.alive]
    rows: dict[int, list[DistanceRow]] = {}
    matrix: list[list[int | None]] = []
    if len(living) < 2:
        return rows, matrix
    for i in living:
        line: list[int | None] = []
        rows[seats[i].pk] = []
        for j in living:
            if i == j:
                line.append(None)
                continue
            to = seat_distance(views, i, j)
            line.append(to)
            rows[seats[i].pk].append(
                DistanceRow(
                    seat_id=seats[j].pk,
                    name=seats[j].name,
                    to=to,
                    back=seat_distance(views, j, i),
                    attack=can_attack(views, i, j),
                    reach=in_trick_reach(views, i, j),
                )
            )
        matrix.append(line)
    return rows, matrix


def _turn(table: Table, seats: list[Seat]) -> Turn | None:
    holder = next((s for s in seats if s.pk == table.turn_seat_id), None)
    if holder is None or not table.phase:
        return None
    order = [p.value for p in PHASE_ORDER]
    current = order.index(table.phase) if table.phase in order else 0
    phases = []
    for i, phase in enumerate(order):
        if phase in table.phase_skips:
            state = "skipped"
        elif i < current:
            state = "done"
        elif i == current:
            state = "current"
        else:
            state = "upcoming"
        phases.append((phase, state))
    skills = list(skills_in_phase(holder.hero, table.phase)) if holder.hero else []
    names = [skill.name_zh for skill in skills_for(holder.hero)] if holder.hero else []
    deadline = None
    if table.timer_seconds and table.turn_started_at:
        deadline = int(table.turn_started_at.timestamp() * 1000) + table.timer_seconds * 1000
    return Turn(
        seat_id=holder.pk,
        name=holder.name,
        round=table.round,
        phase=table.phase,
        skips=list(table.phase_skips),
        phases=phases,
        draw=draw_count(names),
        hand_limit=hand_limit(holder.hp),
        keji=holder.hero == LU_MENG,
        skills=skills,
        deadline_ms=deadline,
        timer_seconds=table.timer_seconds,
        zone=judgement_order(holder.judgement_zone),
        pending_seat=(table.pending_judgement or {}).get("seat"),
    )


def _pending(table: Table, seats: list[Seat]) -> PendingJudgement | None:
    pending = table.pending_judgement
    if not pending:
        return None
    by_id = {s.pk: s for s in seats}
    seat = by_id.get(pending["seat"])
    suit = parse_suit(pending["suit"])
    verdict = judge(Check(pending["check"]), suit, pending["rank"])
    guicai = by_id.get(pending.get("guicai") or 0)
    return PendingJudgement(
        seat_id=pending["seat"],
        name=seat.name if seat else "",
        check=pending["check"],
        card=f"{suit.symbol}{rank_label(pending['rank'])}",
        red=suit.is_red,
        outcome=verdict.outcome,
        favourable=verdict.favourable,
        guicai_id=guicai.pk if guicai else None,
        guicai_name=guicai.name if guicai else "",
        trick=pending.get("trick", ""),
        replaced=bool(pending.get("replaced")),
    )


def _public_seat(
    s: Seat, table: Table, names: dict[int, str], distances: list[DistanceRow]
) -> PublicSeat:
    return PublicSeat(
        id=s.pk,
        name=s.name,
        position=s.position,
        alive=s.alive,
        is_host=s.is_host,
        identity=_visible_identity(s, table),
        hero=hero_card(s.hero),
        hp=s.hp,
        max_hp=s.max_hp,
        dying=s.dying,
        killer_name=names.get(s.killer_id, "") if s.killer_id else "",
        equipment=_equipment(s, table.opts.maneuvering),
        zone=list(s.judgement_zone),
        distances=distances,
    )


@dataclass(frozen=True)
class SeatDelta:
    """One seat's public change on top of the previous version (an HP tap): the seat's place in
    the ring, the new history line, and the turn bar when that seat has the turn."""

    version: int
    base: int
    seat: PublicSeat
    index: int
    line: HistoryLine
    turn: Turn | None
    # The seat's own HP tracker (HP is public): only the phone of that seat puts it in place.
    me: PrivateState | None = None
    keep: int = HISTORY_LENGTH

    @property
    def turn_seat_id(self) -> int | None:
        """The seat whose turn it is, if this delta carries the turn bar."""
        return self.turn.seat_id if self.turn else None


def seat_delta(table: Table, seat: Seat, line: HistoryLine) -> SeatDelta:
    """The public delta of a change that touched only one living seat's HP (see broadcast).

    Seats' positions are kept contiguous from 0 in play order, so a seat's place in the ring is
    its position; a living seat has no killer to name.
    """
    turn = _turn(table, [seat]) if table.turn_seat_id == seat.pk else None
    return SeatDelta(
        version=table.version,
        base=table.version - 1,
        seat=_public_seat(seat, table, {}, []),
        index=seat.position,
        line=line,
        turn=turn,
        me=private_hp(seat, table),
    )


def public_state(table: Table, seats: list[Seat] | None = None) -> PublicState:
    """The state everybody at the physical table may see."""
    if seats is None:
        seats = list(table.seats.order_by("position", "slot"))
    names = {s.pk: s.name for s in seats}
    playing = table.status == Table.Status.PLAYING
    rows, matrix = _distances(seats) if playing else ({}, [])
    public_seats = [_public_seat(s, table, names, rows.get(s.pk, [])) for s in seats]
    options = {
        **table.opts.stored(),
    }
    counts: dict[str, int] = {}
    if table.status == Table.Status.LOBBY and MIN_PLAYERS <= len(seats) <= MAX_SEATS:
        counts = {k.value: v for k, v in distribution(len(seats), identity_options(table)).items()}
    pickers = [s for s in seats if s.identity and s.identity != "lord"]
    finished = table.status == Table.Status.FINISHED
    history = _events(table, private_to__isnull=True)
    return PublicState(
        mode=table.mode,
        code=table.code,
        status=table.status,
        version=table.version,
        locked=table.locked,
        game_number=table.game_number,
        options=options,
        seats=public_seats,
        history=history,
        distribution=counts,
        hero_stage=table.hero_stage,
        picked=sum(1 for s in pickers if s.hero_pick) if table.hero_stage == "others" else 0,
        pickers=len(pickers),
        winner=table.winner if finished else "",
        timeline=_events(table, limit=None, private_to__isnull=True, game_number=table.game_number)[
            ::-1
        ]
        if finished
        else [],
        turn=_turn(table, seats) if playing else None,
        pending=_pending(table, seats) if playing else None,
        matrix=matrix,
        handovers=_handovers(table, names),
    )


def _handovers(table: Table, names: dict[int, str]) -> list[HandoverNotice]:
    """The seat moves waiting for consent or for their delay to pass."""
    rows = Handover.objects.filter(table_id=table.pk, state=Handover.State.PENDING)
    return [
        HandoverNotice(seat_id, names.get(seat_id, ""), int(not_before.timestamp() * 1000))
        for seat_id, not_before in rows.order_by("pk").values_list("seat_id", "not_before")
    ]


def private_hp(seat: Seat, table: Table) -> PrivateState:
    """Just what the seat's own HP tracker shows (no queries); `private_state` adds the rest."""
    return PrivateState(
        seat_id=seat.pk,
        name=seat.name,
        identity=None,
        is_host=seat.is_host,
        alive=seat.alive,
        version=table.version,
        history=[],
        status=table.status,
        candidates=[],
        pick="",
        hero=None,
        hp=seat.hp,
        max_hp=seat.max_hp,
        dying=seat.dying,
        maneuvering=table.opts.maneuvering,
        lord_waiting=False,
    )


def private_state(seat: Seat) -> PrivateState:
    """What only this seat's phone may see."""
    table = seat.table
    picking = table.status == Table.Status.HEROES
    own_hero = seat.hero or (seat.hero_pick if picking else "")
    return replace(
        private_hp(seat, table),
        identity=seat.identity or None,
        history=_events(table, private_to=seat),
        candidates=[c for c in map(hero_card, seat.hero_candidates) if c]
        if picking and not seat.hero
        else [],
        pick=seat.hero_pick if picking else "",
        hero=hero_card(own_hero),
        lord_waiting=picking and bool(seat.hero) and table.hero_stage == "others",
    )


def identity_label(identity: str | None) -> str:
    """The translated name of an identity."""
    labels = {
        "lord": _("Lord"),
        "loyalist": _("Loyalist"),
        "rebel": _("Rebel"),
        "renegade": _("Renegade"),
    }
    return labels.get(identity or "", "")


def side_label(side: str) -> str:
    """The translated name of a winning side."""
    return {
        "lord": _("The Lord and the Loyalists win"),
        "rebels": _("The Rebels win"),
        "renegade": _("The Renegade wins"),
    }.get(side, "")


def _hero_name(hero_id: str) -> str:
    card = hero_card(hero_id)
    if card is None:
        return ""
    return f"{card.name_zh} {card.name_en}" if card.english else card.name_zh


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
        _("Identities dealt: %(name)s is the Lord") % {"name": public.get("lord_name", "")}
    ),
    "identities_redealt": lambda public, name: (
        _("Identities dealt again: %(name)s is the Lord") % {"name": public.get("lord_name", "")}
    ),
    "game_started": lambda public, name: _("The game has started"),
    "heroes_lord_choosing": lambda public, name: (
        _("%(name)s, the Lord, is choosing a hero") % {"name": name}
    ),
    "hero_lord_picked": lambda public, name: (
        _("The Lord %(name)s plays %(hero)s")
        % {"name": name, "hero": _hero_name(public.get("hero", ""))}
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
    "my_hero_picked": lambda public, name: (
        _("You chose %(hero)s") % {"hero": _hero_name(public["hero"])}
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
            "hp": public.get("hp"),
        }
    ),
    "recover": lambda public, name: (
        _("%(name)s recovered to HP %(hp)s") % {"name": name, "hp": public["hp"]}
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
        % {"by": public.get("by_name"), "name": name, "hp": public.get("hp")}
    ),
    "died": lambda public, name: _died_text(public),
    "game_over": lambda public, name: side_label(public.get("winner", "")),
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
        text += " · " + _("%(name)s has HP %(hp)s") % {"name": name, "hp": public["hp"]}
    return text


def _extend(kind: str, extra: Callable[[dict[str, Any]], list[str]]) -> None:
    """Add clauses to one kind's line ("text · clause"), leaving its own text as it is."""
    base = _TEXTS[kind]
    _TEXTS[kind] = lambda public, name: " · ".join([base(public, name), *extra(public)])


_TEXTS["lose_hp"] = lambda public, name: (
    _("%(name)s lost %(n)s HP (HP %(hp)s)")
    % {"name": name, "n": public.get("amount"), "hp": public.get("hp")}
)
_TEXTS["turn_ended"] = lambda public, name: (
    _("%(from)s ended the turn · Round %(round)s: %(name)s's turn")
    % {"from": public.get("from_name", ""), "name": name, "round": public.get("round")}
)
_extend(
    "damage",
    lambda public: (
        [_("may trigger: %(skills)s") % {"skills": _skill_list(public["skills"])}]
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
    label = identity_label(public.get("identity"))
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


CHECK_NAMES = {
    "indulgence": ("乐不思蜀", "Indulgence"),
    "supply_shortage": ("兵粮寸断", "Supply Shortage"),
    "lightning": ("闪电", "Lightning"),
    "eight_trigrams": ("八卦阵", "Eight Diagram"),
    "iron_cavalry": ("铁骑", "Iron Cavalry"),
    "ganglie": ("刚烈", "Unyielding"),
    "luoshen": ("洛神", "Goddess of the Luo"),
}


def english_ui() -> bool:
    """Whether the active language is English (which shows English names beside Chinese ones)."""
    return (get_language() or "").startswith("en")


def check_label(check: str) -> str:
    """A judgement's name: Chinese always, with the English name before it in the English UI."""
    if check == "free":
        return _("Free judgement")
    zh, en = CHECK_NAMES.get(check, (check, check))
    return f"{en} {zh}" if english_ui() else zh


@cache
def _card_names() -> dict[str, str]:
    return {card.name_zh: card.name_en for card in load_deck(ex=True, maneuvering=True)}


def card_english(name_zh: str) -> str:
    """The English name of a card of the real deck (standard, EX, 军争), or ""."""
    return _card_names().get(name_zh, "")


def card_label(name_zh: str) -> str:
    """A card as a screen names it: the Chinese name printed on the card, and in the English UI
    its English name before it ("Indulgence 乐不思蜀")."""
    english = card_english(name_zh)
    return f"{english} {name_zh}" if english and english_ui() else name_zh


@cache
def _skill_names() -> dict[str, str]:
    return {
        skill.name_zh: skill.name_en
        for hero_id in skill_hero_ids()
        for skill in skills_for(hero_id)
    }


def _skill_list(names_zh: list[str]) -> str:
    """Skill names as a line lists them: 奸雄、反馈, or "Villainous Hero 奸雄, Feedback 反馈"."""
    if not english_ui():
        return "、".join(names_zh)
    return ", ".join(f"{_skill_names()[n]} {n}" if n in _skill_names() else n for n in names_zh)


def skill_label(skill: Skill) -> str:
    """A skill's name: Chinese, with the English name before it in the English UI."""
    return f"{skill.name_en} {skill.name_zh}" if english_ui() else skill.name_zh


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


def _card(public: dict[str, Any]) -> str:
    return card_label(public.get("card", ""))


def _judgement_words(public: dict[str, Any]) -> dict[str, str]:
    suit = parse_suit(public["suit"])
    return {
        "name": public.get("name", ""),
        "check": check_label(public.get("check", "")),
        "card": f"{suit.symbol}{rank_label(public['rank'])}",
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
