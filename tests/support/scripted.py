"""One game played through the real service functions, the same way every time.

Everything random is pinned (the table code, tokens, identities, hero candidates), so two runs
that differ only in the identities they are given make the same public moves. The secrecy tests
replay it with hidden identities permuted (tests/read/test_secrecy_permuted.py), measure every private frame's
size at every version (tests/read/test_secrets_sizes.py) and check that a private frame goes to a seat
exactly when its own state changed (tests/live/test_secrets_frames.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from companion import actions
from companion.actions import handover as handover_actions
from companion.actions import table as table_actions
from companion.models import Handover, Seat, Table
from companion.rules import modes
from companion.rules.heroes import LORD_HERO_IDS, STANDARD_HEROES, candidates_per_player
from companion.rules.identities import Identity, IdentityOptions, distribution

SIMA_YI = "WEI002"
# The lord's seat (in play order) in every scripted game.
LORD_AT = 1


def identities_for(players: int, options: IdentityOptions | None = None) -> list[str]:
    """A deal in seat order: the lord at LORD_AT, then the other identities in a fixed order."""
    counts = distribution(players, options or IdentityOptions())
    rest = [
        ident.value
        for ident in (Identity.LOYALIST, Identity.REBEL, Identity.RENEGADE)
        for _ in range(counts.get(ident, 0))
    ]
    return [*rest[:LORD_AT], "lord", *rest[LORD_AT:]]


def pin(monkeypatch: pytest.MonkeyPatch, identities: list[str]) -> Callable[[list[str]], None]:
    """Make the next table's code, tokens, identities and hero candidates fixed. Returns a
    function that starts the sequences over with the given identities (call it before each run
    of the same game)."""
    state: dict = {"tokens": itertools.count(), "identities": list(identities), "deals": 0}

    def reset(new: list[str]) -> None:
        state["tokens"] = itertools.count()
        state["deals"] = 0
        state["identities"] = list(new)

    def token() -> str:
        return f"tok-{next(state['tokens']):028d}"

    for model, name in ((Seat, "token"), (Table, "host_token"), (Handover, "claim_token")):
        monkeypatch.setattr(model._meta.get_field(name), "_get_default", token)
    monkeypatch.setattr(table_actions, "new_token", token)
    monkeypatch.setattr(handover_actions, "new_token", token)
    monkeypatch.setattr(table_actions, "new_code", lambda: "KQWXY")

    # The identity game's deal and hero offers are pinned on the mode itself (the registry's
    # instance), which the actions ask.
    mode = modes.get("identity")

    def deal(count: int, options: object = None, **_: object) -> list[Identity]:
        # The first deal is the given one turned by a seat, so a re-deal changes identities.
        dealt = list(state["identities"])
        assert count == len(dealt)
        state["deals"] += 1
        if state["deals"] == 1:
            dealt = dealt[1:] + dealt[:1]
        return [Identity(i) for i in dealt]

    monkeypatch.setattr(mode, "deal", deal)

    def lord_candidates(rng: object = None) -> list[str]:
        state["deals"] += 1
        extra = ["WEI003", "SHU003"] if state["deals"] % 2 else ["WEI004", "SHU004"]
        return [LORD_HERO_IDS[1], LORD_HERO_IDS[0], LORD_HERO_IDS[2], *extra]

    def deal_candidates(
        *, taken: set[str], player_count: int, count: int, rng: object = None
    ) -> list[list[str]]:
        # 司马懿 first, so that the first non-lord seat can pick him (鬼才 replaces judgements).
        pool = [h.id for h in STANDARD_HEROES if h.id not in taken and h.id not in LORD_HERO_IDS]
        pool.remove(SIMA_YI)
        # Every deal offers other heroes (司马懿 stays first).
        state["deals"] += 1
        shift = state["deals"] * 3 % len(pool)
        pool = [SIMA_YI, *pool[shift:], *pool[:shift]]
        per = candidates_per_player(player_count)
        return [pool[i * per : (i + 1) * per] for i in range(count)]

    monkeypatch.setattr(mode, "leader_offer", lord_candidates)
    monkeypatch.setattr(mode, "offers", deal_candidates)
    return reset


@dataclass
class Played:
    """A step just played: its label and the change it committed."""

    label: str
    change: object


def _seat(table: Table, position: int) -> Seat:
    return Seat.objects.get(table=table, position=position)


def _token(table: Table, position: int) -> str:
    return _seat(table, position).token


def _host(table: Table) -> str:
    table.refresh_from_db()
    return table.host_token


def play(players: int, *, until_death: bool = True, finish: bool = False) -> Iterator[Played]:
    """Play the scripted game; yields after every committed change.

    The lord sits at LORD_AT; the seats after the lord are the first to act. The game stops
    before any death that would reveal a seat other than `victim_position(players)`.
    """
    table = actions.table_create()
    yield Played("create", None)
    for i in range(players):
        actions.seat_join(code=table.code, name=f"P{i + 1}", device=f"device-{i}")
        yield Played(f"join {i}", None)
    host = _host(table)

    def step(label: str, fn: Callable[[], object]) -> Played:
        return Played(label, fn())

    yield step(
        "options", lambda: actions.table_set_options(token=host, options={"maneuvering": True})
    )
    yield step("lock", lambda: actions.table_lock(token=host, locked=True))
    yield step("unlock", lambda: actions.table_lock(token=host, locked=False))
    yield step("deal", lambda: actions.identities_deal(token=host))
    yield step("redeal", lambda: actions.identities_deal(token=host, confirm=True))
    yield step("start", lambda: actions.game_start(token=host))
    yield step("redeal heroes", lambda: actions.heroes_redeal(token=host, confirm=True))
    lord = LORD_AT
    yield step(
        "lord picks",
        lambda: actions.hero_pick(
            token=_token(table, lord), hero_id=_seat(table, lord).hero_candidates[0]
        ),
    )
    others = [p for p in range(players) if p != lord]
    first = others[0]
    yield step(
        "first picks",
        lambda: actions.hero_pick(
            token=_token(table, first), hero_id=_seat(table, first).hero_candidates[1]
        ),
    )
    yield step(
        "first picks again",
        lambda: actions.hero_pick(
            token=_token(table, first), hero_id=_seat(table, first).hero_candidates[0]
        ),
    )
    yield step("host redeals", lambda: actions.heroes_redeal(token=host, confirm=True))
    for p in others:
        yield step(
            f"pick {p}",
            lambda p=p: actions.hero_pick(
                token=_token(table, p), hero_id=_seat(table, p).hero_candidates[0]
            ),
        )
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING, table.status
    # first holds 司马懿 (鬼才). The lord's turn: start -> judgement -> draw -> play.
    nxt = (lord + 1) % players
    lt = lambda: _token(table, lord)  # noqa: E731
    for n in range(3):
        yield step(f"lord phase {n}", lambda: actions.turn_advance(token=lt()))
        if n == 0:
            yield step("lord undoes a phase", lambda: actions.event_undo(token=lt()))
            yield step("lord phase again", lambda: actions.turn_advance(token=lt()))
    yield step(
        "lord equips",
        lambda: actions.equipment_set(token=lt(), seat_id=_seat(table, lord).pk, name="诸葛连弩"),
    )
    yield step("lord undoes equip", lambda: actions.event_undo(token=lt()))
    yield step(
        "lord equips again",
        lambda: actions.equipment_set(token=lt(), seat_id=_seat(table, lord).pk, name="诸葛连弩"),
    )
    yield step(
        "indulgence",
        lambda: actions.trick_place(token=lt(), seat_id=_seat(table, nxt).pk, name="乐不思蜀"),
    )
    yield step(
        "lightning",
        lambda: actions.trick_place(token=lt(), seat_id=_seat(table, lord).pk, name="闪电"),
    )
    yield step(
        "lord hits",
        lambda: actions.seat_change_hp(
            token=_token(table, nxt),
            seat_id=_seat(table, nxt).pk,
            delta=-1,
            source=_seat(table, lord).pk,
        ),
    )
    yield step(
        "fire",
        lambda: actions.seat_change_hp(
            token=_token(table, nxt),
            seat_id=_seat(table, nxt).pk,
            delta=-1,
            source=_seat(table, lord).pk,
            damage_type="fire",
        ),
    )
    yield step(
        "recover",
        lambda: actions.seat_change_hp(
            token=_token(table, nxt), seat_id=_seat(table, nxt).pk, delta=1
        ),
    )
    yield step(
        "loss",
        lambda: actions.seat_change_hp(
            token=_token(table, nxt), seat_id=_seat(table, nxt).pk, delta=-1, loss=True
        ),
    )
    yield step(
        "max hp",
        lambda: actions.seat_set_max_hp(token=host, seat_id=_seat(table, nxt).pk, max_hp_value=6),
    )
    yield step("undo", lambda: actions.event_undo(token=_token(table, nxt)))
    yield step(
        "referee on", lambda: actions.table_set_options(token=host, options={"referee_mode": True})
    )
    yield step(
        "handover asked",
        lambda: actions.seat_handover(token=host, seat_id=_seat(table, nxt).pk)[0],
    )
    yield step(
        "handover refused",
        lambda: actions.handover_cancel(
            token=_token(table, (nxt + 1) % players), seat_id=_seat(table, nxt).pk
        ),
    )
    yield step("lord ends", lambda: actions.turn_end(token=lt()))
    # nxt's turn: judge 乐不思蜀, 司马懿 replaces the card, then confirm.
    nt = lambda: _token(table, nxt)  # noqa: E731
    yield step("next to judgement", lambda: actions.turn_advance(token=nt()))
    yield step(
        "flip",
        lambda: actions.judgement_flip(
            token=nt(), check="indulgence", suit="spade", rank="5", trick="乐不思蜀"
        ),
    )
    yield step(
        "guicai",
        lambda: actions.judgement_replace(token=_token(table, first), suit="heart", rank="3"),
    )
    yield step("confirm", lambda: actions.judgement_confirm(token=_token(table, first)))
    yield step("next ends", lambda: actions.turn_end(token=nt()))
    # The others' turns, one tap each, back to the lord.
    p = (nxt + 1) % players
    while p != lord:
        yield step(f"turn {p}", lambda p=p: actions.turn_end(token=_token(table, p)))
        p = (p + 1) % players
    # The lord's judgement: 无懈可击 moves 闪电 on.
    yield step("lord to judgement", lambda: actions.turn_advance(token=lt()))
    yield step(
        "nullify",
        lambda: actions.trick_nullify(token=lt(), seat_id=_seat(table, lord).pk, name="闪电"),
    )
    yield step("lord ends again", lambda: actions.turn_end(token=lt()))
    # 闪电 strikes nxt in its judgement phase (3 damage, dying), a 桃 saves it.
    yield step("next to judgement again", lambda: actions.turn_advance(token=nt()))
    yield step(
        "struck",
        lambda: actions.judgement_flip(
            token=nt(), check="lightning", suit="spade", rank="5", trick="闪电"
        ),
    )
    yield step(
        "replaced again",
        lambda: actions.judgement_replace(token=_token(table, first), suit="spade", rank="7"),
    )
    yield step("struck confirmed", lambda: actions.judgement_confirm(token=_token(table, first)))
    nxt_seat = _seat(table, nxt)
    while nxt_seat.dying:
        yield step(
            "peach",
            lambda: actions.seat_rescue(token=lt(), seat_id=nxt_seat.pk, by=_seat(table, lord).pk),
        )
        nxt_seat.refresh_from_db()
    if not until_death:
        return
    # A seat whose identity is the same in every run dies by the lord's hand.
    victim = victim_position(players)
    vs = _seat(table, victim)
    yield step(
        "victim dying",
        lambda: actions.seat_change_hp(
            token=vs.token, seat_id=vs.pk, delta=-vs.hp, source=_seat(table, lord).pk
        ),
    )
    yield step("victim dies", lambda: actions.seat_die(token=_token(table, victim), seat_id=vs.pk))
    yield step("next ends once more", lambda: actions.turn_end(token=nt()))
    yield step(
        "host corrects",
        lambda: actions.turn_set(token=host, seat_id=_seat(table, lord).pk, phase="play"),
    )
    yield step("host passes", lambda: actions.host_pass(token=host, seat_id=_seat(table, lord).pk))
    if not finish:
        return
    # The lord dies (every identity is revealed), then a new game with the same players.
    ls = _seat(table, lord)
    yield step(
        "lord dying",
        lambda: actions.seat_change_hp(
            token=lt(), seat_id=ls.pk, delta=-ls.hp, source=_seat(table, first).pk
        ),
    )
    yield step("lord dies", lambda: actions.seat_die(token=lt(), seat_id=ls.pk))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    yield step("new game", lambda: actions.identities_deal(token=lt()))
    yield step("new game starts", lambda: actions.game_start(token=lt()))


def victim_position(players: int) -> int:
    """The seat that dies in the scripted game: the last one."""
    return players - 1
