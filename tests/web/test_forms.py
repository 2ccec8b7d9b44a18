"""Each tap's form (companion.web.forms): a bad field gets the same status and message over HTTP
and over the socket, and changes nothing; every tap has a form, every form a real action."""

from __future__ import annotations

import html
import inspect
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.http import QueryDict
from django.test import Client
from django.utils import translation

from companion.actions import ActionError
from companion.models import Event, Table, TapOutcome
from companion.web import dispatch, forms
from tests.live.test_consumers import communicator
from tests.support.game import picked_all

pytestmark = pytest.mark.django_db(transaction=True)

playing = database_sync_to_async(picked_all)

# (who taps: a seat's index or "host", tap, fields, the English message). "me" is the tapping
# seat's id, "other" another seat's.
BAD: list[tuple[Any, str, dict[str, Any], str]] = [
    (0, "hp", {"seat": "abc", "delta": "-1"}, "Choose a player."),
    (0, "hp", {"seat": "me", "delta": "abc"}, "HP changes by a whole number."),
    (0, "hp", {"seat": "me", "delta": ""}, "HP changes by a whole number."),
    (0, "hp", {"seat": "me", "delta": "-1", "damage_type": "acid"}, "Unknown damage type."),
    (0, "hp", {"seat": "me", "delta": "-1", "source": "someone"}, "Choose a player."),
    (0, "unequip", {"seat": "me", "slot": "hand"}, "No such equipment slot."),
    (0, "rescue", {"seat": "other", "kind": "beer"}, "Unknown rescue."),
    (0, "rescue", {"seat": "other", "by": "x"}, "Say who gives the Peach."),
    (0, "maxhp", {"seat": "me", "max_hp": "4.5"}, "Max HP is a whole number."),
    (0, "judge", {"check": "luck", "suit": "spade", "rank": "A"}, "Choose what is being judged."),
    (
        0,
        "judge",
        {"check": "free", "suit": "stars", "rank": "A"},
        "Enter the card's suit and a rank from A to K.",
    ),
    (
        0,
        "judge",
        {"check": "free", "suit": "spade", "rank": "14"},
        "Enter the card's suit and a rank from A to K.",
    ),
    (0, "undo", {"version": "last"}, "No such change."),
    ("host", "turnset", {"seat": "me", "phase": "nap"}, "No such phase."),
    ("host", "turnset", {"seat": "me", "phase": "play", "round": "x"}, "No such round."),
    ("host", "timer", {"seconds": "soon"}, "Choose a timer length."),
    ("host", "move", {"seat": "other", "position": "first"}, "That is not a seat number."),
    ("host", "remove", {}, "Choose a player."),
]


def _fields(fields: dict[str, Any], me: int, other: int) -> dict[str, Any]:
    names = {"me": str(me), "other": str(other)}
    return {name: names.get(value, value) for name, value in fields.items()}


@database_sync_to_async
def _written(table: Table) -> tuple[int, int]:
    """What a refused tap must not change: the table's version and its event log."""
    table.refresh_from_db()
    return table.version, Event.objects.filter(table=table).count()


@database_sync_to_async
def _post(url: str, fields: dict[str, Any], lang: str) -> tuple[int, str]:
    client = Client()
    client.cookies["sgs_lang"] = lang
    response = client.post(url, fields, HTTP_HX_REQUEST="true")
    match = re.search(r'<div id="toast"[^>]*>(.*?)</div>', response.content.decode(), re.S)
    assert match, response.content.decode()[:300]
    return response.status_code, html.unescape(match.group(1)).strip()


@database_sync_to_async
def _recorded(table: Table, action_id: str) -> tuple[int, str]:
    row = TapOutcome.objects.get(table=table, action_id=action_id)
    return row.status, row.message


async def _over_socket(
    token: str, name: str, fields: dict[str, Any], action_id: str, lang: str
) -> dict[str, Any]:
    comm = communicator(f"/ws/{token}/", lang=lang)
    connected, _code = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)  # the snapshot
    message = {"type": "act", "name": name, "fields": fields, "action_id": action_id}
    await comm.send_to(text_data=json.dumps(message))
    while True:
        frame = await comm.receive_from(timeout=5)
        if frame.startswith("{"):
            answer = json.loads(frame)
            if answer.get("action_id") == action_id:
                break
    await comm.disconnect()
    return answer


@pytest.mark.asyncio
@pytest.mark.parametrize(("who", "name", "fields", "message"), BAD)
async def test_a_bad_field_gets_the_same_answer_over_http_and_the_socket(
    who: Any, name: str, fields: dict[str, Any], message: str
) -> None:
    table, seats = await playing(4)
    me = seats[0]
    token, path = (table.host_token, "h") if who == "host" else (me.token, "p")
    form = _fields(fields, me.pk, seats[1].pk)
    before = await _written(table)
    for lang in ("en", "zh-hans"):
        with translation.override(lang):
            expected = str(translation.gettext(message))
        if lang != "en":
            assert expected != message, "the message is translated"
        http_id, socket_id = f"formhttp{lang}", f"formsock{lang}"
        status, text = await _post(
            f"/{path}/{token}/act/{name}", {**form, "action_id": http_id}, lang
        )
        answer = await _over_socket(token, name, form, socket_id, lang)
        assert (status, text) == (400, expected)
        assert answer["type"] == "error"
        assert (answer["status"], answer["message"]) == (400, expected)
        # A copy of either tap is answered the same: the refusal is recorded.
        assert await _recorded(table, http_id) == (400, expected)
        assert await _recorded(table, socket_id) == (400, expected)
    assert await _written(table) == before


def _post_data(**fields: str) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data[name] = value
    return data


def test_the_forms_clean_what_the_actions_took_before() -> None:
    """Valid fields reach the action as they did when dispatch parsed them by hand."""
    hp = forms.bound("hp", _post_data(seat="7", delta="-2", source="none", lose="yes"))
    assert hp.is_valid(), hp.errors
    assert hp.arguments() == {
        "seat_id": 7,
        "delta": -2,
        "source": None,
        "damage_type": "normal",
        "loss": True,
    }
    for off in ("0", "no", "false", "True", ""):
        lock = forms.bound("lock", _post_data(locked=off))
        assert lock.is_valid() and lock.arguments() == {"locked": False}
    rescue = forms.bound("rescue", _post_data(seat="3", by=""))
    assert rescue.is_valid() and rescue.arguments() == {"seat_id": 3, "by": None, "kind": "peach"}
    turnset = forms.bound("turnset", _post_data(seat="3", phase="draw", round=""))
    assert turnset.is_valid() and turnset.arguments()["round_number"] is None
    judge = forms.bound("judge", _post_data(check="free", suit="♥", rank="q"))
    assert judge.is_valid(), judge.errors
    assert judge.arguments() == {
        "check": "free",
        "suit": "heart",
        "rank": "q",
        "seat_id": None,
        "trick": "",
    }
    undo = forms.bound("undo", _post_data())
    assert undo.is_valid() and undo.arguments() == {"version": None}


def test_options_take_the_named_flags_and_ignore_unknown_names() -> None:
    data = QueryDict(mutable=True)
    data.setlist("fields", ["maneuvering", "no_such_option"])
    data["maneuvering"] = "on"
    data["referee_mode"] = "1"  # not named in `fields`: not this form's
    form = forms.bound("options", data)
    assert form.is_valid(), form.errors
    assert form.arguments() == {"options": {"maneuvering": True}}
    every = forms.bound("options", _post_data(referee_mode="1"))
    assert every.is_valid()
    options = every.arguments()["options"]
    assert options.pop("referee_mode") is True and not any(options.values())


def test_a_refusal_is_one_translated_message_with_status_400() -> None:
    form = forms.bound("hp", _post_data(seat="x", delta="y"))
    assert not form.is_valid()
    refusal = form.refusal()
    assert isinstance(refusal, ActionError)
    assert (refusal.status, refusal.code) == (400, "bad_seat")  # the first bad field
    with translation.override("zh-hans"):
        assert str(refusal.message) == "请选择一名玩家。"
    with translation.override("en"):
        assert str(refusal.message) == "Choose a player."


def test_every_tap_form_holds_its_action_function_not_its_name() -> None:
    """A form holds the function it calls (the core's and the games' alike): no action is
    looked up by a name, so a renamed action breaks the import, not a tap at play time."""
    for name, form_class in forms.FORMS.items():
        held = inspect.getattr_static(form_class, "action")
        assert isinstance(held, staticmethod), f"{name}: its action is {held!r}, not a function"
        assert form_class.function() is held.__func__, f"{name}: function() is not its action"


def test_every_tap_has_a_form_whose_action_exists_and_takes_its_fields() -> None:
    assert set(dispatch.ACTIONS) | dispatch.HTTP_ONLY == set(forms.FORMS)
    for name, form_class in forms.FORMS.items():
        action = form_class.function()
        assert callable(action), f"{name}: no action {form_class.action}"
        assert getattr(action, "is_action", False), f"{name}: {form_class.action} is no action"
        accepted = set(inspect.signature(inspect.unwrap(action)).parameters) - {"actor"}
        form = form_class(QueryDict())
        form.cleaned_data = {field: None for field in form.fields}
        if name == "options":
            form.cleaned_data["fields"] = []
        taken = set(form.arguments())
        assert taken <= accepted, f"{name}: {taken - accepted} not taken by {form_class.action}"
