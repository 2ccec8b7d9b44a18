"""What every way to play answers (plain Python); the options every table has are in
`options` (re-exported here).

A mode lives in its game package behind `Mode`; the rest of the app reaches it only through the
registry (`companion.rules.modes.get`).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from companion.rules.directions import AREA_TRICKS, TURN_ORDER, Direction
from companion.rules.errors import Refused
from companion.rules.flow import TurnPass
from companion.rules.identities import Identity

# Re-exported: the modes import their options' base from here, beside `Mode`.
from companion.rules.modes.options import O as O
from companion.rules.modes.options import OptionRefusal as OptionRefusal
from companion.rules.modes.options import OptionsError as OptionsError
from companion.rules.modes.options import OptionsRefused as OptionsRefused
from companion.rules.modes.options import TableOptions
from companion.rules.scoring import GameRecord, PlayerResult
from companion.rules.victory import SeatStatus, Side

if TYPE_CHECKING:
    from companion.rules.box import Box

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Choice:
    """A question the game waits on before the next turn: the seat (index) that answers, what
    it is asked (a code the screens word), and the answers it may give."""

    chooser: int
    question: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class FlowStep:
    """Where the game's flow goes next, and the mode's flow state after it (plain data the table
    keeps, `{}` for a mode that needs none): a turn starts (`turn`), or the game waits for an
    answer (`choice`), or neither (the turn stays where it is)."""

    state: dict[str, Any]
    turn: TurnPass | None = None
    choice: Choice | None = None


class DraftShape(Protocol):
    """What the core reads of a mode's draft plan: its two sides (the draft's rules, `DraftPlan`,
    are the draft kit's, companion/games/draft, which a drafted mode's package imports)."""

    @property
    def sides(self) -> tuple[str, str]: ...


@dataclass(frozen=True)
class HeroFall:
    """What a hero's death does to its seat: the player is out (`out`), or the next hero of the
    seat's order comes in (`next_index` into that order) at full HP, with a reminder for the
    table (`reminder`, a code); `turn_passes`: a turn the fallen hero was playing ends at once."""

    out: bool
    next_index: int | None = None
    reminder: str | None = None
    turn_passes: bool = False


class Mode:
    """One way to play. Subclasses set the class attributes and override what differs."""

    key: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type[TableOptions]] = TableOptions
    # Cards every hero draws before the first turn, which every screen announces until the first
    # turn ends (0: nothing announced).
    opening_draw: ClassVar[int] = 0

    def options(self, raw: Mapping[str, Any] | None) -> TableOptions:
        """The stored options of a table of this mode, typed (the defaults for none)."""
        return self.options_type.parse(raw or {})

    def seats_allowed(self, count: int) -> bool:
        """Whether a game of this mode may be dealt to `count` players."""
        return self.min_players <= count <= self.max_players

    # The deal: what each seat may see, who is known to all, the heroes and their HP.

    def identity_counts(self, seat_count: int, options: TableOptions) -> dict[Identity, int]:
        """How many seats the deal gives each identity (shown before the deal)."""
        raise NotImplementedError

    def deal(
        self,
        seat_count: int,
        options: TableOptions,
        *,
        fixed_leader: int | None = None,
        rng: random.Random | None = None,
    ) -> list[Identity]:
        """The identities dealt, index i to the i-th seat round the table; with `fixed_leader`
        (a tournament) that seat is the leader and the others are dealt at random."""
        raise NotImplementedError

    def is_leader(self, identity: Identity) -> bool:
        """Whether a seat of this identity is the leader (see `leader`)."""
        raise NotImplementedError

    def leader(self, seats: Sequence[SeatStatus]) -> int | None:
        """The seat the deal makes known to everybody, who also chooses a hero first and whose
        side the others measure themselves against (the identity game's lord); None if none."""
        raise NotImplementedError

    def identity_public(self, identity: Identity, *, alive: bool, game_over: bool) -> bool:
        """Whether every screen may see a seat's identity (its own phone always may)."""
        raise NotImplementedError

    def start_hp(
        self, seat: SeatStatus, *, hero_hp: int | None, player_count: int, first_game: bool
    ) -> int:
        """A seat's max HP (and starting HP) for its hero (None: no heroes, first-game mode)."""
        raise NotImplementedError

    def without_heroes(self, options: TableOptions) -> bool:
        """Whether the table plays with no heroes (the identity game's first-game mode): the
        deal goes straight to play, every seat at `start_hp(hero_hp=None)`."""
        return False

    def leader_offer(self, rng: random.Random | None = None) -> list[str]:
        """The hero ids offered to the leader, who chooses before the others."""
        raise NotImplementedError

    def offers(
        self,
        *,
        player_count: int,
        taken: Collection[str],
        count: int,
        rng: random.Random | None = None,
    ) -> list[list[str]]:
        """Disjoint hero offers for `count` seats (the others, once the leader has chosen),
        none of them in `taken`."""
        raise NotImplementedError

    def leader_offer_from(
        self,
        options: TableOptions,
        hero_box: Box,
        rng: random.Random | None = None,
        *,
        standard: bool = False,
    ) -> list[str] | None:
        """The leader's offer from a table's box (`standard`: the standard heroes as they come),
        or None: the mode's own (`leader_offer`)."""
        return None

    def offers_from(
        self, hero_box: Box, *, player_count: int, taken: Collection[str], count: int
    ) -> list[list[str]] | None:
        """The others' offers from a table's box that is not the standard heroes as they come,
        or None: the mode's own (`offers`)."""
        return None

    # The game's flow, over the seats in table order (index i is the i-th seat round the table).

    def first_turn(self, seats: Sequence[SeatStatus]) -> int:
        """The seat whose turn comes first."""
        raise NotImplementedError

    def next_turn(self, seats: Sequence[SeatStatus], current: int) -> TurnPass:
        """Where the turn goes after `current`'s (alive, or just dead)."""
        raise NotImplementedError

    def turn_after_death(
        self, seats: Sequence[SeatStatus], current: int, dead: int
    ) -> TurnPass | None:
        """When `dead` has just died: where the turn goes at once (it was theirs), or None."""
        raise NotImplementedError

    def victory(self, seats: Sequence[SeatStatus]) -> Side | None:
        """The side that has won, or None while the game goes on."""
        raise NotImplementedError

    def winners(self, seats: Sequence[SeatStatus], side: Side) -> list[int]:
        """The seats that win with `side`."""
        raise NotImplementedError

    def on_death(self, victim: SeatStatus, killer: SeatStatus | None) -> str | None:
        """The killer's reward or penalty for this death, if any."""
        raise NotImplementedError

    def killer_discards_equipment(self, victim: Identity, killer: Identity) -> bool:
        """Whether this death costs the (living) killer their equipment."""
        raise NotImplementedError

    def lost_final_duel(self, victim: Identity, alive_before: Sequence[Identity]) -> bool:
        """Whether this death (`alive_before` includes the victim) lost a final duel, which
        the scoring rewards."""
        raise NotImplementedError

    def may_lose_final_duel(self, identity: Identity) -> bool:
        """Whether a seat of this identity can die in a final duel (see `lost_final_duel`)."""
        raise NotImplementedError

    def final_duel_scored(self, side: Side) -> bool:
        """Whether a lost final duel scores when this side has won."""
        raise NotImplementedError

    # Scoring a session (docs/rules.md §8).

    # Every code a score line may have, in the order an export lists them.
    score_codes: ClassVar[tuple[str, ...]] = ()

    def score(self, players: Mapping[K, PlayerResult], side: Side) -> dict[K, GameRecord]:
        """A finished game's score for each player (and whether they won), same keys."""
        raise NotImplementedError

    def rating_team(self, identity: Identity, index: int) -> str:
        """The team a seat of this identity (at seat `index`) is rated with once the game is
        over (a group's rating, companion.groups): the seats that win or lose together share
        one. Default: the draft side (its colours, its players), else each seat alone."""
        side = self.draft_side(identity)
        return side if side else f"seat{index}"

    def leader_rotation(self, seat_count: int, first_index: int) -> list[int]:
        """In a tournament: the leader's seat index for each game, the first at `first_index`;
        the tournament ends after the last."""
        raise NotImplementedError

    def leader_seats(self, seat_count: int) -> tuple[int, ...]:
        """The seat indexes a tournament's first leader may sit at (`leader_rotation` refuses
        the others): any seat, in a mode that lets every seat lead."""
        return tuple(range(seat_count))

    # Added for modes beyond the identity game (the game packages'). Each default is the
    # identity game's behaviour, so the identity mode needs no change.

    def lord_skills(self, identity: Identity) -> bool:
        """Whether lord skills (主公技, e.g. 救援) work for a seat of this identity: the
        leader's."""
        return self.is_leader(identity)

    def card_refused(self, name: str) -> str | None:
        """Why this mode plays without this card (a code), or None: every card is in play."""
        return None

    def trick_directions(self, name: str) -> tuple[Direction, ...]:
        """The directions the user of this area trick may send it round (the first is the usual
        one); empty for a card that is not an area trick. The identity game: turn order only."""
        return (TURN_ORDER,) if name in AREA_TRICKS else ()

    def redeal(
        self,
        previous: Sequence[Identity],
        options: TableOptions,
        rng: random.Random | None = None,
    ) -> list[Identity]:
        """The identities of the next game at the same table (`previous`: the last game's, in
        seat order): a new deal."""
        return self.deal(len(previous), options, rng=rng)

    def role(self, identity: Identity) -> str | None:
        """What a seat of this identity is called on every screen and in the history, a code
        the screens word ("warm_commander", "first_player"), where the mode's seats are not the
        identity game's; None: the identity card's own name."""
        return None

    def seat_place(self, seats: Sequence[SeatStatus], index: int) -> str | None:
        """A name for the seat's place at the table (a code the screens word), or None: the
        role of its identity (`role`)."""
        identity = seats[index].identity
        return self.role(Identity(identity)) if identity else None

    def first_draw_change(self, seats: Sequence[SeatStatus], index: int) -> int:
        """Cards this seat draws more (or fewer) than usual in its first draw phase: none."""
        return 0

    # Heroes drafted by two sides instead of offered (the draft kit, companion/games/draft);
    # None: offers.

    def draft_plan(self) -> DraftShape | None:
        """The hero draft this mode plays, or None: the leader's offer, then the others'."""
        return None

    def draft_side(self, identity: Identity) -> str | None:
        """The draft side a seat of this identity belongs to (None: no draft)."""
        return None

    def drafts_for_side(self, identity: Identity) -> bool:
        """Whether a seat of this identity picks and places heroes for its side."""
        return False

    def seat_heroes(
        self,
        seats: Sequence[SeatStatus],
        placement: Any,
        fallen: Mapping[str, int] | None = None,
    ) -> list[str]:
        """Each seat's hero in play from a revealed placement (the draft kit's `Placement`;
        `fallen`: each side's heroes dead so far, for a mode that plays several)."""
        raise Refused("no_draft", "this mode offers its heroes")

    # Teams picked in the lobby (the mode's game forms them, hooks.Game.seating seats them):
    # their size, 0 for none.

    team_size: ClassVar[int] = 0

    # A seat's heroes: the identity game plays one, and its death puts the player out.

    heroes_per_seat: ClassVar[int] = 1

    def hero_falls(self, fallen: int) -> HeroFall:
        """What the death of a seat's `fallen`-th hero (counting this one) does."""
        if not 1 <= fallen <= self.heroes_per_seat:
            raise Refused("bad_fall", f"hero {fallen} of {self.heroes_per_seat}")
        return HeroFall(out=True)

    # The game's flow with state: the turn may wait for a choice (who has the go). The identity
    # game's flow needs no state and never asks, so these follow first_turn, next_turn and
    # turn_after_death.

    def flow_begin(self, seats: Sequence[SeatStatus]) -> FlowStep:
        """The start of play: the first turn (round 1), or the first question."""
        return FlowStep({}, turn=TurnPass(self.first_turn(seats), new_round=True))

    def flow_after_turn(
        self, seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int
    ) -> FlowStep:
        """The end of `current`'s turn (alive, or just dead): the next turn or question."""
        return FlowStep(dict(state), turn=self.next_turn(seats, current))

    def flow_after_death(
        self, seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int, dead: int
    ) -> FlowStep:
        """When `dead` has just died during `current`'s turn: the turn passes at once if it was
        theirs (turn or choice set), else it stays (neither set)."""
        return FlowStep(dict(state), turn=self.turn_after_death(seats, current, dead))

    def flow_pending(self, seats: Sequence[SeatStatus], state: Mapping[str, Any]) -> Choice | None:
        """The question the flow waits on in this state, if any (the identity game: none)."""
        return None

    def acted_seats(self, state: Mapping[str, Any]) -> frozenset[int]:
        """Seats marked as having acted (their identity card turned sideways): none."""
        return frozenset()

    def flow_answer(
        self, seats: Sequence[SeatStatus], state: Mapping[str, Any], chooser: int, answer: str
    ) -> FlowStep:
        """A seat answers the question the flow waits on. The identity game never asks."""
        raise Refused("no_question", "nothing is being asked")
