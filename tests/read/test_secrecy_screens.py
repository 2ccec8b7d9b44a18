"""Nobody sees another living player's identity early (docs/threats.md 1 and 2).

For dealt 4-, 6- and 10-seat tables, every screen is connected, every action type runs, and
everything each phone can receive is collected: websocket frames, channel-layer messages, and
every page and fragment with and without HX-Request. Each is checked against the identities
that were secret at the version it shows. Living non-lord seats get identical markup, and the
game over reveals everyone. (The public screens' independence of hidden identities is in
test_secrecy_permuted.py.)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from companion import actions
from companion.games.maneuvering import actions as maneuver
from companion.live import broadcast
from companion.models import Seat, Table
from companion.rules.heroes import hero_by_id
from tests.live.test_consumers import drain, drain_all, open_socket
from tests.support.factories import make_table

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FORMS = {
    "loyalist": ["loyalist", "Loyalist", "忠臣", ">忠<", ">Loy<"],
    "rebel": ["rebel", "Rebel", "反贼", ">反<", ">Reb<"],
    "renegade": ["renegade", "Renegade", "内奸", ">内<", ">Ren<"],
}


def leaks(text: str, forbidden: set[str]) -> list[str]:
    """Every form of a forbidden identity found in a text.

    A dead seat's own entry shows its identity by right: it is cut out first, so a dead rebel's
    label cannot hide a living rebel's.
    """
    text = re.sub(r'<li class="seat dead[^"]*".*?</li>', "", text, flags=re.S)
    text = re.sub(
        r'data-announce="[^"]*"( data-announce-version="\d+" data-announce-kind="(died|game_over)")',
        r"\1",
        text,
    )
    # History lines about a death name the dead player's identity, public by then.
    text = re.sub(r'<li class="[^"]*\breveal\b[^"]*">.*?</li>', "", text, flags=re.S)
    # The public list of the variants on names an option ("Rebels know each other"),
    # on every screen alike: no one's identity (tests/games/house/test_rebels_know.py
    # compares screens).
    text = re.sub(r'<span class="variants-on".*?</span></span>', "", text, flags=re.S)
    text = re.sub(r'<details class="rules-panel.*?</details>', "", text, flags=re.S)
    text = re.sub(r'<p class="game-variants.*?</p>', "", text, flags=re.S)
    return [form for ident in forbidden for form in FORMS[ident] if form in text]


def frame_version(text: str) -> int | None:
    found = [int(v) for v in re.findall(r'data-version="(\d+)"', text)]
    return max(found) if found else None


class Timeline:
    """What was secret at each version of the table: identities, candidates and picks."""

    def __init__(self) -> None:
        self.points: list[tuple[int, dict[int, tuple]]] = []

    def record(self, table: Table) -> None:
        table.refresh_from_db()
        seats = {
            s.pk: (s.identity, s.alive, tuple(s.hero_candidates), s.hero_pick, s.hero)
            for s in Seat.objects.filter(table=table).order_by("pk")
        }
        self.points.append((table.version, seats))

    def at(self, version: int) -> dict[int, tuple]:
        current: dict[int, tuple] = {}
        for v, seats in self.points:
            if v <= version:
                current = seats
        return current

    def forbidden(self, version: int, viewer: int | None) -> set[str]:
        seats = self.at(version)
        mine = seats[viewer][0] if viewer in seats else ""
        secret = {
            row[0]
            for pk, row in seats.items()
            if pk != viewer and row[1] and row[0] and row[0] != "lord"
        }
        return secret - {mine}

    def forbidden_heroes(self, version: int, viewer: int | None) -> set[str]:
        """Other seats' candidates and unrevealed picks, as hero ids."""
        seats = self.at(version)
        public = {row[4] for row in seats.values() if row[4]}
        own = set(seats[viewer][2]) | {seats[viewer][3]} if viewer in seats else set()
        secret = {
            hero for pk, row in seats.items() if pk != viewer for hero in (*row[2], row[3]) if hero
        }
        return secret - public - own


def hero_leaks(text: str, heroes: set[str]) -> list[str]:
    """Every form of a secret hero (id, Chinese name, English name) found in a text."""
    found = []
    for hero_id in heroes:
        hero = hero_by_id(hero_id)
        found += [f for f in (hero_id, hero.name_zh, hero.name_en) if f in text]
    return found


def pick_step(seat_pk: int, index: int = 0) -> Callable[[], object]:
    def step() -> object:
        seat = Seat.objects.get(pk=seat_pk)
        return actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[index])

    return step


async def collect(
    sockets: dict[int | None, tuple[WebsocketCommunicator, list[str]]],
    console: WebsocketCommunicator | None = None,
    console_frames: list[str] | None = None,
) -> None:
    """What every socket received since the last call, each socket drained until it is quiet
    (all at once: one wait per change, not one per screen)."""
    comms = [comm for comm, _frames in sockets.values()]
    if console is not None:
        comms.append(console)
    got = await drain_all(comms, timeout=0.1)
    for (_comm, frames), more in zip(sockets.values(), got, strict=False):
        frames.extend(more)
    if console is not None and console_frames is not None:
        console_frames.extend(got[-1])


def viewers_of(seats: dict[int, Seat], host_pk: int, part: tuple[int, int]) -> dict[int, Seat]:
    """The phones whose pages one part of a test fetches: the host's in the first part, the
    others sorted by identity, then position, and dealt out to the parts in turn. The parts play
    different deals, but every deal has as many seats of each identity: so in every run the
    host's phone and a phone of each identity are in some part, and each part has a phone of
    every identity two or more seats besides the host's hold."""
    index, parts = part
    host = seats[host_pk]
    rest = sorted(
        (s for s in seats.values() if s.pk != host_pk), key=lambda s: (s.identity, s.position)
    )
    return {s.pk: s for i, s in enumerate([host, *rest]) if i % parts == index}


def lord_of(table: Table) -> Seat:
    return Seat.objects.get(table=table, identity="lord")


@pytest.mark.parametrize(
    ("players", "options", "part"),
    # With rebels knowing each other, a rebel's phone shows the other rebels and no
    # other screen learns anything more (also tests/games/house/test_rebels_know.py).
    # The 10-seat table's pages (every dialog of every seat, from every phone: most of this
    # file's time) are fetched in two halves by two tests that play the same moves: test
    # processes share them out, instead of one waiting on a single long test (`viewers_of`).
    [
        (4, {}, (0, 1)),
        (6, {}, (0, 1)),
        (10, {}, (0, 2)),
        (10, {}, (1, 2)),
        (6, {"rebels_know_each_other": True}, (0, 1)),
    ],
    ids=["4", "6", "10-half-1", "10-half-2", "6-rebels-know"],
)
async def test_no_screen_ever_holds_another_living_players_identity(
    players: int,
    options: dict[str, bool],
    part: tuple[int, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[str, dict]] = []
    real_send = broadcast._send

    def spy(group: str, message: dict) -> None:
        sent.append((group, message))
        real_send(group, message)

    monkeypatch.setattr(broadcast, "_send", spy)
    timeline = Timeline()
    table, seats = await database_sync_to_async(make_table)(players, **options)
    record = database_sync_to_async(timeline.record)
    await record(table)

    sockets = {}
    for i, seat in enumerate(seats):
        comm, first = await open_socket(f"/ws/{seat.token}/", lang="en" if i % 2 else "zh-hans")
        sockets[seat.pk] = (comm, [first])
    display, first = await open_socket(f"/ws/t/{table.code}/")
    sockets[None] = (display, [first])
    console, first = await open_socket(f"/ws/{table.host_token}/", lang="en")
    console_frames = [first]

    host = table.host_token
    lord = await database_sync_to_async(lambda: None)()
    steps: list[Callable[[], object]] = [
        lambda: actions.table_set_options(token=host, options={"first_game_mode": True}),
        lambda: actions.table_set_options(token=host, options={"first_game_mode": False}),
        # 军争: its frames and pages are covered below.
        lambda: actions.table_set_options(token=host, options={"maneuvering": True}),
        lambda: actions.table_lock(token=host, locked=True),
        lambda: actions.table_lock(token=host, locked=False),
        lambda: actions.seat_move(token=host, seat_id=seats[-1].pk, position=0),
        lambda: actions.identities_deal(token=host),
        lambda: actions.identities_deal(token=host, confirm=True),
        lambda: actions.seat_move(token=host, seat_id=seats[0].pk, position=1),
        lambda: actions.game_start(token=host),
        lambda: actions.hero_pick(
            token=lord_of(table).token, hero_id=lord_of(table).hero_candidates[0]
        ),
    ]
    for step in steps:
        await database_sync_to_async(step)()
        await record(table)
        await collect(sockets, console, console_frames)
    lord = await database_sync_to_async(lord_of)(table)
    others = [s for s in seats if s.pk != lord.pk]
    # Everyone else picks; the first changes their mind; the last pick reveals all heroes.
    steps = [pick_step(others[0].pk, 0), pick_step(others[0].pk, 1)]
    steps += [pick_step(s.pk, -1) for s in others[1:]]
    victim = others[0]
    steps += [
        lambda: actions.seat_change_hp(
            token=victim.token, seat_id=victim.pk, delta=-1, source=lord.pk
        ),
        lambda: actions.seat_change_hp(token=victim.token, seat_id=victim.pk, delta=1),
        lambda: actions.seat_set_max_hp(token=host, seat_id=victim.pk, max_hp_value=5),
    ]
    # 军争: chains, a damage along them, its undo, a reshuffle, a 酒.
    chained = [others[0], others[-1]]
    steps += [
        lambda: maneuver.seat_set_chained(token=host, seat_id=chained[0].pk, chained=True),
        lambda: maneuver.seat_set_chained(token=host, seat_id=chained[1].pk, chained=True),
        lambda: maneuver.damage_resolve(
            token=host, target=chained[0].pk, card="雷杀", source=lord.pk
        ),
        lambda: actions.event_undo(token=host, version=Table.objects.get(pk=table.pk).version),
        lambda: actions.deck_reshuffle(token=host),
        lambda: actions.turn_set(token=host, seat_id=lord.pk, phase="play"),
        lambda: maneuver.seat_drink_wine(token=lord.token, seat_id=lord.pk),
    ]
    for step in steps:
        await database_sync_to_async(step)()
        await record(table)
        await collect(sockets, console, console_frames)

    # The host role moves to a seat: the console is closed, that seat's phone gets host frames.
    new_host = seats[1]
    await database_sync_to_async(actions.host_pass)(token=host, seat_id=new_host.pk)
    await record(table)
    comm, frames = sockets[new_host.pk]
    frames.extend(await drain(comm, timeout=0.1))
    comm, first = await open_socket(f"/ws/{new_host.token}/", lang="en")
    sockets[new_host.pk] = (comm, [*frames, first])
    await collect(sockets)

    # HTTP: every page and fragment each phone may fetch, plus refused taps (this part's
    # phones: every seat's, over the parts of one table size).
    fresh = {s.pk: await database_sync_to_async(Seat.objects.get)(pk=s.pk) for s in seats}
    viewers = viewers_of(fresh, new_host.pk, part)
    assert viewers
    pages: dict[int | None, list[str]] = defaultdict(list)

    def fetch_all() -> None:
        for pk, seat in viewers.items():
            client = Client(enforce_csrf_checks=False)
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                for lang in ("zh-hans", "en"):
                    client.cookies["sgs_lang"] = lang
                    pages[pk].append(client.get(f"/p/{seat.token}/", **headers).content.decode())
                    pages[pk].append(client.get(f"/t/{table.code}/", **headers).content.decode())
                    pages[pk].append(client.get(f"/j/{table.code}/", **headers).content.decode())
                    pages[pk].append(client.get("/", **headers).content.decode())
                    # Dialogs and the session pages a phone can open, for every seat.
                    for other in fresh.values():
                        for path in ("seat", "equip", "judge", "damage"):
                            url = f"/p/{seat.token}/{path}/{other.pk}"
                            pages[pk].append(client.get(url, **headers).content.decode())
                        # 军争: the damage dialog's source step and its preview.
                        for query in ("?card=雷杀", f"?card=雷杀&source={seats[0].pk}"):
                            url = f"/p/{seat.token}/damage/{other.pk}{query}"
                            pages[pk].append(client.get(url, **headers).content.decode())
                        display = f"/t/{table.code}/seat/{other.pk}"
                        pages[pk].append(client.get(display, **headers).content.decode())
                    for url in (f"/p/{seat.token}/session/", f"/t/{table.code}/session/"):
                        pages[pk].append(client.get(url, **headers).content.decode())
            # Refused taps answer with messages; the host's own taps would succeed, so only
            # the players' are collected here.
            names = ["deal", "start", "move", "remove", "host", "lock", "options", "nope"]
            for name in names if not seat.is_host else ["nope"]:
                answer = client.post(
                    f"/p/{seat.token}/act/{name}", {"seat": seats[0].pk}, HTTP_HX_REQUEST="true"
                )
                pages[pk].append(answer.content.decode())
        pages[None].append(Client().get(f"/t/{table.code}/").content.decode())

    await database_sync_to_async(fetch_all)()
    assert all(pages[pk] for pk in viewers)
    final = table.version + 100  # pages show the current state

    # Make sure a secret exists that could leak, and that the detector would see it.
    current = timeline.at(final)
    secrets_exist = 0
    for pk, seat in fresh.items():
        forbidden = timeline.forbidden(final, pk)
        secrets_exist += len(forbidden)
        if seat.identity not in ("lord", ""):
            own = await database_sync_to_async(
                lambda seat=seat: (
                    broadcast.render_private(seat, "zh-hans") + broadcast.render_private(seat, "en")
                )
            )()
            assert leaks(own, {seat.identity}), "the detector must see an identity when present"
    assert secrets_exist > 0
    assert any(timeline.forbidden_heroes(v, pk) for v, _seats in timeline.points for pk in fresh), (
        "candidates must have been secret at some point for this test to mean anything"
    )
    assert any(row[0] == "lord" for row in current.values())

    for pk, (_comm, frames) in sockets.items():
        assert frames, "every screen must have received something"
        for frame in frames:
            version = frame_version(frame)
            if version is None:
                continue
            found = leaks(frame, timeline.forbidden(version, pk))
            found += hero_leaks(frame, timeline.forbidden_heroes(version, pk))
            assert not found, (pk, version, found)
        for page in pages[pk]:
            found = leaks(page, timeline.forbidden(final, pk))
            found += hero_leaks(page, timeline.forbidden_heroes(final, pk))
            assert not found, (pk, found)
    for frame in console_frames:
        version = frame_version(frame)
        if version:
            assert not leaks(frame, timeline.forbidden(version, None))

    # Channel-layer messages: table and host groups carry nothing secret; a seat group only
    # its own seat's identity.
    assert sent
    for group, message in sent:
        html = message.get("html", "")
        version = message.get("version") or 0
        if group.startswith(("table.", "host.")):
            assert not leaks(html, timeline.forbidden(version, None)), group
            assert not hero_leaks(html, timeline.forbidden_heroes(version, None)), group
        else:
            seat_pk = int(group.split(".")[1])
            assert not leaks(html, timeline.forbidden(version, seat_pk)), group
            assert not hero_leaks(html, timeline.forbidden_heroes(version, seat_pk)), group

    # A death reveals that seat's identity to every screen at once.
    victim = next(s for s in fresh.values() if s.identity not in ("lord",))

    def die() -> None:
        seat = Seat.objects.get(pk=victim.pk)
        actions.seat_change_hp(token=seat.token, seat_id=seat.pk, delta=-seat.hp)
        actions.seat_die(token=seat.token, seat_id=seat.pk)

    await database_sync_to_async(die)()
    await record(table)
    label = {"loyalist": "idn-loyalist", "rebel": "idn-rebel", "renegade": "idn-renegade"}
    after = await drain_all([comm for comm, _frames in sockets.values()], timeout=0.3)
    for _pk, frames in zip(sockets, after, strict=True):
        public = [f for f in frames if 'id="table-state"' in f]
        assert public
        assert f'data-seat="{victim.pk}"' in public[-1]
        seat_html = public[-1].split(f'data-seat="{victim.pk}"')[1].split("</li>")[0]
        assert label[victim.identity] in seat_html
        for frame in frames:
            assert not leaks(frame, timeline.forbidden(frame_version(frame) or 0, _pk))
    for comm, _frames in sockets.values():
        await comm.disconnect()
    await console.disconnect()


async def test_living_non_lord_seats_have_identical_markup() -> None:
    table, seats = await database_sync_to_async(make_table)(8, deal=True)
    html = await database_sync_to_async(
        lambda: broadcast.render_public(broadcast.public_state(table), "zh-hans")
    )()
    items = re.findall(r'<li class="seat[^"]*"[^>]*>.*?</li>', html, re.S)
    assert len(items) == 8
    lord = next(s for s in seats if s.identity == "lord")
    shapes = set()
    for seat, item in zip(seats, items, strict=True):
        if seat.pk == lord.pk:
            assert "idn-lord" in item
            continue
        shape = re.sub(r'data-(seat|i)="\d+"', "", item)
        shape = re.sub(r"seat/\d+", "seat/N", shape)
        shape = re.sub(r'<span class="seat-(no|name)">[^<]*</span>', "", shape)
        shape = shape.replace(seat.name, "NAME")
        shapes.add(shape)
    assert len(shapes) == 1, shapes


async def test_game_over_reveals_everyone() -> None:
    table, seats = await database_sync_to_async(make_table)(5, deal=True)

    def finish() -> str:
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
        table.refresh_from_db()
        return broadcast.render_public(broadcast.public_state(table), "en")

    html = await database_sync_to_async(finish)()
    for seat in seats:
        assert f"idn-{seat.identity}" in html
