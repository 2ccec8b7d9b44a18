"""Rebirth 转世 (docs/rules.md §9.1; seeds 000, 001, 004), a table option.

A dead player stays at the table with his identity shown. Each other living player may give
him one hand card per turn; a reborn player cannot give (000: 不能献祭其他角色). At the
threshold (4 cards, 3 in games of 4–5) he is reborn at once (000: 立即转世) as the first hero of
his kingdom from the unused heroes (`draw.rebirth_hero`), with HP 1, and is back
in turn order from his next turn; his old hero goes back among the unused. If no hero fits he
keeps his cards and takes no more gifts. He may be reborn again (000: 玩家可以反复转世; 004's
"at most 3 rebirths" is not followed, see docs/variants.md). He still counts as dead for the
end of the game and for scoring; killing a reborn rebel gives no reward, and a lord who kills a
reborn loyalist has no penalty (the core's `SeatStatus.reborn`: `victory.for_victory`,
`victory.seat_death_consequence`, `scoring.lost_final_duel`, fed by the package's `statuses`
hook).

The state is plain data keyed by seat index (the seats round the table, as in `flow`), stored
as JSON by whoever keeps the game (`stored`, `from_stored`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.rules.identities import MAX_PLAYERS, Identity
from companion.rules.victory import SeatStatus

THRESHOLD = 4
THRESHOLD_SMALL_GAME = 3  # games of 4–5 players
REBORN_HP = 1


def threshold(player_count: int) -> int:
    """The cards a dead player needs to be reborn: 4, or 3 in games of 4–5 (docs/rules.md §9.1)."""
    return THRESHOLD_SMALL_GAME if player_count <= 5 else THRESHOLD


def turn_key(round_number: int, turn_seat: int) -> int:
    """One number per turn of a game, for the gifts' `turn`: the table's round (docs/rules.md §3: a
    round begins with the lord) and the seat index whose turn it is."""
    return round_number * MAX_PLAYERS + turn_seat


def reborn_hp(hero_hp: int) -> tuple[int, int]:
    """A reborn player's (HP, max HP): HP 1 (docs/rules.md §9.1), his new hero's max HP (he is never
    the lord, so no lord bonus)."""
    return REBORN_HP, hero_hp


class GiftRefusal(StrEnum):
    """Why a gift of a card to a dead player is refused (codes for the screens)."""

    RECEIVER_ALIVE = "receiver_alive"
    RECEIVER_LORD = "receiver_lord"
    RECEIVER_NO_HERO = "receiver_no_hero"
    RECEIVER_DUE = "receiver_due"
    GIVER_DEAD = "giver_dead"
    GIVER_REBORN = "giver_reborn"
    ALREADY_GAVE = "already_gave"


REASONS: dict[GiftRefusal, str] = {
    GiftRefusal.RECEIVER_ALIVE: "Only a dead player takes gifts.",
    GiftRefusal.RECEIVER_LORD: "The lord is not reborn: his death ends the game.",
    GiftRefusal.RECEIVER_NO_HERO: "No hero of his kingdom is left: he takes no more gifts.",
    GiftRefusal.RECEIVER_DUE: "He has enough cards: he is reborn now.",
    GiftRefusal.GIVER_DEAD: "Only a living player gives a card.",
    GiftRefusal.GIVER_REBORN: "A reborn player cannot give.",
    GiftRefusal.ALREADY_GAVE: "One gift per player per turn: you have given this turn.",
}


class GiftRefused(ValueError):
    """A gift the rules refuse; `refusal` says why."""

    def __init__(self, refusal: GiftRefusal) -> None:
        super().__init__(REASONS[refusal])
        self.refusal = refusal


@dataclass(frozen=True)
class RebirthState:
    """A game's rebirths, by seat index.

    `cards`: each dead player waiting to be reborn, with the cards given since his death;
    `no_hero`: dead players for whom no hero was left (they keep their cards, take no more);
    `reborn`: players alive again after a rebirth (still dead for the end of the game);
    `rebirths`: how many times each player has been reborn this game;
    `turn` and `gave`: the turn the gifts in `gave` (by giver) were made in.
    """

    cards: Mapping[int, int] = field(default_factory=dict)
    no_hero: frozenset[int] = frozenset()
    reborn: frozenset[int] = frozenset()
    rebirths: Mapping[int, int] = field(default_factory=dict)
    turn: int = 0
    gave: frozenset[int] = frozenset()

    def stored(self) -> dict[str, Any]:
        """JSON-ready: keys as strings, sets as sorted lists."""
        return {
            "cards": {str(k): v for k, v in sorted(self.cards.items())},
            "no_hero": sorted(self.no_hero),
            "reborn": sorted(self.reborn),
            "rebirths": {str(k): v for k, v in sorted(self.rebirths.items())},
            "turn": self.turn,
            "gave": sorted(self.gave),
        }

    @classmethod
    def from_stored(cls, raw: Mapping[str, Any] | None) -> RebirthState:
        """The state `stored` wrote (empty for None)."""
        if not raw:
            return cls()
        return cls(
            cards={int(k): int(v) for k, v in raw.get("cards", {}).items()},
            no_hero=frozenset(int(i) for i in raw.get("no_hero", ())),
            reborn=frozenset(int(i) for i in raw.get("reborn", ())),
            rebirths={int(k): int(v) for k, v in raw.get("rebirths", {}).items()},
            turn=int(raw.get("turn", 0)),
            gave=frozenset(int(i) for i in raw.get("gave", ())),
        )

    def gave_in(self, turn: int) -> frozenset[int]:
        """Who has given a card in this turn."""
        return self.gave if self.turn == turn else frozenset()


def died(state: RebirthState, seat: int) -> RebirthState:
    """A player has died (again, if he was reborn): he waits with no cards (his hand went to
    the discard pile) and is no longer reborn."""
    return replace(
        state,
        cards={**state.cards, seat: 0},
        no_hero=state.no_hero - {seat},
        reborn=state.reborn - {seat},
    )


def gift_refusal(
    state: RebirthState,
    seats: Sequence[SeatStatus],
    *,
    giver: int,
    receiver: int,
    turn: int,
    player_count: int,
) -> GiftRefusal | None:
    """Why `giver` may not give `receiver` a hand card in `turn`, or None if he may."""
    target = seats[receiver]
    if target.alive:
        return GiftRefusal.RECEIVER_ALIVE
    if target.identity == Identity.LORD:
        return GiftRefusal.RECEIVER_LORD
    if receiver in state.no_hero:
        return GiftRefusal.RECEIVER_NO_HERO
    if state.cards.get(receiver, 0) >= threshold(player_count):
        return GiftRefusal.RECEIVER_DUE
    if not seats[giver].alive:
        return GiftRefusal.GIVER_DEAD
    if giver in state.reborn:
        return GiftRefusal.GIVER_REBORN
    if giver in state.gave_in(turn):
        return GiftRefusal.ALREADY_GAVE
    return None


def give(
    state: RebirthState,
    seats: Sequence[SeatStatus],
    *,
    giver: int,
    receiver: int,
    turn: int,
    player_count: int,
) -> RebirthState:
    """`giver` gives `receiver` one hand card in `turn`; GiftRefused if the rules say no.
    Then ask `due`: at the threshold the rebirth happens at once."""
    refusal = gift_refusal(
        state, seats, giver=giver, receiver=receiver, turn=turn, player_count=player_count
    )
    if refusal is not None:
        raise GiftRefused(refusal)
    return replace(
        state,
        cards={**state.cards, receiver: state.cards.get(receiver, 0) + 1},
        turn=turn,
        gave=state.gave_in(turn) | {giver},
    )


def due(state: RebirthState, seat: int, player_count: int) -> bool:
    """Whether this dead player has the cards to be reborn now (and a hero may still come)."""
    return seat not in state.no_hero and state.cards.get(seat, 0) >= threshold(player_count)


def reborn(state: RebirthState, seat: int) -> RebirthState:
    """The player is reborn (a hero was found: the new hero, HP `REBORN_HP`): he leaves the
    waiting players and is alive again, still dead for the end of the game."""
    if seat not in state.cards:
        raise ValueError(f"seat {seat} is not waiting to be reborn")
    cards = {k: v for k, v in state.cards.items() if k != seat}
    return replace(
        state,
        cards=cards,
        reborn=state.reborn | {seat},
        rebirths={**state.rebirths, seat: state.rebirths.get(seat, 0) + 1},
    )


def no_hero_left(state: RebirthState, seat: int) -> RebirthState:
    """No hero of his kingdom is left: he keeps his cards and takes no more gifts."""
    if seat not in state.cards:
        raise ValueError(f"seat {seat} is not waiting to be reborn")
    return replace(state, no_hero=state.no_hero | {seat})


def with_reborn(seats: Sequence[SeatStatus], state: RebirthState) -> list[SeatStatus]:
    """The seats with their `reborn` flag from the state (a living reborn player)."""
    return [replace(s, reborn=s.alive and i in state.reborn) for i, s in enumerate(seats)]
