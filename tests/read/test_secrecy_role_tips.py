"""The identity tips never tell a phone's identity over the network.

Every phone loads the same file with all four roles' tips (/help/roles.json) and shows its own
beside the covered identity; the page itself holds only an empty box, the same for a loyalist, a
rebel and a renegade. This checks the page's size and its structure (every tag with its
attributes, the words that are padded to one length aside) for each secret identity.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from companion import actions
from companion.models import Seat
from companion.rules.help.roles import ROLE_TIPS
from tests.read.test_secrets_sizes import LANGS, SECRET_IDENTITIES, assert_same_sizes, non_lord
from tests.support.factories import make_table

pytestmark = pytest.mark.django_db


class _Shape(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # Values that differ per response or per identity by design (CSRF token, the padded
        # identity class) are left out: the shape is the tags and their attribute names.
        self.tags.append(f"{tag}[{','.join(name for name, _value in attrs)}]")

    def handle_endtag(self, tag: str) -> None:
        self.tags.append(f"/{tag}")


def shape(html: str) -> list[str]:
    parser = _Shape()
    parser.feed(html)
    return parser.tags


def page(seat: Seat, identity: str, lang: str) -> str:
    Seat.objects.filter(pk=seat.pk).update(identity=identity)
    client = Client()
    client.cookies["sgs_lang"] = lang
    response = client.get(f"/p/{seat.token}/")
    assert response.status_code == 200
    return response.content.decode()


def _all_tip_words() -> list[str]:
    words: list[str] = []
    for role in ROLE_TIPS.values():
        for lang in role.values():
            words.append(str(lang["goal"]))
            words.extend(str(t) for t in lang["tips"])  # type: ignore[attr-defined]
    return words


@pytest.mark.parametrize("lang", LANGS)
def test_the_role_tips_box_is_the_same_whatever_the_identity(lang: str) -> None:
    table, _seats = make_table(5, deal=True)
    seat = non_lord(table)
    original = seat.identity
    pages = {identity: page(seat, identity, lang) for identity in SECRET_IDENTITIES}
    Seat.objects.filter(pk=seat.pk).update(identity=original)
    shapes = {identity: shape(html) for identity, html in pages.items()}
    first = shapes[SECRET_IDENTITIES[0]]
    for identity in SECRET_IDENTITIES[1:]:
        assert shapes[identity] == first, identity
    for html in pages.values():
        # One empty box, filled on the phone from the shared file.
        assert len(re.findall(r'<div class="role-tips" data-role-tips></div>', html)) == 1
        for words in _all_tip_words():
            assert words not in html
    assert_same_sizes(seat)


def test_the_role_tips_sizes_hold_in_play() -> None:
    table, _seats = make_table(6, deal=True)
    seat = non_lord(table)
    actions.game_start(token=table.host_token)
    assert_same_sizes(seat)


def test_the_lord_sees_his_tips_on_a_tap() -> None:
    table, _seats = make_table(5, deal=True)
    lord = Seat.objects.get(table=table, identity="lord")
    html = Client().get(f"/p/{lord.token}/").content.decode()
    assert '<div class="role-tips" data-role-tips="lord"></div>' in html
    assert "data-role-toggle" in html
