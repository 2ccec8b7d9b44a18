"""1 vs 1 (end of seed 001, 规则说明书; docs/rules.md §9.8, which decides the steps the seed leaves
open): two players, three heroes each, played one after the other.

The two draw the lord and renegade cards face down: the lord card's player picks heroes first,
the renegade card's player moves first. The game's sides are the victory module's: the lord
card's player wins as `Side.LORD`, the renegade card's as `Side.RENEGADE`. Nothing else of the
identity game applies: no rewards or penalties for a death, no lord skills (there is no lord,
and no teammate a lord skill could call on).

Heroes: a draft (`PLAN`, the draft kit's rules) of 10 heroes, 6 face up and 4 face down, picked
1-2-2-2-2-1 from the lord side; then each player puts 3 of his 5 in order, face down, and both
first heroes are revealed together (the draft kit's `Placement`, `reveal_all=False`).

A hero's death (`hero_falls`): its cards go to the discard pile, the next hero in its player's
order comes in at full HP and draws 4, and a turn the fallen hero was playing ends at once (as
a dead player's turn does, docs/rules.md §6). The player whose third hero dies loses: only then is
his seat dead.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.games.draft.rules import DraftPlan, Placement
from companion.rules import chance, flow
from companion.rules.errors import Refused
from companion.rules.flow import TurnPass
from companion.rules.identities import Identity
from companion.rules.modes.base import HeroFall, K, Mode, TableOptions
from companion.rules.scoring import Breakdown, GameRecord, PlayerResult, ScoreLine
from companion.rules.victory import SeatStatus, Side

SEATS = 2
HEROES = 3
START_CARDS = 4
FIRST_DRAW_CHANGE = -1

WIN = "win"
# The reminder when the next hero comes in: the fallen hero's cards to the discard pile, draw 4.
DISCARD_AND_DRAW_FOUR = "discard_and_draw4"

LORD_SIDE = "lord"
RENEGADE_SIDE = "renegade"

PLAN = DraftPlan(
    sides=(LORD_SIDE, RENEGADE_SIDE),
    pool_size=10,
    face_down=4,
    steps=(1, 2, 2, 2, 2, 1),
    slots=("first", "second", "third"),
    first_side=LORD_SIDE,
    first_chooser=None,
    reveal_all=False,
)

SIDE_OF: dict[Identity, Side] = {Identity.LORD: Side.LORD, Identity.RENEGADE: Side.RENEGADE}
DRAFT_SIDE_OF: dict[Identity, str] = {Identity.LORD: LORD_SIDE, Identity.RENEGADE: RENEGADE_SIDE}


def _check_count(seat_count: int) -> None:
    if seat_count != SEATS:
        raise Refused("seat_count", f"1 vs 1 seats {SEATS} players, not {seat_count}")


def _check_seats(seats: Sequence[SeatStatus]) -> None:
    _check_count(len(seats))
    if sorted(Identity(s.identity) for s in seats) != sorted((Identity.LORD, Identity.RENEGADE)):
        raise Refused("bad_layout", "one lord card and one renegade card")


def _seat_of(seats: Sequence[SeatStatus], identity: Identity) -> int:
    _check_seats(seats)
    return next(i for i, s in enumerate(seats) if s.identity == identity)


ROLE_OF = {Identity.RENEGADE: "first_player", Identity.LORD: "second_player"}


def draft_side(identity: Identity) -> str:
    """The draft side of a seat: its card's."""
    try:
        return DRAFT_SIDE_OF[Identity(identity)]
    except KeyError:
        raise Refused("bad_identity", f"no {identity} in 1 vs 1") from None


def hero_in_play(placement: Placement, side: str, fallen: int) -> str:
    """The hero `side` plays after `fallen` of its heroes have died."""
    if not placement.revealed:
        raise Refused("not_revealed", "both players order their heroes first")
    if not 0 <= fallen < HEROES:
        raise Refused("no_hero_left", f"{fallen} heroes fallen of {HEROES}")
    return placement.lineup(side)[fallen]


@dataclass(frozen=True)
class DuelOptions(TableOptions):
    """Every table's options, and those the game packages declare for this mode."""

    MODE: ClassVar[str] = "duel"


class DuelMode(Mode):
    key: ClassVar[str] = "duel"
    min_players: ClassVar[int] = SEATS
    max_players: ClassVar[int] = SEATS
    options_type: ClassVar[type[TableOptions]] = DuelOptions
    opening_draw: ClassVar[int] = 4  # docs/rules.md §9.8: each hero starts with 4 cards
    score_codes: ClassVar[tuple[str, ...]] = (WIN,)
    heroes_per_seat: ClassVar[int] = HEROES

    def identity_counts(self, seat_count: int, options: TableOptions) -> dict[Identity, int]:
        """The lord card and the renegade card."""
        _check_count(seat_count)
        return {Identity.LORD: 1, Identity.LOYALIST: 0, Identity.REBEL: 0, Identity.RENEGADE: 1}

    def deal(
        self,
        seat_count: int,
        options: TableOptions,
        *,
        fixed_leader: int | None = None,
        rng: random.Random | None = None,
    ) -> list[Identity]:
        """The two cards shuffled face down, one drawn each (`fixed_leader`: the lord card's
        seat, a session's alternation)."""
        _check_count(seat_count)
        if fixed_leader is None:
            fixed_leader = chance.given_or_source(rng).randrange(SEATS)
        if fixed_leader not in range(SEATS):
            raise Refused("bad_seat", f"seat {fixed_leader}")
        cards = [Identity.RENEGADE, Identity.RENEGADE]
        cards[fixed_leader] = Identity.LORD
        return cards

    def role(self, identity: Identity) -> str | None:
        """The cards only decide who moves first: the renegade card's player is the first
        player, the lord card's the second (who picks first in the draft)."""
        return ROLE_OF.get(Identity(identity))

    def is_leader(self, identity: Identity) -> bool:
        return Identity(identity) == Identity.LORD

    def leader(self, seats: Sequence[SeatStatus]) -> int | None:
        """The lord card's player: he picks first."""
        return _seat_of(seats, Identity.LORD)

    def identity_public(self, identity: Identity, *, alive: bool, game_over: bool) -> bool:
        """Two cards, two players: each knows the other's."""
        return True

    def start_hp(
        self, seat: SeatStatus, *, hero_hp: int | None, player_count: int, first_game: bool
    ) -> int:
        """The hero's HP, no bonus (and the next hero's, at full HP)."""
        _check_count(player_count)
        if first_game or hero_hp is None:
            raise Refused("needs_heroes", "1 vs 1 is played with heroes")
        return hero_hp

    def leader_offer(self, rng: random.Random | None = None) -> list[str]:
        raise Refused("drafted", "1 vs 1 drafts its heroes (draft_plan)")

    def offers(
        self,
        *,
        player_count: int,
        taken: Collection[str],
        count: int,
        rng: random.Random | None = None,
    ) -> list[list[str]]:
        raise Refused("drafted", "1 vs 1 drafts its heroes (draft_plan)")

    def first_turn(self, seats: Sequence[SeatStatus]) -> int:
        """The renegade side moves first."""
        return _seat_of(seats, Identity.RENEGADE)

    def next_turn(self, seats: Sequence[SeatStatus], current: int) -> TurnPass:
        """The other player; a round begins with the renegade side's turn."""
        renegade = _seat_of(seats, Identity.RENEGADE)
        return flow.pass_turn([s.alive for s in seats], current, renegade)

    def turn_after_death(
        self, seats: Sequence[SeatStatus], current: int, dead: int
    ) -> TurnPass | None:
        renegade = _seat_of(seats, Identity.RENEGADE)
        return flow.turn_after_death([s.alive for s in seats], current, dead, renegade)

    def first_draw_change(self, seats: Sequence[SeatStatus], index: int) -> int:
        """The renegade side draws one card fewer in its first draw phase."""
        return FIRST_DRAW_CHANGE if index == _seat_of(seats, Identity.RENEGADE) else 0

    def hero_falls(self, fallen: int) -> HeroFall:
        """The next hero in order comes in at full HP (discard the fallen hero's cards, draw
        4), and the fallen hero's turn ends; the third hero's death puts the player out."""
        if not 1 <= fallen <= HEROES:
            raise Refused("bad_fall", f"hero {fallen} of {HEROES}")
        if fallen == HEROES:
            return HeroFall(out=True)
        return HeroFall(
            out=False, next_index=fallen, reminder=DISCARD_AND_DRAW_FOUR, turn_passes=True
        )

    def victory(self, seats: Sequence[SeatStatus]) -> Side | None:
        """The player whose third hero dies loses."""
        _check_seats(seats)
        survivors = [s for s in seats if s.alive]
        if len(survivors) == SEATS:
            return None
        if not survivors:
            raise Refused("both_out", "one player is out at a time")
        return SIDE_OF[Identity(survivors[0].identity)]

    def winners(self, seats: Sequence[SeatStatus], side: Side) -> list[int]:
        return [i for i, s in enumerate(seats) if SIDE_OF.get(Identity(s.identity)) == side]

    def on_death(self, victim: SeatStatus, killer: SeatStatus | None) -> str | None:
        """No rewards or penalties."""
        return None

    def killer_discards_equipment(self, victim: Identity, killer: Identity) -> bool:
        return False

    def lost_final_duel(self, victim: Identity, alive_before: Sequence[Identity]) -> bool:
        return False

    def may_lose_final_duel(self, identity: Identity) -> bool:
        return False

    def final_duel_scored(self, side: Side) -> bool:
        return False

    def score(self, players: Mapping[K, PlayerResult], side: Side) -> dict[K, GameRecord]:
        """A win counts one for its player."""
        records = {}
        for key, player in players.items():
            wins = SIDE_OF.get(Identity(player.identity)) == Side(side)
            line = ScoreLine(WIN, 1, 1 if wins else 0)
            records[key] = GameRecord(player.identity, wins, Breakdown((line,)), len(player.kills))
        return records

    def leader_rotation(self, seat_count: int, first_index: int) -> list[int]:
        """Two games: each player holds the lord card once."""
        _check_count(seat_count)
        if first_index not in range(SEATS):
            raise Refused("bad_seat", f"seat {first_index}")
        return [first_index, 1 - first_index]

    # Beyond the identity game.

    def lord_skills(self, identity: Identity) -> bool:
        """No lord in 1 vs 1: the lord card only decides the sides."""
        return False

    def seat_heroes(
        self,
        seats: Sequence[SeatStatus],
        placement: Placement,
        fallen: Mapping[str, int] | None = None,
    ) -> list[str]:
        """Each player's hero in play: the first of his order, or the next after each fall."""
        _check_seats(seats)
        fallen = fallen or {}
        return [
            hero_in_play(placement, draft_side(s.identity), fallen.get(draft_side(s.identity), 0))
            for s in seats
        ]

    def draft_plan(self) -> DraftPlan | None:
        return PLAN

    def draft_side(self, identity: Identity) -> str | None:
        return draft_side(identity)

    def drafts_for_side(self, identity: Identity) -> bool:
        """Each player picks and orders his own heroes."""
        return Identity(identity) in DRAFT_SIDE_OF
