"""Area tricks: the order their targets are taken in, and the directions a user may choose.

The app's seat order is the turn order: play passes to the player on the right (docs/rules.md §3),
which round a table seen from above is counter-clockwise (逆时针). A trick that targets every
player goes round the table from its user in turn order, unless the mode lets its user choose
the direction (`Mode.trick_directions`; docs/rules.md §9.7: "The user of 南蛮入侵, 万箭齐发,
桃园结义 or 五谷丰登 chooses the direction it goes round").
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from companion.rules.errors import Refused

SAVAGE_ASSAULT = "南蛮入侵"
ARROW_BARRAGE = "万箭齐发"
PEACH_GARDEN = "桃园结义"
AMAZING_GRACE = "五谷丰登"

# Targets every other player (the user is not a target).
OTHERS_TRICKS: frozenset[str] = frozenset({SAVAGE_ASSAULT, ARROW_BARRAGE})
# Targets every player, the user first.
EVERYONE_TRICKS: frozenset[str] = frozenset({PEACH_GARDEN, AMAZING_GRACE})
AREA_TRICKS: frozenset[str] = OTHERS_TRICKS | EVERYONE_TRICKS


class Direction(StrEnum):
    """The way an area trick goes round the table from its user."""

    COUNTERCLOCKWISE = "ccw"  # in turn order: the next seat first
    CLOCKWISE = "cw"  # against turn order: the previous seat first


TURN_ORDER = Direction.COUNTERCLOCKWISE


def area_order(alive: Sequence[bool], user: int, name: str, direction: Direction) -> list[int]:
    """The living seats an area trick takes, in order, from its user going `direction`:
    南蛮入侵 and 万箭齐发 every other living player, 桃园结义 and 五谷丰登 every living player, the
    user first. Refused: a card that is not an area trick (`not_area_trick`), a user out of
    range or dead (`bad_user`)."""
    if name not in AREA_TRICKS:
        raise Refused("not_area_trick", f"{name} does not target every player")
    count = len(alive)
    if not 0 <= user < count or not alive[user]:
        raise Refused("bad_user", f"seat {user} cannot use a card now")
    step = 1 if Direction(direction) is Direction.COUNTERCLOCKWISE else -1
    others = [(user + step * k) % count for k in range(1, count)]
    living = [seat for seat in others if alive[seat]]
    return [user, *living] if name in EVERYONE_TRICKS else living
