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

Heroes: a draft (`PLAN`, rules.draft), then each commander places 3 of his side's 8 on his
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
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar

from companion.rules import chance
from companion.rules.directions import AREA_TRICKS, Direction
from companion.rules.draft import DraftPlan, Placement
from companion.rules.errors import Refused
from companion.rules.flow import TurnPass
from companion.rules.identities import Identity
from companion.rules.modes.base import Choice, FlowStep, K, Mode, TableOptions
from companion.rules.scoring import Breakdown, GameRecord, PlayerResult, ScoreLine
from companion.rules.turns import LIGHTNING
from companion.rules.victory import DRAW_THREE, SeatStatus, Side

SEATS = 6
TEAM_SIZE = 3
COMMANDER_SEATS = (1, 4)

WIN = "win"
NO_LIGHTNING = "no_lightning"

FIRST_SIDE = "first_side"  # the cold commander: which side acts first
WHO_ACTS = "who_acts"  # the commander of the side with the go: commander or vanguards


class Colour(StrEnum):
    WARM = "warm"
    COLD = "cold"


class Role(StrEnum):
    COMMANDER = "commander"
    VANGUARD_A = "vanguard_a"
    VANGUARD_B = "vanguard_b"


class Act(StrEnum):
    """What the side with the go chooses."""

    COMMANDER = "commander"
    VANGUARDS = "vanguards"


COLOUR_OF: dict[Identity, Colour] = {
    Identity.LORD: Colour.WARM,
    Identity.LOYALIST: Colour.WARM,
    Identity.RENEGADE: Colour.COLD,
    Identity.REBEL: Colour.COLD,
}
COMMANDER_OF: dict[Colour, Identity] = {Colour.WARM: Identity.LORD, Colour.COLD: Identity.RENEGADE}
VANGUARD_OF: dict[Colour, Identity] = {Colour.WARM: Identity.LOYALIST, Colour.COLD: Identity.REBEL}
SIDE_OF: dict[Colour, Side] = {Colour.WARM: Side.LORD, Colour.COLD: Side.RENEGADE}
COLOUR_OF_SIDE: dict[Side, Colour] = {side: colour for colour, side in SIDE_OF.items()}

# The ring, from cold vanguard A (docs/rules.md §9.7).
RING: tuple[tuple[Colour, Role], ...] = (
    (Colour.COLD, Role.VANGUARD_A),
    (Colour.COLD, Role.COMMANDER),
    (Colour.COLD, Role.VANGUARD_B),
    (Colour.WARM, Role.VANGUARD_B),
    (Colour.WARM, Role.COMMANDER),
    (Colour.WARM, Role.VANGUARD_A),
)

PLAN = DraftPlan(
    sides=(Colour.WARM.value, Colour.COLD.value),
    pool_size=16,
    face_down=0,
    steps=(1, 2, 2, 2, 2, 2, 2, 2, 1),
    slots=(Role.COMMANDER.value, Role.VANGUARD_A.value, Role.VANGUARD_B.value),
    first_side=None,
    first_chooser=Colour.WARM.value,
    reveal_all=True,
)


def colour(identity: Identity) -> Colour:
    """The colour a seat of this identity plays."""
    return COLOUR_OF[Identity(identity)]


def is_commander(identity: Identity) -> bool:
    return Identity(identity) in (Identity.LORD, Identity.RENEGADE)


# Seats and colours -----------------------------------------------------------------------


def layout(warm_commander: int) -> list[Identity]:
    """The identities of the six seats when the warm commander sits at `warm_commander` (1 or
    4): each commander's team round him."""
    if warm_commander not in COMMANDER_SEATS:
        raise Refused("not_a_commander_seat", f"the commanders sit at {COMMANDER_SEATS}")
    warm = [Identity.LOYALIST, Identity.LORD, Identity.LOYALIST]
    cold = [Identity.REBEL, Identity.RENEGADE, Identity.REBEL]
    return [*warm, *cold] if warm_commander == 1 else [*cold, *warm]


def swap_colours(identities: Sequence[Identity]) -> list[Identity]:
    """The next game's deal at the same table: each team takes the other colour."""
    _check_layout(identities)
    swapped = {
        Identity.LORD: Identity.RENEGADE,
        Identity.RENEGADE: Identity.LORD,
        Identity.LOYALIST: Identity.REBEL,
        Identity.REBEL: Identity.LOYALIST,
    }
    return [swapped[Identity(i)] for i in identities]


def _check_layout(identities: Sequence[Identity]) -> None:
    if [Identity(i) for i in identities] not in (layout(1), layout(4)):
        raise Refused("bad_layout", "not a 3 vs 3 table's identities")


def _cold_commander(identities: Sequence[Identity]) -> int:
    return [Identity(i) for i in identities].index(Identity.RENEGADE)


def place_of(identities: Sequence[Identity], seat: int) -> tuple[Colour, Role]:
    """The colour and place of a seat (its position in the ring from cold vanguard A)."""
    _check_layout(identities)
    if not 0 <= seat < SEATS:
        raise Refused("bad_seat", f"seat {seat}")
    return RING[(seat - _cold_commander(identities) + 1) % SEATS]


def heroes_for_seats(identities: Sequence[Identity], placement: Placement) -> list[str]:
    """Each seat's hero once both commanders have placed: a side's commander place to its
    commander, its vanguard places to its vanguards."""
    if not placement.revealed:
        raise Refused("not_revealed", "both sides place before the heroes are known")
    heroes = []
    for seat in range(SEATS):
        side, role = place_of(identities, seat)
        heroes.append(placement.lineup(side.value)[PLAN.slots.index(role.value)])
    return heroes


# The go: whose turn ------------------------------------------------------------------------


def _seat_of(seats: Sequence[SeatStatus], identity: Identity) -> int:
    return next(i for i, s in enumerate(seats) if s.identity == identity)


def _vanguards(seats: Sequence[SeatStatus], side: Colour) -> list[int]:
    """A side's vanguards in turn order from the seat after its commander."""
    commander = _seat_of(seats, COMMANDER_OF[side])
    ring = [(commander + k) % len(seats) for k in range(1, len(seats))]
    return [i for i in ring if seats[i].identity == VANGUARD_OF[side]]


@dataclass(frozen=True)
class Go:
    """The go's state: the side that has it (None before the first is chosen), the question
    waiting (None, FIRST_SIDE or WHO_ACTS), the seats still to act in this go after the current
    one, the seats whose card is sideways, and whether the next turn starts a round (the cards
    were just set upright, or the game starts)."""

    side: Colour | None = None
    asking: str | None = None
    queue: tuple[int, ...] = ()
    sideways: frozenset[int] = field(default_factory=frozenset)
    fresh: bool = True

    def as_data(self) -> dict[str, Any]:
        return {
            "side": self.side.value if self.side else None,
            "asking": self.asking,
            "queue": list(self.queue),
            "sideways": sorted(self.sideways),
            "fresh": self.fresh,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Go:
        if not data:
            return cls()
        return cls(
            side=Colour(data["side"]) if data.get("side") else None,
            asking=data.get("asking"),
            queue=tuple(int(i) for i in data.get("queue", ())),
            sideways=frozenset(int(i) for i in data.get("sideways", ())),
            fresh=bool(data.get("fresh", False)),
        )


def _upright(seats: Sequence[SeatStatus], go: Go, side: Colour) -> list[int]:
    return [
        i
        for i, s in enumerate(seats)
        if s.alive and colour(s.identity) == side and i not in go.sideways
    ]


def acts_open(seats: Sequence[SeatStatus], go: Go, side: Colour) -> tuple[Act, ...]:
    """What the side may choose on its go: its commander (alive and upright), its vanguards
    (one alive and upright)."""
    upright = _upright(seats, go, side)
    options = []
    if _seat_of(seats, COMMANDER_OF[side]) in upright:
        options.append(Act.COMMANDER)
    if any(i in upright for i in _vanguards(seats, side)):
        options.append(Act.VANGUARDS)
    return tuple(options)


def _start_turn(go: Go, seat: int, queue: Sequence[int]) -> FlowStep:
    """`seat`'s turn begins: its card turns sideways."""
    after = replace(go, asking=None, queue=tuple(queue), sideways=go.sideways | {seat}, fresh=False)
    return FlowStep(after.as_data(), turn=TurnPass(seat, new_round=go.fresh))


def _act(seats: Sequence[SeatStatus], go: Go, side: Colour, act: Act) -> FlowStep:
    go = replace(go, side=side)
    if act is Act.COMMANDER:
        return _start_turn(go, _seat_of(seats, COMMANDER_OF[side]), ())
    upright = set(_upright(seats, go, side))
    order = [i for i in _vanguards(seats, side) if i in upright]
    return _start_turn(go, order[0], order[1:])


def _give_go(seats: Sequence[SeatStatus], go: Go, side: Colour) -> FlowStep:
    """`side` has the go: its only choice is taken at once, else its commander is asked."""
    options = acts_open(seats, go, side)
    if len(options) == 1:
        return _act(seats, go, side, options[0])
    chooser = _seat_of(seats, COMMANDER_OF[side])
    asked = replace(go, side=side, asking=WHO_ACTS, queue=())
    return FlowStep(
        asked.as_data(), choice=Choice(chooser, WHO_ACTS, tuple(a.value for a in options))
    )


def _other(side: Colour) -> Colour:
    return Colour.COLD if side is Colour.WARM else Colour.WARM


def _over(seats: Sequence[SeatStatus]) -> bool:
    return any(not s.alive and is_commander(s.identity) for s in seats)


def go_begin(seats: Sequence[SeatStatus]) -> FlowStep:
    """The start of play: the cold commander is asked which side acts first."""
    _check_layout([s.identity for s in seats])
    chooser = _seat_of(seats, Identity.RENEGADE)
    answers = (Colour.WARM.value, Colour.COLD.value)
    return FlowStep(Go(asking=FIRST_SIDE).as_data(), choice=Choice(chooser, FIRST_SIDE, answers))


def go_answer(
    seats: Sequence[SeatStatus], state: Mapping[str, Any], chooser: int, answer: str
) -> FlowStep:
    """The answer to the question the go waits on. Refused, changing nothing: no question,
    the wrong seat answering, an answer not offered."""
    go = Go.from_data(state)
    if go.asking is None:
        raise Refused("no_question", "nothing is being asked")
    if go.asking == FIRST_SIDE:
        expected = _seat_of(seats, Identity.RENEGADE)
        offered: tuple[str, ...] = (Colour.WARM.value, Colour.COLD.value)
    else:
        assert go.side is not None
        expected = _seat_of(seats, COMMANDER_OF[go.side])
        offered = tuple(a.value for a in acts_open(seats, go, go.side))
    if chooser != expected:
        raise Refused("not_chooser", f"seat {expected} answers, not seat {chooser}")
    if answer not in offered:
        raise Refused("bad_answer", f"{answer!r} is not one of {offered}")
    if go.asking == FIRST_SIDE:
        # The first turn of the game is a commander's.
        return _act(seats, go, Colour(answer), Act.COMMANDER)
    assert go.side is not None
    return _act(seats, go, go.side, Act(answer))


def go_pending(seats: Sequence[SeatStatus], state: Mapping[str, Any]) -> Choice | None:
    """The question the go waits on, if any (as `go_begin` and `_give_go` asked it)."""
    go = Go.from_data(state)
    if go.asking == FIRST_SIDE:
        answers = (Colour.WARM.value, Colour.COLD.value)
        return Choice(_seat_of(seats, Identity.RENEGADE), FIRST_SIDE, answers)
    if go.asking == WHO_ACTS and go.side is not None:
        options = tuple(a.value for a in acts_open(seats, go, go.side))
        return Choice(_seat_of(seats, COMMANDER_OF[go.side]), WHO_ACTS, options)
    return None


def go_after_turn(seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int) -> FlowStep:
    """The end of `current`'s turn: every living card sideways sets all upright; then the next
    vanguard of this go, or the go passes (back to this side when every living card of the
    other is sideways and this side has an upright one)."""
    go = Go.from_data(state)
    side = go.side
    if side is None or go.asking is not None:
        raise Refused("no_turn", "no turn is being played")
    alive = {i for i, s in enumerate(seats) if s.alive}
    if alive <= go.sideways:
        go = replace(go, sideways=frozenset(), fresh=True)
    queue = [i for i in go.queue if i in alive]
    if queue:
        return _start_turn(go, queue[0], queue[1:])
    other = _other(side)
    if _upright(seats, go, other):
        return _give_go(seats, go, other)
    return _give_go(seats, go, side)


def go_after_death(
    seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int, dead: int
) -> FlowStep:
    """A death: out of this go's queue; the turn passes at once if it was the dead player's.
    Once a commander is dead the game is over and nothing moves."""
    if seats[dead].alive:
        raise Refused("still_alive", f"seat {dead} is alive")
    go = Go.from_data(state)
    go = replace(go, queue=tuple(i for i in go.queue if i != dead))
    if _over(seats) or dead != current:
        return FlowStep(go.as_data())
    return go_after_turn(seats, go.as_data(), current)


# The mode ----------------------------------------------------------------------------------


def _check_count(seat_count: int) -> None:
    if seat_count != SEATS:
        raise Refused("seat_count", f"3 vs 3 seats {SEATS} players, not {seat_count}")


class ThreesMode(Mode):
    key: ClassVar[str] = "threes"
    min_players: ClassVar[int] = SEATS
    max_players: ClassVar[int] = SEATS
    options_type: ClassVar[type[TableOptions]] = TableOptions
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
        return _seat_of(seats, Identity.LORD)

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
        _check_layout([s.identity for s in seats])
        fallen = [colour(s.identity) for s in seats if is_commander(s.identity) and not s.alive]
        if len(fallen) > 1:
            raise Refused("both_commanders_dead", "one commander's death ends the game")
        return SIDE_OF[_other(fallen[0])] if fallen else None

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
