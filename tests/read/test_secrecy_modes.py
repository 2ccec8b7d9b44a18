"""What 3 vs 3 and 1 vs 1 hide never reaches another screen: a face-down hero of
the 1 vs 1 draft (shown to its taker only, and to all once it comes into play), a side's
placement before both sides have placed, a 1 vs 1 player's order beyond the heroes in play.

A game of each mode is played through the actions; after every step everything a screen can
be given is collected, per viewer: the public state and its renderings (display, host, the
pages), the events' public parts, and each seat's private state, its rendering and its page.
Each is checked against an oracle written here from the stored truth (`Table.mode_state`), not
from the read layer's own views."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from companion.games.draft import actions as draft_actions
from companion.games.draft.rules import Draft, Placement
from companion.live import broadcast
from companion.models import Event, Seat, Table
from companion.read.private import private_state
from companion.read.state import public_state
from companion.rules import modes
from tests.read.test_secrecy_screens import hero_leaks
from tests.support.game import fresh, kill
from tests.support.modeplay import (
    dealt_and_started,
    draft_now,
    drafter,
    free_positions,
    mode_table,
    placement_now,
    registered,
    threes_lobby,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]

LANGS = ("en", "zh-hans")


def _page(url: str, lang: str) -> str:
    client = Client()
    client.cookies["sgs_lang"] = lang
    return client.get(url).content.decode()


def public_texts(table: Table) -> list[str]:
    state = public_state(table)
    texts = [repr(state)]
    for lang in LANGS:
        texts += [broadcast.render_public(state, lang), broadcast.render_host(state, lang)]
        texts += [_page(f"/t/{table.code}/", lang), _page(f"/h/{table.host_token}/", lang)]
    events = Event.objects.filter(table=table, private_to__isnull=True)
    texts += [json.dumps(e.public, ensure_ascii=False) for e in events]
    return texts


def seat_texts(seat: Seat) -> list[str]:
    seat = fresh(seat)
    texts = [repr(private_state(seat))]
    for lang in LANGS:
        texts += [broadcast.render_private(seat, lang), _page(f"/p/{seat.token}/", lang)]
    events = Event.objects.filter(private_to=seat)
    texts += [json.dumps(e.public, ensure_ascii=False) for e in events]
    return texts


class Oracle:
    """What is secret from whom now, from the stored truth."""

    def __init__(self, table: Table) -> None:
        table.refresh_from_db()
        self.table = table
        self.mode = modes.get(table.mode)
        plan = self.mode.draft_plan()
        assert plan is not None
        self.plan = plan
        self.draft = Draft.from_data(plan, table.mode_state["draft"])
        data = table.mode_state.get("placement")
        self.placement = Placement.from_data(plan, data) if data else None
        self.fallen = table.mode_state.get("fallen", {})
        self.in_play = {s.hero for s in table.seats.all() if s.hero}

    def side_of(self, seat: Seat | None) -> str | None:
        if seat is None:
            return None
        return self.mode.draft_side(seat.identity)

    def hidden_heroes(self, viewer: Seat | None) -> set[str]:
        """Face-down heroes the viewer's side did not take, not come into play yet."""
        side = self.side_of(viewer)
        mine = {p for p, taker in self.draft.picks if taker == side}
        shown = set(self.in_play)
        if self.placement is not None and self.placement.revealed:
            for placed_side, heroes in self.placement.placed.items():
                shown |= set(heroes[: 1 + int(self.fallen.get(placed_side, 0))])
        return {
            self.draft.pool[p]
            for p in self.draft.face_down
            if p not in mine and self.draft.pool[p] not in shown
        }

    def hidden_places(self, viewer: Seat | None) -> dict[str, int]:
        """For each other side: how many of its places the viewer may see (0 before both have
        placed; all once revealed in 3 vs 3; in 1 vs 1 the heroes in play so far)."""
        side = self.side_of(viewer)
        drafts = viewer is not None and self.mode.drafts_for_side(viewer.identity)
        seen: dict[str, int] = {}
        for other in self.plan.sides:
            if other == side and drafts:
                continue  # the drafter's own places (a 3 vs 3 vanguard sees them at the reveal)
            if self.placement is None or not self.placement.revealed:
                seen[other] = 0
            elif self.plan.reveal_all:
                seen[other] = len(self.plan.slots)
            else:
                seen[other] = 1 + int(self.fallen.get(other, 0))
        return seen

    def unrevealed_orders(self, viewer: Seat | None, seats: list[Seat]) -> dict[int, set[str]]:
        """1 vs 1, once revealed: for each other player, the heroes of his order not in play
        yet (whether face up or face down in the draft)."""
        if self.placement is None or not self.placement.revealed or self.plan.reveal_all:
            return {}
        side = self.side_of(viewer)
        hidden: dict[int, set[str]] = {}
        for seat in seats:
            other = self.side_of(seat)
            if other is None or other == side or other not in self.placement.placed:
                continue
            shown = 1 + int(self.fallen.get(other, 0))
            hidden[seat.pk] = set(self.placement.placed[other][shown:])
        return hidden


def check(table: Table, where: str) -> int:
    """Every viewer's texts against the oracle; returns how many texts were checked."""
    oracle = Oracle(table)
    seats = list(table.seats.order_by("position"))
    checked = 0
    viewers: list[Seat | None] = [None, *seats]
    for viewer in viewers:
        texts = public_texts(table) if viewer is None else seat_texts(viewer)
        hidden = oracle.hidden_heroes(viewer)
        # A placement not revealed to this viewer: its heroes in their order, as data.
        orders = [
            json.dumps(list(oracle.placement.placed[other]), ensure_ascii=False)[1:-1]
            for other, shown in oracle.hidden_places(viewer).items()
            if shown == 0 and oracle.placement is not None and other in oracle.placement.placed
        ]
        unrevealed = oracle.unrevealed_orders(viewer, seats)
        for text in texts:
            assert not hero_leaks(text, hidden), (where, viewer, hero_leaks(text, hidden))
            assert not [o for o in orders if o in text], (where, viewer, orders)
            # 1 vs 1: another player's order line names only the heroes revealed so far (the
            # others, face up in the draft, are public; their places in his order are not).
            for seat_id, line in ORDER_LINE.findall(text):
                leaks = hero_leaks(line, unrevealed.get(int(seat_id), set()))
                assert not leaks, (where, viewer, seat_id, leaks)
            checked += 1
        state = public_state(table) if viewer is None else private_state(fresh(viewer))
        view = state.mode_view
        assert view is not None
        for other, shown in oracle.hidden_places(viewer).items():
            places = view.lineup.get(other, [])
            leaked = [card for card in places[shown:] if card is not None]
            assert not leaked, (where, viewer, other, leaked)
        for line in view.orders:
            seen = {h.hero.id for h in line.heroes if h.hero is not None}
            assert not seen & unrevealed.get(line.seat_id, set()), (where, viewer, line)
    return checked


# A 1 vs 1 order line as the screens render it (companion/modes/draft.html).
ORDER_LINE = re.compile(r'<li class="duel-order" data-seat="(\d+)">(.*?)</li>', re.S)


def test_the_duel_draft_order_and_falls_never_show_a_hidden_hero() -> None:
    table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    check(table, "dealt")
    draft = draft_now(table)
    while not draft.done:
        side = draft.turn
        assert side is not None
        # Face-down heroes first, so both sides hold some.
        free = sorted(free_positions(draft), key=lambda p: p not in draft.face_down)
        draft_actions.draft_pick(
            token=drafter(table, side).token, positions=free[: draft.left_in_step]
        )
        check(table, f"picked {len(draft_now(table).picks)}")
        draft = draft_now(table)
    placement = placement_now(table)
    assert all(
        any(draft.pool[p] in placement.held[s] for p in draft.face_down)
        for s in ("lord", "renegade")
    )
    down = {draft.pool[p] for p in draft.face_down}
    for side in ("lord", "renegade"):
        # A face-up hero first, face-down ones next: they come in as heroes fall.
        ups = [h for h in placement.held[side] if h not in down]
        downs = [h for h in placement.held[side] if h in down]
        draft_actions.draft_place(
            token=drafter(table, side).token, heroes=[ups[0], *downs, *ups[1:]][:3]
        )
        check(table, f"placed {side}")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    renegade, lord = drafter(table, "renegade"), drafter(table, "lord")
    hidden = Oracle(table).hidden_heroes(lord)
    assert hidden & set(placement_now(table).lineup("renegade")), "a face-down hero in the order"
    for falls in range(2):
        kill(table, renegade, lord)
        check(table, f"fall {falls + 1}")
    assert fresh(renegade).hero in down  # a face-down hero came in, and is public now
    # The order lines were there to be checked: the display's and each phone's.
    display = _page(f"/t/{table.code}/", "en")
    assert len(ORDER_LINE.findall(display)) == 2
    lord_page = _page(f"/p/{fresh(lord).token}/", "en")
    assert "2 heroes to come" in display and "my-order" in lord_page


def test_a_threes_placement_is_shown_to_nobody_else_before_both_have_placed() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    draft_actions.draft_first(token=drafter(table, "warm").token, side="cold")
    draft = draft_now(table)
    while not draft.done:
        side = draft.turn
        assert side is not None
        free = free_positions(draft)[: draft.left_in_step]
        draft_actions.draft_pick(token=drafter(table, side).token, positions=free)
        draft = draft_now(table)
    check(table, "drafted")
    placement = placement_now(table)
    draft_actions.draft_place(
        token=drafter(table, "warm").token, heroes=list(placement.held["warm"][:3])
    )
    check(table, "warm placed")
    # Only the warm commander sees his placement: his vanguards and the cold side see nothing.
    warm_commander = table.seats.get(identity="lord")
    warm_vanguard = table.seats.filter(identity="loyalist").first()
    cold_vanguard = table.seats.filter(identity="rebel").first()
    assert private_state(fresh(warm_commander)).mode_view.lineup["warm"][0] is not None
    assert private_state(fresh(warm_vanguard)).mode_view.lineup["warm"] == [None, None, None]
    assert private_state(fresh(cold_vanguard)).mode_view.lineup["warm"] == [None, None, None]
    draft_actions.draft_place(
        token=drafter(table, "cold").token, heroes=list(placement.held["cold"][:3])
    )
    check(table, "revealed")
    assert public_state(table).mode_view.lineup["cold"][0] is not None
