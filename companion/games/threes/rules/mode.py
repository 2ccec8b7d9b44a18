"""3 vs 3 (三国杀 3V3规则, seed 000; docs/rules.md §9.7): two teams of three, each a commander
(主帅) and two vanguards (前锋), playing for the other commander's death.

Identity cards are face up and name the places: the lord is the warm side's commander, the
loyalists its vanguards; the renegade is the cold side's commander, the rebels its vanguards.
The game's sides are the victory module's: the warm side wins as `Side.LORD`, the cold side
as `Side.RENEGADE` (the cards each side holds).

Seats. The lobby forms the teams (rules.teams, `team_size`); the table is seated team one
(vanguard, commander, vanguard) then team two, so the commanders sit at indexes 1 and 4 and,
whichever team draws which colour, the ring reads cold vanguard A, cold commander, cold
vanguard B, warm vanguard B, warm commander, warm vanguard A (`place_of`, `seat_place`). The
deal is the commanders' draw of the lord and renegade cards; a next game swaps the colours
(`redeal`, or `deal` with the other commander as `fixed_leader`).

Heroes: a draft (`PLAN`, the draft kit's rules), then each commander places 3 of his side's 8 on his
side's places, revealed together (`seat_heroes`).

Turns (the go, `flow_*`): the cold commander chooses the side that acts first, and the first
turn is that side's commander's. A side with the go acts: its commander chooses "commander
acts" (one turn) or "vanguards act" (each living vanguard, one after the other, from the seat
after the commander round the table), asked only when both are possible. A player's card turns
sideways when his turn begins; at the end of a turn with every living card sideways, all are
set upright. Then the go passes to the other side, unless every living card of that side is
sideways while this side still has an upright one. Dead players are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games.draft.rules import DraftPlan, Placement
from companion.games.threes.rules.go import (
    Go,
    go_after_death,
    go_after_turn,
    go_answer,
    go_begin,
    go_pending,
)
from companion.games.threes.rules.seats import (
    COLOUR_OF_SIDE,
    COMMANDER_SEATS,
    PLAN,
    SEATS,
    SIDE_OF,
    TEAM_SIZE,
    check_layout,
    colour,
    heroes_for_seats,
    is_commander,
    layout,
    other,
    place_of,
    seat_of,
    swap_colours,
)
from companion.rules import chance
from companion.rules.directions import AREA_TRICKS, Direction
from companion.rules.errors import Refused
from companion.rules.flow import TurnPass
from companion.rules.identities import Identity
from companion.rules.modes.base import Choice, FlowStep, K, Mode, TableOptions
from companion.rules.scoring import Breakdown, GameRecord, PlayerResult, ScoreLine
from companion.rules.turns import LIGHTNING
from companion.rules.victory import DRAW_THREE, SeatStatus, Side

WIN = "win"
NO_LIGHTNING = "no_lightning"


def _check_count(seat_count: int) -> None:
    if seat_count != SEATS:
        raise Refused("seat_count", f"3 vs 3 seats {SEATS} players, not {seat_count}")


@dataclass(frozen=True)
class ThreesOptions(TableOptions):
    """Every table's options, and those the game packages declare for this mode."""

    MODE: ClassVar[str] = "threes"


class ThreesMode(Mode):
    key: ClassVar[str] = "threes"
    min_players: ClassVar[int] = SEATS
    max_players: ClassVar[int] = SEATS
    options_type: ClassVar[type[TableOptions]] = ThreesOptions
    opening_draw: ClassVar[int] = 4  # docs/rules.md §9.7: each hero starts with 4 cards
    score_codes: ClassVar[tuple[str, ...]] = (WIN,)

    def identity_counts(self, seat_count: int, options: TableOptions) -> dict[Identity, int]:
        """Both commanders' cards and two vanguards' each side."""
        _check_count(seat_count)
        return {Identity.LORD: 1, Identity.LOYALIST: 2, Identity.REBEL: 2, Identity.RENEGADE: 1}

    def deal(
        self,
        seat_count: int,
        options: TableOptions,
        *,
        fixed_leader: int | None = None,
        rng: random.Random | None = None,
    ) -> list[Identity]:
        """The commanders draw the lord and renegade cards at random (`fixed_leader`: the warm
        commander's seat, the next game's swap); each team takes its commander's colour."""
        _check_count(seat_count)
        if fixed_leader is None:
            fixed_leader = chance.given_or_source(rng).choice(COMMANDER_SEATS)
        return layout(fixed_leader)

    def redeal(
        self,
        previous: Sequence[Identity],
        options: TableOptions,
        rng: random.Random | None = None,
    ) -> list[Identity]:
        """The next game at the same table swaps the colours."""
        return swap_colours(previous)

    def is_leader(self, identity: Identity) -> bool:
        return Identity(identity) == Identity.LORD

    def leader(self, seats: Sequence[SeatStatus]) -> int | None:
        """The warm commander: he decides who picks first in the draft."""
        return seat_of(seats, Identity.LORD)

    def identity_public(self, identity: Identity, *, alive: bool, game_over: bool) -> bool:
        """Every identity card is face up."""
        return True

    def start_hp(
        self, seat: SeatStatus, *, hero_hp: int | None, player_count: int, first_game: bool
    ) -> int:
        """The hero's HP; a commander +1."""
        _check_count(player_count)
        if first_game or hero_hp is None:
            raise Refused("needs_heroes", "3 vs 3 is played with heroes")
        return hero_hp + (1 if is_commander(seat.identity) else 0)

    def leader_offer(self, rng: random.Random | None = None) -> list[str]:
        raise Refused("drafted", "3 vs 3 drafts its heroes (draft_plan)")

    def offers(
        self,
        *,
        player_count: int,
        taken: Collection[str],
        count: int,
        rng: random.Random | None = None,
    ) -> list[list[str]]:
        raise Refused("drafted", "3 vs 3 drafts its heroes (draft_plan)")

    # Turns need the go's state: the flow hooks below; the stateless ones refuse.

    def first_turn(self, seats: Sequence[SeatStatus]) -> int:
        raise Refused("needs_flow_state", "3 vs 3 turns follow the go (flow_begin)")

    def next_turn(self, seats: Sequence[SeatStatus], current: int) -> TurnPass:
        raise Refused("needs_flow_state", "3 vs 3 turns follow the go (flow_after_turn)")

    def turn_after_death(
        self, seats: Sequence[SeatStatus], current: int, dead: int
    ) -> TurnPass | None:
        raise Refused("needs_flow_state", "3 vs 3 turns follow the go (flow_after_death)")

    def flow_begin(self, seats: Sequence[SeatStatus]) -> FlowStep:
        return go_begin(seats)

    def flow_after_turn(
        self, seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int
    ) -> FlowStep:
        return go_after_turn(seats, state, current)

    def flow_after_death(
        self, seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int, dead: int
    ) -> FlowStep:
        return go_after_death(seats, state, current, dead)

    def flow_answer(
        self, seats: Sequence[SeatStatus], state: Mapping[str, Any], chooser: int, answer: str
    ) -> FlowStep:
        return go_answer(seats, state, chooser, answer)

    def flow_pending(self, seats: Sequence[SeatStatus], state: Mapping[str, Any]) -> Choice | None:
        return go_pending(seats, state)

    def acted_seats(self, state: Mapping[str, Any]) -> frozenset[int]:
        """The seats whose identity card is sideways: they have acted since the last reset."""
        return Go.from_data(state).sideways

    def victory(self, seats: Sequence[SeatStatus]) -> Side | None:
        """A side wins when the other commander dies."""
        check_layout([s.identity for s in seats])
        fallen = [colour(s.identity) for s in seats if is_commander(s.identity) and not s.alive]
        if len(fallen) > 1:
            raise Refused("both_commanders_dead", "one commander's death ends the game")
        return SIDE_OF[other(fallen[0])] if fallen else None

    def winners(self, seats: Sequence[SeatStatus], side: Side) -> list[int]:
        """Every player of the winning colour, alive or dead."""
        won = COLOUR_OF_SIDE[Side(side)]
        return [i for i, s in enumerate(seats) if colour(s.identity) == won]

    def on_death(self, victim: SeatStatus, killer: SeatStatus | None) -> str | None:
        """Any kill draws 3, even of a teammate."""
        return DRAW_THREE if killer is not None else None

    def killer_discards_equipment(self, victim: Identity, killer: Identity) -> bool:
        return False

    def lost_final_duel(self, victim: Identity, alive_before: Sequence[Identity]) -> bool:
        return False

    def may_lose_final_duel(self, identity: Identity) -> bool:
        return False

    def final_duel_scored(self, side: Side) -> bool:
        return False

    def score(self, players: Mapping[K, PlayerResult], side: Side) -> dict[K, GameRecord]:
        """A win counts one for each player of the winning colour."""
        won = COLOUR_OF_SIDE[Side(side)]
        records = {}
        for key, player in players.items():
            wins = colour(player.identity) == won
            line = ScoreLine(WIN, 1, 1 if wins else 0)
            records[key] = GameRecord(player.identity, wins, Breakdown((line,)), len(player.kills))
        return records

    def leader_seats(self, seat_count: int) -> tuple[int, ...]:
        """Only a commander's seat: the warm commander leads."""
        return COMMANDER_SEATS if seat_count == SEATS else ()

    def leader_rotation(self, seat_count: int, first_index: int) -> list[int]:
        """Two games: each commander warm once (the colours swap)."""
        _check_count(seat_count)
        if first_index not in COMMANDER_SEATS:
            raise Refused("not_a_commander_seat", f"the commanders sit at {COMMANDER_SEATS}")
        return [first_index, sum(COMMANDER_SEATS) - first_index]

    # Beyond the identity game.

    def lord_skills(self, identity: Identity) -> bool:
        """No lord skills in 3 vs 3."""
        return False

    def card_refused(self, name: str) -> str | None:
        """No 闪电 in 3 vs 3."""
        return NO_LIGHTNING if name == LIGHTNING else None

    def trick_directions(self, name: str) -> tuple[Direction, ...]:
        """The user of an area trick chooses the way it goes round."""
        if name not in AREA_TRICKS:
            return ()
        return (Direction.COUNTERCLOCKWISE, Direction.CLOCKWISE)

    team_size: ClassVar[int] = TEAM_SIZE

    def role(self, identity: Identity) -> str | None:
        """A colour and a role: "warm_commander", "cold_vanguard"."""
        return f"{colour(identity).value}_{'commander' if is_commander(identity) else 'vanguard'}"

    def seat_place(self, seats: Sequence[SeatStatus], index: int) -> str | None:
        """The seat's colour and place, e.g. "cold_vanguard_a"."""
        side, role = place_of([s.identity for s in seats], index)
        return f"{side.value}_{role.value}"

    def seat_heroes(
        self,
        seats: Sequence[SeatStatus],
        placement: Placement,
        fallen: Mapping[str, int] | None = None,
    ) -> list[str]:
        """Each seat's hero: its side's commander place to its commander, and so on."""
        return heroes_for_seats([s.identity for s in seats], placement)

    def draft_plan(self) -> DraftPlan | None:
        return PLAN

    def draft_side(self, identity: Identity) -> str | None:
        return colour(identity).value

    def drafts_for_side(self, identity: Identity) -> bool:
        """The commander picks and places for his side."""
        return is_commander(identity)
