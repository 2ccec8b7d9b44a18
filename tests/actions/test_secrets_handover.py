"""The host console cannot open a seat by handing it to "another phone".

The host console sits on the shared display, so its address is as good as public. A handover it
asks for gives a one-time claim link, never the seat's token; while the seat holds a secret the
move waits for the seat's own phone to agree, or for every screen to have announced it for the
delay with nobody objecting (docs/handover.md).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from companion import actions
from companion.models import Event, Handover, Seat, Table
from tests.read.test_secrecy_screens import hero_leaks, leaks
from tests.support.factories import make_table
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db

CLAIM_RE = re.compile(r"/n/([A-Za-z0-9_-]+)/")


def fresh(seat: Seat) -> Seat:
    return Seat.objects.get(pk=seat.pk)


def request_move(client: Client, table: Table, seat: Seat, action_id: str = "") -> str:
    """The host console's handover tap; returns the dialog's claim token."""
    data = {"seat": seat.pk, **({"action_id": action_id} if action_id else {})}
    response = htmx_post(client, f"/h/{table.host_token}/act/handover", data)
    assert response.status_code == 200, response.content[:300]
    found = CLAIM_RE.search(response.content.decode())
    assert found, response.content[:500]
    return found.group(1)


def claim(client: Client, claim_token: str) -> tuple[int, str, str]:
    """The new phone's claim: (status, seat token given or "", body)."""
    response = htmx_post(client, f"/n/{claim_token}/")
    redirect = response.get("HX-Redirect", "")
    found = re.fullmatch(r"/p/([A-Za-z0-9_-]+)/", redirect)
    return response.status_code, found.group(1) if found else "", response.content.decode()


def secrets_of(table: Table) -> tuple[set[str], set[str]]:
    """The identities and hero ids the host console may not see now."""
    table.refresh_from_db()
    seats = list(Seat.objects.filter(table=table))
    shown = {s.hero for s in seats if s.hero}
    identities = {s.identity for s in seats if s.alive and s.identity not in ("", "lord")}
    heroes = {h for s in seats for h in (*s.hero_candidates, s.hero_pick) if h} - shown
    return identities, heroes


def to_stage(stage: str) -> tuple[Table, list[Seat]]:
    table, seats = make_table(5, deal=True)
    if stage == "dealt":
        return table, seats
    actions.game_start(token=table.host_token)
    if stage == "lord choosing":
        return table, [fresh(s) for s in seats]
    lord = Seat.objects.get(table=table, identity="lord")
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    others = list(Seat.objects.filter(table=table).exclude(identity="lord"))
    actions.hero_pick(token=others[0].token, hero_id=others[0].hero_candidates[1])
    if stage == "picking":
        return table, [fresh(s) for s in seats]
    for other in others[1:]:
        actions.hero_pick(token=other.token, hero_id=other.hero_candidates[0])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table, [fresh(s) for s in seats]


@pytest.mark.parametrize("stage", ["dealt", "lord choosing", "picking", "playing"])
def test_host_console_alone_never_gets_a_seats_secrets(stage: str) -> None:
    table, seats = to_stage(stage)
    identities, heroes = secrets_of(table)
    assert identities and (heroes or stage in ("dealt", "playing"))
    console = csrf_client()
    seen: list[str] = []
    tokens_before = {s.pk: s.token for s in seats}
    for n, seat in enumerate(seats):
        secret = actions.handover.has_secret(seat, table)
        if not secret:
            continue
        action_id = f"console-move-{n:04d}"
        claim_token = request_move(console, table, seat, action_id)
        assert claim_token != seat.token
        # Everything the console can do with it: open the link, claim it (again and again),
        # replay the tap, agree in the seat's place, open its own pages.
        for _ in range(3):
            status, given, body = claim(console, claim_token)
            assert status == 200 and not given
            seen.append(body)
        seen.append(console.get(f"/n/{claim_token}/").content.decode())
        plain = console.post(
            f"/n/{claim_token}/", HTTP_X_CSRFTOKEN=console.cookies["sgs_csrf"].value
        )
        assert plain.status_code == 200 and "Location" not in plain
        seen.append(plain.content.decode())
        replay = htmx_post(
            console,
            f"/h/{table.host_token}/act/handover",
            {"seat": seat.pk, "action_id": action_id},
        )
        seen.append(replay.content.decode())
        assert CLAIM_RE.search(replay.content.decode()).group(1) == claim_token
        refused = htmx_post(console, f"/h/{table.host_token}/act/handoverok")
        assert refused.status_code == 403
        seen.append(console.get(f"/h/{table.host_token}/").content.decode())
        assert Handover.objects.get(claim_token=claim_token).state == Handover.State.PENDING
    assert seen
    # The seats kept their tokens (their phones work) and no seat token reached the console.
    for seat in seats:
        assert fresh(seat).token == tokens_before[seat.pk]
    for body in seen:
        for token in tokens_before.values():
            assert token not in body
        assert not leaks(body, identities), leaks(body, identities)
        assert not hero_leaks(body, heroes), hero_leaks(body, heroes)
    # The detector sees the secrets where they are.
    owner = next(s for s in seats if s.identity not in ("lord", ""))
    page = Client().get(f"/p/{owner.token}/").content.decode()
    assert leaks(page, {owner.identity})


def test_the_seats_own_phone_agrees_and_the_new_phone_gets_the_seat() -> None:
    table, seats = make_table(4, deal=True)
    seat = next(s for s in seats if s.identity != "lord")
    claim_token = request_move(csrf_client(), table, seat)
    # Until it agrees, the old phone keeps working and sees the move with its buttons.
    old_page = Client().get(f"/p/{seat.token}/").content.decode()
    assert f'data-handover-seat="{seat.pk}"' in old_page and "act/handoverok" in old_page
    new_phone = csrf_client()
    assert claim(new_phone, claim_token)[1] == ""
    agreed = htmx_post(csrf_client(), f"/p/{seat.token}/act/handoverok")
    assert agreed.status_code == 204
    assert Client().get(f"/p/{seat.token}/").status_code == 404
    status, given, _body = claim(new_phone, claim_token)
    assert status == 200 and given and given == fresh(seat).token
    page = new_phone.get(f"/p/{given}/").content.decode()
    assert leaks(page, {seat.identity})
    # The link is spent: nobody else gets the seat with it.
    again = claim(csrf_client(), claim_token)
    assert again[1] == "" and 'data-state="claimed"' in again[2]
    kinds = list(Event.objects.filter(table=table).values_list("kind", "public"))
    assert ("seat_handover_requested", {"seat": seat.pk, "name": seat.name, "seconds": 60}) in kinds
    moved = [p for k, p in kinds if k == "seat_handed_over"]
    assert moved == [{"seat": seat.pk, "name": seat.name, "by_host": True}]


def test_a_move_is_announced_everywhere_and_happens_after_the_delay(settings) -> None:
    settings.HANDOVER_DELAY_SECONDS = 30
    table, seats = make_table(5, deal=True)
    seat = next(s for s in seats if s.identity != "lord")
    claim_token = request_move(csrf_client(), table, seat)
    handover = Handover.objects.get(claim_token=claim_token)
    assert 29 <= (handover.not_before - timezone.now()).total_seconds() <= 31
    # Every phone and the display say so, in both languages.
    # (English first: the test client leaves the last request's language active.)
    for lang, words in (("en", "is moving to a new phone, by the host"), ("zh-hans", "新手机")):
        for url in [f"/p/{s.token}/" for s in seats] + [f"/t/{table.code}/"]:
            client = Client()
            client.cookies["sgs_lang"] = lang
            body = client.get(url).content.decode()
            assert f'data-handover-seat="{seat.pk}"' in body and words in body, (lang, url)
    new_phone = csrf_client()
    assert claim(new_phone, claim_token)[1] == ""
    assert fresh(seat).token == seat.token
    Handover.objects.filter(pk=handover.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    status, given, _body = claim(new_phone, claim_token)
    assert given and given == fresh(seat).token != seat.token
    assert Client().get(f"/p/{seat.token}/").status_code == 404
    # The banner is gone once the seat has moved.
    assert "banner-handover" not in Client().get(f"/t/{table.code}/").content.decode()


def test_anyone_at_the_table_can_stop_a_move() -> None:
    table, seats = make_table(5, deal=True)
    seat, objector = [s for s in seats if s.identity != "lord"][:2]
    claim_token = request_move(csrf_client(), table, seat)
    stopped = htmx_post(csrf_client(), f"/p/{objector.token}/act/handoverno", {"seat": seat.pk})
    assert stopped.status_code == 204
    Handover.objects.filter(claim_token=claim_token).update(
        not_before=timezone.now() - timedelta(seconds=1)
    )
    status, given, body = claim(csrf_client(), claim_token)
    assert status == 200 and given == "" and 'data-state="cancelled"' in body
    assert fresh(seat).token == seat.token
    event = Event.objects.filter(table=table, kind="seat_handover_cancelled").get()
    assert event.public == {"seat": seat.pk, "name": seat.name, "by_name": objector.name}
    assert "banner-handover" not in Client().get(f"/t/{table.code}/").content.decode()
    # The seat's own phone can refuse too, and the host can call off its own request.
    for token in (seat.token, table.host_token):
        claim_token = request_move(csrf_client(), table, seat)
        base = "h" if token == table.host_token else "p"
        htmx_post(csrf_client(), f"/{base}/{token}/act/handoverno", {"seat": seat.pk})
        assert Handover.objects.get(claim_token=claim_token).state == Handover.State.CANCELLED


def test_a_link_made_before_the_deal_waits_once_the_seat_holds_a_secret() -> None:
    table, seats = make_table(4)
    # In the lobby nothing is secret: each move happens at once, the old links stop.
    links = {seat.pk: request_move(csrf_client(), table, seat) for seat in seats}
    for seat in seats:
        assert Handover.objects.get(claim_token=links[seat.pk]).state == Handover.State.READY
        assert Client().get(f"/p/{seat.token}/").status_code == 404
    actions.identities_deal(token=table.host_token)
    for seat in map(fresh, seats):
        status, given, body = claim(csrf_client(), links[seat.pk])
        if seat.identity == "lord":
            # The lord's identity is public: nothing to wait for.
            assert given == seat.token
            continue
        # Claimed only now (by the console, say): the table is told first, and the seat waits.
        assert given == "" and 'data-state="pending"' in body
        assert Event.objects.filter(
            table=table, kind="seat_handover_requested", subject_seat=seat
        ).exists()
        Handover.objects.filter(claim_token=links[seat.pk]).update(
            not_before=timezone.now() - timedelta(seconds=1)
        )
        assert claim(csrf_client(), links[seat.pk])[1] == fresh(seat).token


def test_a_lobby_move_is_claimed_at_once() -> None:
    table, seats = make_table(4)
    claim_token = request_move(csrf_client(), table, seats[1])
    phone = csrf_client()
    page = phone.get(f"/n/{claim_token}/").content.decode()
    assert 'data-state="ready"' in page and seats[1].name in page
    # Without script: a plain form post, answered with the seat's page.
    response = phone.post(f"/n/{claim_token}/", HTTP_X_CSRFTOKEN=phone.cookies["sgs_csrf"].value)
    assert response.status_code == 303
    assert response["Location"] == f"/p/{fresh(seats[1]).token}/"
    assert phone.get(response["Location"]).status_code == 200


def test_a_replayed_tap_gives_no_other_link() -> None:
    table, seats = make_table(4, deal=True)
    seat = next(s for s in seats if s.identity != "lord")
    # The seat moves itself; its tap's id is public (data-action on every screen).
    own = htmx_post(
        csrf_client(),
        f"/p/{seat.token}/act/handover",
        {"seat": seat.pk, "action_id": "own-move-01"},
    )
    own_claim = CLAIM_RE.search(own.content.decode()).group(1)
    replay = htmx_post(
        csrf_client(),
        f"/h/{table.host_token}/act/handover",
        {"seat": seat.pk, "action_id": "own-move-01"},
    )
    assert replay.status_code == 409 and own_claim not in replay.content.decode()
    assert "/n/" not in replay.content.decode()


def test_the_own_phone_moves_at_once() -> None:
    table, seats = make_table(4, deal=True)
    seat = next(s for s in seats if s.identity != "lord")
    response = htmx_post(csrf_client(), f"/p/{seat.token}/act/handover", {"seat": seat.pk})
    body = response.content.decode()
    claim_token = CLAIM_RE.search(body).group(1)
    assert seat.token not in body and '<svg class="qr"' in body
    assert Client().get(f"/p/{seat.token}/").status_code == 404
    given = claim(csrf_client(), claim_token)[1]
    assert given == fresh(seat).token
    moved = Event.objects.get(table=table, kind="seat_handed_over")
    assert moved.public == {"seat": seat.pk, "name": seat.name}


def test_unknown_claim_links_answer_like_unknown_tokens() -> None:
    assert Client().get("/n/nosuchlink/").status_code == 404
    assert htmx_post(csrf_client(), "/n/nosuchlink/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_agreeing_over_the_socket_closes_the_old_phone() -> None:
    from tests.live.test_consumers import open_socket, receive_until

    table, seats = await database_sync_to_async(make_table)(4, deal=True)
    seat = next(s for s in seats if s.identity != "lord")
    other = next(s for s in seats if s.pk != seat.pk)
    old, _ = await open_socket(f"/ws/{seat.token}/")
    watcher, _ = await open_socket(f"/ws/{other.token}/", lang="en")
    await database_sync_to_async(actions.seat_handover)(token=table.host_token, seat_id=seat.pk)
    banner = await receive_until(watcher, lambda f: "banner-handover" in f)
    assert f'data-handover-seat="{seat.pk}"' in banner
    assert "is moving to a new phone, by the host" in banner
    await old.send_json_to(
        {"type": "act", "name": "handoverok", "fields": {}, "action_id": "agree0001"}
    )
    code = None
    for _ in range(20):
        output = await old.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            code = output["code"]
            break
    assert code == 4404
    moved = await receive_until(watcher, lambda f: "moved to a new phone, by the host" in f)
    assert "banner-handover" not in moved
    await watcher.disconnect()


def test_claim_answers_carry_the_private_headers() -> None:
    table, seats = make_table(4)
    claim_token = request_move(csrf_client(), table, seats[0])
    phone = csrf_client()
    page = phone.get(f"/n/{claim_token}/")
    taken = phone.post(f"/n/{claim_token}/", HTTP_X_CSRFTOKEN=phone.cookies["sgs_csrf"].value)
    assert taken.status_code == 303 and taken["Location"].startswith("/p/")
    for response in (page, taken):
        assert response["Cache-Control"] == "no-store, private"
    # The claim page's form posts to its own address (same-origin); the answer that leads to the
    # new seat's token sends no referrer at all, like every response carrying a seat token.
    assert page["Referrer-Policy"] == "same-origin"
    assert taken["Referrer-Policy"] == "no-referrer"


def test_guessing_claim_links_is_throttled(settings) -> None:
    settings.BAD_TOKEN_LIMIT_PER_MINUTE = 5
    client = Client()
    statuses = [client.get(f"/n/guess{n:04d}/").status_code for n in range(8)]
    assert statuses[:5] == [404] * 5 and statuses[-1] == 429
