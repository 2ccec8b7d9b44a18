"""The protection of the first player out (docs/rules.md §9.3; seed 000, 详细规则 2), a table option
for tables without dark souls.

The first player out of a game is protected in the next game of the same session: he cannot be
the first out (his last HP is protected: a damage or a loss that would take it leaves him at 1)
until someone else is out, or he attacks a player who has attacked him.

Players are the session's keys (a seat's id as text), so the protection follows the player
whatever seat he takes in the next game. An attack is a damage the app records with its source,
or a 杀 that was dodged (no damage, but an attack all the same: the table says so with a tap).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.rules import modes

OPTION = "first_out_protection"
# The mode it belongs to, and the variant it is the rule without (names: data; docs/rules.md §9.3:
# "without dark-soul cards").
MODE = "identity"
WITHOUT = "dark_souls"
CLASH = "protection_dark_souls"


@dataclass(frozen=True)
class Protection:
    """Who is protected this game, who has attacked him, and whether it has ended."""

    player: str
    attackers: frozenset[str] = frozenset()
    ended: bool = False

    def stored(self) -> dict[str, Any]:
        return {"player": self.player, "attackers": sorted(self.attackers), "ended": self.ended}

    @classmethod
    def from_stored(cls, raw: Mapping[str, Any] | None) -> Protection | None:
        if not raw:
            return None
        return cls(
            player=str(raw["player"]),
            attackers=frozenset(str(a) for a in raw.get("attackers", ())),
            ended=bool(raw.get("ended", False)),
        )


def first_out(deaths: Sequence[str]) -> str | None:
    """The first player out of a game, from its deaths in order (None: nobody died)."""
    return deaths[0] if deaths else None


def for_next_game(previous_deaths: Sequence[str], players: Collection[str]) -> Protection | None:
    """The protection of the session's next game: the previous game's first player out, if
    he plays in this one."""
    player = first_out(previous_deaths)
    if player is None or player not in players:
        return None
    return Protection(player=player)


def protects(protection: Protection | None, player: str) -> bool:
    """Whether `player` is protected now."""
    return protection is not None and not protection.ended and protection.player == player


def hp_after(protection: Protection | None, player: str, *, hp: int, change: int) -> int:
    """A player's HP after a change (negative: damage or loss): a protected player at 1 HP or
    more keeps his last HP."""
    after = hp + change
    if change < 0 and protects(protection, player) and hp >= 1:
        return max(after, 1)
    return after


def attacked(protection: Protection | None, *, attacker: str, target: str) -> Protection | None:
    """Record an attack: on the protected player, his attacker is noted; by the protected
    player on one of his attackers, the protection ends."""
    if protection is None or protection.ended:
        return protection
    if target == protection.player and attacker != protection.player:
        return replace(protection, attackers=protection.attackers | {attacker})
    if attacker == protection.player and target in protection.attackers:
        return replace(protection, ended=True)
    return protection


def out(protection: Protection | None, player: str) -> Protection | None:
    """Someone is out: if it is someone else, the protection ends."""
    if protection is None or protection.ended or player == protection.player:
        return protection
    return replace(protection, ended=True)


def declare() -> None:
    """Declare its option for the identity game, after the afterlife's among its variants."""
    modes.add_option(
        OPTION,
        modes=(MODE,),
        variant=True,
        place=30,
        clashes=(
            modes.Clash(
                WITHOUT,
                CLASH,
                "The protection of the first player out is the rule for tables without dark souls.",
            ),
        ),
    )
