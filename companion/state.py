"""What each screen may know, as plain data for the templates.

`public_state` is the only input of anything sent to the table's group or shown on the display:
it never carries a living non-lord seat's identity, nor a hero candidate or an unrevealed pick.
`private_state` belongs to one seat's phone. A template cannot leak what it was never given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from companion.models import MIN_PLAYERS, Event, Seat, Table
from companion.rules.heroes import hero_by_id
from companion.rules.identities import Identity, can_see_identity, distribution
from companion.rules.skills import Skill, skills_for

HISTORY_LENGTH = 30
KINGDOMS = {"wei": "魏", "shu": "蜀", "wu": "吴", "qun": "群"}


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

    @property
    def hp_marks(self) -> list[bool]:
        """One entry per point of max HP: True where the jade is lit."""
        return [i < self.hp for i in range(self.max_hp)]


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
    def winners(self) -> list[PublicSeat]:
        """The winning seats once the game is over."""
        if not self.winner:
            return []
        if self.winner == "lord":
            return [s for s in self.seats if s.identity in ("lord", "loyalist")]
        if self.winner == "rebels":
            return [s for s in self.seats if s.identity == "rebel"]
        return [s for s in self.seats if s.identity == "renegade" and s.alive]


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

    @property
    def hp_marks(self) -> list[bool]:
        """One entry per point of max HP: True where the jade is lit."""
        return [i < self.hp for i in range(self.max_hp)]


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
        return self.kind.startswith(("identities", "hero", "died", "game_over"))

    @property
    def reveal(self) -> bool:
        """Lines that name a dead player's identity (public by then)."""
        return self.kind in ("died", "game_over")


def _events(table: Table, limit: int | None = HISTORY_LENGTH, **filters: Any) -> list[HistoryLine]:
    rows = (
        Event.objects.filter(table=table, **filters)
        .order_by("-version", "-pk")
        .values("version", "kind", "public", "game_number")
    )
    if limit is not None:
        rows = rows[:limit]
    return [HistoryLine(e["kind"], e["public"], e["version"], e["game_number"]) for e in rows]


def public_state(table: Table, seats: list[Seat] | None = None) -> PublicState:
    """The state everybody at the physical table may see."""
    if seats is None:
        seats = list(table.seats.order_by("position", "slot"))
    names = {s.pk: s.name for s in seats}
    public_seats = [
        PublicSeat(
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
        )
        for s in seats
    ]
    options = {
        "six_two_renegades": table.six_two_renegades,
        "eight_two_renegades": table.eight_two_renegades,
        "first_game_mode": table.first_game_mode,
        "maneuvering": table.maneuvering,
        "referee_mode": table.referee_mode,
    }
    counts: dict[str, int] = {}
    if table.status == Table.Status.LOBBY and MIN_PLAYERS <= len(seats) <= 10:
        from companion.actions import identity_options

        counts = {k.value: v for k, v in distribution(len(seats), identity_options(table)).items()}
    pickers = [s for s in seats if s.identity and s.identity != "lord"]
    finished = table.status == Table.Status.FINISHED
    history = _events(table, private_to__isnull=True)
    return PublicState(
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
    )


def private_state(seat: Seat) -> PrivateState:
    """What only this seat's phone may see."""
    table = seat.table
    picking = table.status == Table.Status.HEROES
    own_hero = seat.hero or (seat.hero_pick if picking else "")
    return PrivateState(
        seat_id=seat.pk,
        name=seat.name,
        identity=seat.identity or None,
        is_host=seat.is_host,
        alive=seat.alive,
        version=table.version,
        history=_events(table, private_to=seat),
        status=table.status,
        candidates=[c for c in map(hero_card, seat.hero_candidates) if c]
        if picking and not seat.hero
        else [],
        pick=seat.hero_pick if picking else "",
        hero=hero_card(own_hero),
        hp=seat.hp,
        max_hp=seat.max_hp,
        dying=seat.dying,
        maneuvering=table.maneuvering,
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
    name = public.get("name", "")
    texts: dict[str, Any] = {
        "table_created": lambda: _("Table opened"),
        "seat_joined": lambda: _("%(name)s joined") % {"name": name},
        "seat_moved": lambda: (
            _("%(name)s moved to seat %(pos)s")
            % {"name": name, "pos": int(public.get("position", 0)) + 1}
        ),
        "seat_removed": lambda: _("%(name)s was removed") % {"name": name},
        "seat_handed_over": lambda: _("%(name)s's seat moved to another phone") % {"name": name},
        "host_passed": lambda: _("%(name)s is now the host") % {"name": name},
        "table_locked": lambda: _("Table locked"),
        "table_unlocked": lambda: _("Table unlocked"),
        "options_changed": lambda: _("Table options changed"),
        "identities_dealt": lambda: (
            _("Identities dealt: %(name)s is the Lord") % {"name": public.get("lord_name", "")}
        ),
        "identities_redealt": lambda: (
            _("Identities dealt again: %(name)s is the Lord")
            % {"name": public.get("lord_name", "")}
        ),
        "game_started": lambda: _("The game has started"),
        "heroes_lord_choosing": lambda: (
            _("%(name)s, the Lord, is choosing a hero") % {"name": name}
        ),
        "hero_lord_picked": lambda: (
            _("The Lord %(name)s plays %(hero)s")
            % {"name": name, "hero": _hero_name(public.get("hero", ""))}
        ),
        "hero_picked": lambda: (
            _("%(name)s has chosen a hero (%(n)s of %(of)s)")
            % {"name": name, "n": public.get("picked"), "of": public.get("of")}
        ),
        "hero_repicked": lambda: (
            _("%(name)s changed their choice (%(n)s of %(of)s)")
            % {"name": name, "n": public.get("picked"), "of": public.get("of")}
        ),
        "heroes_revealed": lambda: _("All heroes revealed: take your hero card from the box"),
        "heroes_redealt": lambda: _("The host dealt the hero candidates again"),
        "my_hero_picked": lambda: _("You chose %(hero)s") % {"hero": _hero_name(public["hero"])},
        "damage": lambda: (
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
        "recover": lambda: (
            _("%(name)s recovered to HP %(hp)s") % {"name": name, "hp": public["hp"]}
        ),
        "max_hp": lambda: (
            _("%(name)s's max HP is now %(max)s") % {"name": name, "max": public.get("max_hp")}
        ),
        "rescue": lambda: (
            (
                _("%(by)s gave %(name)s a Peach (HP %(hp)s)")
                if public.get("card") == "peach"
                else _("%(name)s drank Wine (HP %(hp)s)")
            )
            % {"by": public.get("by_name"), "name": name, "hp": public.get("hp")}
        ),
        "died": lambda: _died_text(public),
        "game_over": lambda: side_label(public.get("winner", "")),
        "undo": lambda: (
            _("Undone: change #%(v)s to %(name)s")
            % {"v": public.get("undone_version"), "name": name}
        ),
    }
    make = texts.get(kind)
    return {"kind": kind, "text": make() if make else kind}


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
