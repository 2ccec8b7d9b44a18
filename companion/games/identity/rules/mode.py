"""The identity game (身份局, docs/rules.md §1–§8): 4 to 10 players, a public lord. Its
options are `IdentityGameOptions` (`options.py`)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import ClassVar

from companion.games.identity.rules.options import IdentityGameOptions
from companion.rules import box, flow, heroes, identities, scoring, victory
from companion.rules.flow import TurnPass
from companion.rules.identities import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Identity,
    IdentityOptions,
    can_see_identity,
)
from companion.rules.modes.base import K, Mode, TableOptions
from companion.rules.scoring import GameRecord, PlayerResult
from companion.rules.victory import SeatStatus, Side


def _identity_options(options: TableOptions) -> IdentityOptions:
    if isinstance(options, IdentityGameOptions):
        return options.identities()
    return IdentityOptions()


class IdentityMode(Mode):
    key: ClassVar[str] = "identity"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    options_type: ClassVar[type[TableOptions]] = IdentityGameOptions
    score_codes: ClassVar[tuple[str, ...]] = (
        scoring.BASE,
        scoring.LOYALISTS_ALIVE,
        scoring.REBELS_ALIVE,
        scoring.PLAYERS,
        scoring.FINAL_DUEL,
        scoring.KILL_LORD,
        scoring.KILL_LOYALIST,
        scoring.KILL_REBEL,
        scoring.KILL_RENEGADE,
    )

    def _lord(self, seats: Sequence[SeatStatus]) -> int:
        return next(i for i, seat in enumerate(seats) if seat.identity == Identity.LORD)

    def identity_counts(self, seat_count: int, options: TableOptions) -> dict[Identity, int]:
        """One lord; loyalists, rebels and renegades by player count (docs/rules.md §1)."""
        return identities.distribution(seat_count, _identity_options(options))

    def deal(
        self,
        seat_count: int,
        options: TableOptions,
        *,
        fixed_leader: int | None = None,
        rng: random.Random | None = None,
    ) -> list[Identity]:
        """Identities shuffled at random; in a tournament the lord sits at `fixed_leader`."""
        chosen = _identity_options(options)
        if fixed_leader is None:
            return identities.deal_identities(seat_count, chosen, rng)
        return identities.deal_identities_fixed_lord(seat_count, fixed_leader, chosen, rng)

    def is_leader(self, identity: Identity) -> bool:
        return identity == Identity.LORD

    def without_heroes(self, options: TableOptions) -> bool:
        """First-game mode: no heroes (docs/rules.md §2)."""
        return isinstance(options, IdentityGameOptions) and options.first_game_mode

    def leader_offer(self, rng: random.Random | None = None) -> list[str]:
        """The lord's five: 曹操, 刘备, 孙权 and two others (docs/rules.md §2)."""
        return heroes.lord_candidates(rng)

    def leader_offer_from(
        self,
        options: TableOptions,
        hero_box: box.Box,
        rng: random.Random | None = None,
        *,
        standard: bool = False,
    ) -> list[str] | None:
        """The lord's offer from a table's box: docs/rules.md §2's five (None from the standard
        heroes as they come: `leader_offer`). A variant that offers the lord other heroes does
        it through its hooks (`hooks.Game.leader_offer`)."""
        return None if standard else box.lord_offer(hero_box, rng)

    def offers_from(
        self, hero_box: box.Box, *, player_count: int, taken: Collection[str], count: int
    ) -> list[list[str]] | None:
        """Disjoint candidates from the box's heroes (docs/rules.md §2)."""
        return box.deal_candidates(hero_box, taken=taken, player_count=player_count, count=count)

    def offers(
        self,
        *,
        player_count: int,
        taken: Collection[str],
        count: int,
        rng: random.Random | None = None,
    ) -> list[list[str]]:
        """Three heroes each (two at ten players), none taken (docs/rules.md §2)."""
        return heroes.deal_candidates(
            taken=taken, player_count=player_count, non_lord_count=count, rng=rng
        )

    def leader(self, seats: Sequence[SeatStatus]) -> int | None:
        """The lord: public from the deal, first to choose a hero (docs/rules.md §1, §2)."""
        return self._lord(seats)

    def identity_public(self, identity: Identity, *, alive: bool, game_over: bool) -> bool:
        """The lord's from the start; the others' once dead or once the game is over."""
        return can_see_identity(
            viewer_is_target=False,
            viewer_identity=None,
            target_identity=identity,
            target_alive=alive,
            game_over=game_over,
        )

    def start_hp(
        self, seat: SeatStatus, *, hero_hp: int | None, player_count: int, first_game: bool
    ) -> int:
        """The hero's HP, +1 for the lord from five players (docs/rules.md §2)."""
        return heroes.max_hp(
            hero_hp=hero_hp,
            is_lord=self.is_leader(seat.identity),
            player_count=player_count,
            first_game=first_game,
        )

    def first_turn(self, seats: Sequence[SeatStatus]) -> int:
        """The lord starts (docs/rules.md §3)."""
        return self._lord(seats)

    def next_turn(self, seats: Sequence[SeatStatus], current: int) -> TurnPass:
        """The next living seat; a round begins when play comes back to the lord
        (docs/rules.md §3)."""
        return flow.pass_turn([s.alive for s in seats], current, self._lord(seats))

    def turn_after_death(
        self, seats: Sequence[SeatStatus], current: int, dead: int
    ) -> TurnPass | None:
        return flow.turn_after_death([s.alive for s in seats], current, dead, self._lord(seats))

    def victory(self, seats: Sequence[SeatStatus]) -> Side | None:
        """docs/rules.md §7; a player a game brought back (`reborn`) still counts as dead."""
        return victory.winning_side(victory.for_victory(seats))

    def winners(self, seats: Sequence[SeatStatus], side: Side) -> list[int]:
        return victory.winners(victory.for_victory(seats), side)

    def on_death(self, victim: SeatStatus, killer: SeatStatus | None) -> str | None:
        """A rebel's killer draws three; a lord who kills a loyalist discards everything;
        neither for a victim a game had brought back (`reborn`)."""
        return victory.seat_death_consequence(victim, killer)

    def killer_discards_equipment(self, victim: Identity, killer: Identity) -> bool:
        """A lord who kills a loyalist discards their equipment (docs/rules.md §6)."""
        return flow.equipment_discarded_by_killer(victim=victim, killer=killer)

    def lost_final_duel(self, victim: Identity, alive_before: Sequence[Identity]) -> bool:
        """A renegade who dies alone against the lord (docs/rules.md §8)."""
        return scoring.is_final_duel_death(victim=victim, alive_before_death=alive_before)

    def may_lose_final_duel(self, identity: Identity) -> bool:
        """Only a renegade fights the final duel."""
        return identity == Identity.RENEGADE

    def final_duel_scored(self, side: Side) -> bool:
        """When the lord's side wins, the renegade scores N for a lost final duel, else 0."""
        return side == Side.LORD

    def score(self, players: Mapping[K, PlayerResult], side: Side) -> dict[K, GameRecord]:
        """计分规则 (docs/rules.md §8)."""
        return scoring.record_game(players, side)

    def rating_team(self, identity: Identity, index: int) -> str:
        """The lord's side (lord and loyalists), the rebels, and each renegade alone."""
        if identity in (Identity.LORD, Identity.LOYALIST):
            return Side.LORD.value
        if identity == Identity.REBEL:
            return Side.REBELS.value
        return f"{Side.RENEGADE.value}{index}"

    def leader_rotation(self, seat_count: int, first_index: int) -> list[int]:
        """推广版计分赛: the lord passes to the next seat until everybody has been lord once."""
        return scoring.tournament_lords(seat_count, first_index)
