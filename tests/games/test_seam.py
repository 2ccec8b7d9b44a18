"""The seam between the core and a game package (companion.hooks): a game defined here, and
registered for these tests only, joins every hook (a history line on damage, a public part shown
by its own template in the page's slots, a mark on a seat, a phone's own part, a death
consequence, an undo that reverts its state), and an HP tap, a death and an undo at a table with
it on show all of it on every screen (the display, the host's page, each phone; the live frames
of the HP tap), while no file of the core names it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from channels.db import database_sync_to_async
from django.template import engines
from django.test import Client

from companion import hooks
from companion.models import Event, Seat, Table
from companion.words import history
from tests.live.test_consumers import drain_all, open_socket
from tests.live.test_socket_taps import tap_seeing
from tests.support.game import by_identity, fresh, picked_all
from tests.web.test_views import csrf_client, htmx_post

KEY = "seamprobe"
ROOT = Path(__file__).resolve().parents[2]

TEMPLATES = {
    "public_notes": (
        '<p class="seamprobe-note" data-hits="{{ state.games.seamprobe.hits }}">'
        "seamprobe hits {{ state.games.seamprobe.hits }}"
        "{% for name in state.games.seamprobe.dead %} · mourns {{ name }}{% endfor %}</p>"
    ),
    "turn_bar": '<p class="seamprobe-turn">seamprobe turn {{ t.games.seamprobe.hits }}</p>',
    "me": '<p class="seamprobe-me">seamprobe sees {{ me.games.seamprobe_me }}</p>',
}


def _state(table: Table) -> dict[str, Any]:
    raw = (table.mode_state or {}).get(KEY) or {}
    return {"hits": int(raw.get("hits", 0)), "dead": list(raw.get("dead", []))}


def _store(table: Table, state: dict[str, Any]) -> None:
    table.mode_state = {**(table.mode_state or {}), KEY: state}


class Probe(hooks.Game):
    """Counts the damage taken at the table and mourns the dead, on every screen."""

    key: ClassVar[str] = KEY
    templates: ClassVar[dict[str, str]] = {slot: f"games/{KEY}/{slot}.html" for slot in TEMPLATES}

    def is_on(self, table: Table) -> bool:
        return True

    def hp_change(self, ctx: hooks.HpChange) -> None:
        if ctx.kind != "damage":
            return
        state = _state(ctx.table)
        state["hits"] += 1
        _store(ctx.table, state)
        ctx.public["seamprobe_hit"] = state["hits"]
        ctx.after["seamprobe_hit"] = state["hits"]
        ctx.whole_page = True  # its note is on every screen
        ctx.private_seats.add(ctx.seat.pk)

    def after_death(self, ctx: hooks.Death) -> None:
        state = _state(ctx.table)
        state["dead"].append(ctx.seat.name)
        _store(ctx.table, state)
        ctx.public["seamprobe_mourns"] = ctx.seat.name
        ctx.after["seamprobe_dead"] = ctx.seat.name

    def undo(self, table: Table, event: Event) -> set[int]:
        state = _state(table)
        if "seamprobe_hit" in event.after:
            state["hits"] -= 1
        if event.after.get("seamprobe_dead") in state["dead"]:
            state["dead"].remove(event.after["seamprobe_dead"])
        if state == _state(table):
            return set()
        _store(table, state)
        return {event.subject_seat_id} if event.subject_seat_id else set()

    def public_parts(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        return {KEY: _state(table)}

    def private_parts(self, table: Table, seat: Seat, seats: list[Seat] | None) -> dict[str, Any]:
        return {"seamprobe_me": seat.name}

    def seat_marks(self, table: Table, seat: Seat) -> tuple[hooks.SeatMark, ...]:
        if seat.alive and _state(table)["hits"]:
            return (hooks.SeatMark(css="seamprobed", mark="seamprobe-mark", label="Probed"),)
        return ()


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Probe]:
    """The probe registered, its templates where the engine finds them and its history words
    in the registry, for one test; all of it gone after."""
    folder = tmp_path / "games" / KEY
    folder.mkdir(parents=True)
    for slot, text in TEMPLATES.items():
        (folder / f"{slot}.html").write_text(text)
    engine = engines["django"].engine  # type: ignore[attr-defined]
    monkeypatch.setattr(engine, "dirs", [*engine.dirs, tmp_path])
    damage, died = history.line_of("damage"), history.line_of("died")

    def damage_line(public: dict[str, Any], name: str) -> str:
        text = damage(public, name)
        if "seamprobe_hit" in public:
            text += f" · seamprobe hit {public['seamprobe_hit']}"
        return text

    def died_line(public: dict[str, Any], name: str) -> str:
        text = died(public, name)
        if public.get("seamprobe_mourns"):
            text += f" · seamprobe mourns {public['seamprobe_mourns']}"
        return text

    history.register("damage", damage_line, replace=True)
    history.register("died", died_line, replace=True)
    game = Probe()
    hooks.register(game)
    try:
        yield game
    finally:
        hooks.unregister(KEY)
        history.register("damage", damage, replace=True)
        history.register("died", died, replace=True)


def screens(table: Table) -> dict[str, str]:
    """Every screen's page now: the display, the host's page and each phone."""
    found = {
        "display": Client().get(f"/t/{table.code}/").content.decode(),
        "host": Client().get(f"/h/{table.host_token}/").content.decode(),
    }
    for seat in table.seats.order_by("position"):
        found[seat.name] = Client().get(f"/p/{seat.token}/").content.decode()
    return found


def last_event(table: Table) -> Event:
    return Event.objects.filter(table=table).order_by("-version").first()  # type: ignore[return-value]


@pytest.mark.django_db
def test_a_probe_game_joins_every_hook_and_every_screen_shows_it(probe: Probe) -> None:
    table, seats = picked_all(5)
    victim = by_identity(table, "rebel")[0]
    attacker = by_identity(table, "loyalist")[0]
    # The house rules' game is on at every identity table (its covered-card slot pads alike
    # whether its option is on or off); no other game is, with no option set.
    assert [g.key for g in hooks.on(table) if g is not probe] == ["house"]
    assert probe in hooks.on(table)

    # An HP tap: the probe's history line, its public note and turn-bar part, its seat marks,
    # and each phone's own part.
    htmx_post(
        csrf_client(),
        f"/p/{victim.token}/act/hp",
        {"seat": victim.pk, "delta": "-1", "source": attacker.pk},
    )
    hit = last_event(table)
    assert (hit.kind, hit.public["seamprobe_hit"], hit.after["seamprobe_hit"]) == ("damage", 1, 1)
    table.refresh_from_db()
    assert table.mode_state[KEY] == {"hits": 1, "dead": []}
    pages = screens(table)
    for name, body in pages.items():
        assert 'class="seamprobe-note" data-hits="1"' in body, name
        assert "seamprobe hit 1" in body, name  # the damage's history line
        assert 'class="seamprobe-mark"' in body and " seamprobed" in body, name
        assert "seamprobe turn 1" in body, name
    for seat in seats:
        mine = pages[seat.name]
        assert f"seamprobe sees {seat.name}<" in mine
        assert [s for s in seats if f"seamprobe sees {s.name}<" in mine] == [seat]
    assert "seamprobe sees" not in pages["display"]

    # A death: the probe's consequence joins the death's event and every screen.
    htmx_post(
        csrf_client(),
        f"/h/{table.host_token}/act/hp",
        {"seat": victim.pk, "delta": -fresh(victim).hp, "source": attacker.pk},
    )
    htmx_post(csrf_client(), f"/p/{victim.token}/act/die", {"seat": victim.pk})
    died = last_event(table)
    assert died.kind == "died" and died.public["seamprobe_mourns"] == victim.name
    assert died.after["seamprobe_dead"] == victim.name
    for name, body in screens(table).items():
        assert f"· mourns {victim.name}</p>" in body, name
        assert f"seamprobe mourns {victim.name}" in body, name  # the death's history line
        assert 'data-hits="2"' in body, name

    # The undo of the death, then of the damages: the probe's state goes back with them.
    htmx_post(csrf_client(), f"/h/{table.host_token}/act/undo", {"version": died.version})
    table.refresh_from_db()
    assert fresh(victim).alive and table.mode_state[KEY] == {"hits": 2, "dead": []}
    for name, body in screens(table).items():
        assert "mourns" not in body.split('class="seamprobe-note"')[1].split("</p>")[0], name
        assert 'data-hits="2"' in body, name
    for event in Event.objects.filter(table=table, kind="damage").order_by("-version"):
        htmx_post(csrf_client(), f"/h/{table.host_token}/act/undo", {"version": event.version})
    table.refresh_from_db()
    assert table.mode_state[KEY] == {"hits": 0, "dead": []}
    for name, body in screens(table).items():
        assert 'data-hits="0"' in body and 'class="seamprobe-mark"' not in body, name


@pytest.mark.backend
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_hp_tap_s_frames_carry_the_probe_to_every_screen(probe: Probe) -> None:
    table, seats = await database_sync_to_async(picked_all)(4)
    victim = seats[1]
    phones = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    answer, _frames = await tap_seeing(phones[1], "hp", "seamprobe01", seat=victim.pk, delta=-1)
    assert answer is None  # applied: answered by its own frame
    drained = await drain_all([*phones, display])
    for name, frames in zip([*(s.name for s in seats), "display"], drained, strict=True):
        text = "".join(_frames if name == victim.name else []) + "".join(frames)
        assert 'class="seamprobe-note" data-hits="1"' in text, name
        assert "seamprobe hit 1" in text, name
    mine = "".join(_frames) + "".join(drained[1])
    assert f"seamprobe sees {victim.name}<" in mine
    for comm in [*phones, display]:
        await comm.disconnect()


def test_no_core_file_names_the_probe() -> None:
    """The core reaches the probe only through the hooks: no file of it names the probe."""
    named = [
        path
        for folder in ("companion", "templates", "static")
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".html", ".js", ".css")
        and KEY in path.read_text(encoding="utf-8", errors="ignore")
    ]
    assert named == []
