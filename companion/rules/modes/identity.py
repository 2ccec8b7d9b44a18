"""The identity game (身份局, docs/rules.md §1–§8): 4 to 10 players, a public lord.

Its options add the identity distributions of 6 and 8 players with two renegades and the first
game without heroes (新手局) to every table's options.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.rules import box, flow, heroes, identities, scoring, victory
from companion.rules.flow import TurnPass
from companion.rules.identities import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Identity,
    IdentityOptions,
    can_see_identity,
)
from companion.rules.modes.base import K, Mode, O, OptionRefusal, OptionsRefused, TableOptions
from companion.rules.scoring import GameRecord, PlayerResult
from companion.rules.victory import SeatStatus, Side


@dataclass(frozen=True)
class IdentityGameOptions(TableOptions):
    """The identity game's options: the distributions and first-game mode (docs/rules.md §1, §2),
    and the variants and house rules of docs/rules.md §9, all off by default
    (`docs/variants.md`)."""

    six_two_renegades: bool = False
    eight_two_renegades: bool = False
    first_game_mode: bool = False
    # docs/rules.md §9, the variants in the seeds.
    rebirth: bool = False  # 转世: the dead take gifts of cards and come back with a new hero
    dark_souls: bool = False  # 暗魂: the dead haunt a living player with a one-off effect
    first_out_protection: bool = False  # without dark souls: last session game's first out
    last_three: bool = False  # three alive: three rounds, then everybody loses 1 HP a round
    lord_pack: bool = False  # the lord: 3 non-lord heroes and 1 of the box's lord heroes
    rebels_know_each_other: bool = False  # 003: each rebel sees the other rebels
    lord_five_cards: bool = False  # 003: the lord starts with 5 cards

    VARIANTS: ClassVar[tuple[str, ...]] = (
        "rebirth",
        "dark_souls",
        "first_out_protection",
        "last_three",
        "lord_pack",
        "rebels_know_each_other",
        "lord_five_cards",
    )

    @classmethod
    def names(cls) -> tuple[str, ...]:
        # The host's form: the identity options first, then the variants, then every table's.
        return (
            "six_two_renegades",
            "eight_two_renegades",
            "first_game_mode",
            *cls.VARIANTS,
            "maneuvering",
            "referee_mode",
        )

    @classmethod
    def parse(cls: type[O], raw: Mapping[str, Any]) -> O:
        """As every table's, and two options that exclude each other are refused
        (OptionsRefused, naming the option and why)."""
        options = super().parse(raw)
        refused = options.refusals()
        if refused:
            raise OptionsRefused(refused[0])
        return options

    def variants_on(self) -> tuple[str, ...]:
        """The names of the variants switched on, in the form's order (the header's list)."""
        return tuple(name for name in self.VARIANTS if getattr(self, name))

    def refusals(self, seat_count: int | None = None) -> tuple[OptionRefusal, ...]:
        """What does not fit (docs/rules.md §9, decided in docs/variants.md): rebirth and dark souls
        both say what becomes of the dead, so a table has one or the other; the protection of
        the first out is the rule for tables without dark souls; rebirth and the lord pack draw
        heroes, which first-game mode has none of. With `seat_count`: rebels who know each other
        need two rebels (4 players deal one). The last-three rule fits every count from 4
        (docs/rules.md §9.4: at 4 the first death starts its countdown)."""
        found: list[OptionRefusal] = []
        for option, code, clash, reason in _CLASHES:
            if getattr(self, option) and getattr(self, clash):
                found.append(OptionRefusal(option, code, reason))
        if seat_count is not None:
            # A count outside 4–10 deals nothing (the deal says so itself): no rebels to count.
            dealt = MIN_PLAYERS <= seat_count <= MAX_PLAYERS
            if (
                self.rebels_know_each_other
                and dealt
                and identities.distribution(seat_count, self.identities())[Identity.REBEL] < 2
            ):
                found.append(
                    OptionRefusal(
                        "rebels_know_each_other",
                        "rebels_know_one_rebel",
                        "Rebels who know each other need two rebels or more; this deal has one.",
                    )
                )
        return tuple(found)

    def identities(self) -> IdentityOptions:
        """What the dealing of identities needs of these options."""
        return IdentityOptions(
            six_two_renegades=self.six_two_renegades,
            eight_two_renegades=self.eight_two_renegades,
        )


# (option, refusal code, the option it excludes, the reason): the first of the two in the
# form's order is the one named.
_CLASHES: tuple[tuple[str, str, str, str], ...] = (
    (
        "rebirth",
        "rebirth_dark_souls",
        "dark_souls",
        "Rebirth and dark souls both decide what becomes of the dead: choose one.",
    ),
    (
        "rebirth",
        "rebirth_first_game",
        "first_game_mode",
        "Rebirth draws a new hero, and first-game mode plays without heroes.",
    ),
    (
        "dark_souls",
        "protection_dark_souls",
        "first_out_protection",
        "The protection of the first player out is the rule for tables without dark souls.",
    ),
    (
        "lord_pack",
        "lord_pack_first_game",
        "first_game_mode",
        "The lord pack offers heroes, and first-game mode plays without heroes.",
    ),
)


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

    def leader_offer(self, rng: random.Random | None = None) -> list[str]:
        """The lord's five: 曹操, 刘备, 孙权 and two others (docs/rules.md §2)."""
        return heroes.lord_candidates(rng)

    def leader_offer_from(
        self, options: TableOptions, hero_box: box.Box, rng: random.Random | None = None
    ) -> list[str]:
        """The lord's offer from a table's box: with the lord pack (docs/rules.md §9.5, 004) 3
        random non-lord heroes and one of the box's lord heroes, else docs/rules.md §2's five."""
        if isinstance(options, IdentityGameOptions) and options.lord_pack:
            return box.lord_pack_offer(hero_box, rng)
        return box.lord_offer(hero_box, rng)

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
        """docs/rules.md §7; a reborn player (转世) still counts as dead (docs/rules.md §9.1)."""
        return victory.winning_side(victory.for_victory(seats))

    def winners(self, seats: Sequence[SeatStatus], side: Side) -> list[int]:
        return victory.winners(victory.for_victory(seats), side)

    def on_death(self, victim: SeatStatus, killer: SeatStatus | None) -> str | None:
        """A rebel's killer draws three; a lord who kills a loyalist discards everything;
        neither for a reborn victim (docs/rules.md §9.1)."""
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
