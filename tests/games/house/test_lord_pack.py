"""The lord pack's offer (docs/rules.md §9.5) is its package's, through the hooks: with the option
on, 3 heroes and one of the box's lord heroes; without it, no offer of its own (the mode's
five)."""

from __future__ import annotations

import random

from companion import hooks
from companion.models import Table
from companion.rules import modes
from companion.rules.box import Box


def test_the_lord_pack_is_offered_only_with_the_option_on() -> None:
    box = Box()
    pack = Table(mode="identity", options={"lord_pack": True})
    plain = Table(mode="identity", options={})
    house = hooks.by_key("house")
    assert house is not None and house in hooks.on(pack)
    offer = house.leader_offer(pack, box)
    assert offer is not None and len(offer) == 4 and box.hero(offer[3]).lord
    assert not {h for h in offer[:3] if box.hero(h).lord}
    assert house.leader_offer(plain, box) is None
    offer = modes.get("identity").leader_offer_from(plain.opts, box, random.Random(1))
    assert offer is not None and len(offer) == 5 and {"WEI001", "SHU001", "WU001"} <= set(offer)
