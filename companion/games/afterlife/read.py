"""Rebirth 转世 and dark souls 暗魂 as every screen may see them (docs/rules.md §9.1, §9.2): the
dead waiting for gifts with their cards counted to the threshold, the reborn, the dark souls and
whom they haunt, and who is still choosing. All of it is public (a dead player's identity is public,
and so is a soul); which phone shows which button is the page's choice (`data-for-seats`), the
actions judge every tap (`actions`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.functional import Promise

from companion.games.afterlife.actions import DARK_SOULS, REBIRTH, load
from companion.games.afterlife.rules import rebirth
from companion.games.afterlife.rules.souls import soul_for
from companion.games.afterlife.words import SOUL_EFFECTS, SOUL_LABELS
from companion.models import Seat, Table
from companion.rules.identities import Identity


@dataclass(frozen=True)
class Waiting:
    """A dead player waiting for gifts: his cards so far, the threshold, no hero left."""

    seat_id: int
    name: str
    cards: int
    threshold: int
    no_hero: bool

    @property
    def pips(self) -> list[bool]:
        """One mark per card needed, the given ones on."""
        return [i < self.cards for i in range(max(self.threshold, self.cards))]


@dataclass(frozen=True)
class Reborn:
    seat_id: int
    name: str
    times: int


@dataclass(frozen=True)
class SoulView:
    """A dark soul: what it is, whose, whom it haunts, and what it does."""

    soul: str
    # Translated when shown (one state is rendered in each language).
    label: Promise
    effect: Promise
    owner_id: int
    owner_name: str
    host_id: int
    host_name: str


@dataclass(frozen=True)
class Choosing:
    """A dead player who is to choose whom his soul haunts."""

    seat_id: int
    name: str
    soul: str
    label: Promise


@dataclass(frozen=True)
class AfterlifeView:
    rebirth: bool
    dark_souls: bool
    waiting: list[Waiting] = field(default_factory=list)
    reborn: list[Reborn] = field(default_factory=list)
    # The seats whose phones show the gift buttons: living, not reborn.
    givers: list[int] = field(default_factory=list)
    souls: list[SoulView] = field(default_factory=list)
    choosing: list[Choosing] = field(default_factory=list)
    # The living players a soul may haunt.
    targets: list[tuple[int, str]] = field(default_factory=list)

    @property
    def givers_attr(self) -> str:
        return " ".join(str(i) for i in self.givers)

    @property
    def reborn_ids(self) -> list[int]:
        return [r.seat_id for r in self.reborn]

    @property
    def shown(self) -> bool:
        return bool(self.waiting or self.reborn or self.souls or self.choosing)


def afterlife_view(table: Table, seats: Sequence[Seat]) -> AfterlifeView | None:
    """What every screen shows of the rebirths and dark souls (None: neither is on, or no game
    is in play or over)."""
    opts = table.opts
    on_rebirth = opts.flag(REBIRTH)
    on_souls = opts.flag(DARK_SOULS)
    if not (on_rebirth or on_souls) or table.status not in (
        Table.Status.PLAYING,
        Table.Status.FINISHED,
    ):
        return None
    state = load(table)
    count = len(seats)
    waiting = [
        Waiting(
            seats[i].pk,
            seats[i].name,
            n,
            rebirth.threshold(count),
            i in state.rebirth.no_hero,
        )
        for i, n in sorted(state.rebirth.cards.items())
        if i < count and not seats[i].alive and table.status == Table.Status.PLAYING
    ]
    reborn = [
        Reborn(seats[i].pk, seats[i].name, state.rebirth.rebirths.get(i, 1))
        for i in sorted(state.rebirth.reborn)
        if i < count and seats[i].alive
    ]
    givers = [s.pk for i, s in enumerate(seats) if s.alive and i not in state.rebirth.reborn]
    souls = [
        SoulView(
            s.soul.value,
            SOUL_LABELS[s.soul.value],
            SOUL_EFFECTS[s.soul.value],
            seats[s.owner].pk,
            seats[s.owner].name,
            seats[s.host].pk,
            seats[s.host].name,
        )
        for s in state.souls
        if max(s.owner, s.host) < count
    ]
    choosing = []
    for i in state.choosing:
        if i >= count or not seats[i].identity:
            continue
        soul = soul_for(Identity(seats[i].identity))
        if soul is not None:
            choosing.append(
                Choosing(seats[i].pk, seats[i].name, soul.value, SOUL_LABELS[soul.value])
            )
    return AfterlifeView(
        rebirth=on_rebirth,
        dark_souls=on_souls,
        waiting=waiting,
        reborn=reborn,
        givers=givers if table.status == Table.Status.PLAYING else [],
        souls=souls if table.status == Table.Status.PLAYING else [],
        choosing=choosing if table.status == Table.Status.PLAYING else [],
        targets=[(s.pk, s.name) for s in seats if s.alive],
    )


def luohan_owner(view: AfterlifeView | None, host_id: int) -> str:
    """The name of the dead player whose 罗汉 haunts this seat (the first, if two), or "": the
    damage dialogs say that 罗汉 will block 1 point, confirmed on that player's phone."""
    if view is None:
        return ""
    return next(
        (s.owner_name for s in view.souls if s.soul == "luohan" and s.host_id == host_id), ""
    )
