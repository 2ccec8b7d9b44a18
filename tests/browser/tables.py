"""Tables of any size built with plain HTTP requests (no browser page): a cookie jar per device,
the same forms a phone posts. Quick enough to seat ten players, deal, pick heroes and play to
the end before a browser page opens the display.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import secrets
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from companion.rules.heroes import STANDARD_HEROES

# As long as a phone would wait for a busy server.
TIMEOUT = 60
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HEADER_CSRF_RE = re.compile(r'"X-CSRFToken": "([^"]+)"')
HERO_RE = re.compile(r'<input type="hidden" name="hero" value="([^"]+)">')
SEAT_RE = re.compile(r'id="my-seat"[^>]*data-seat="(\d+)"')
IDENTITY_RE = re.compile(r'class="identity-card[^"]*\bidn-(\w+)\b')

# Realistic long names: eight Chinese characters, sixteen Latin ones (the join form's limit).
NAMES_ZH = [
    "欧阳诸葛司马懿仲",
    "上官婉儿长孙无忌",
    "皇甫嵩字义真将军",
    "夏侯惇夏侯渊兄弟",
    "司马昭之心路人知",
    "诸葛孔明卧龙先生",
    "赵子龙常山真英雄",
    "孙仲谋江东碧眼儿",
    "周公瑾雄姿英发者",
    "关云长美髯公义薄",
]
NAMES_EN = [
    "Alexandra Petrov",
    "Christopher Wong",
    "Wilhelmina Brown",
    "Maximilian Adler",
    "Bartholomew Cruz",
    "Konstantin Orlov",
    "Gwendolyn Harper",
    "Sebastian Okafor",
    "Anastasia Romero",
    "Frederick Castle",
]


class Device:
    """One browser's cookies: a host console or a phone, driven by plain requests."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.url = ""
        self.csrf = ""  # the page's token for its script's posts, once read

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(urllib.parse.urljoin(self.base_url, path), timeout=TIMEOUT) as r:
            return r.geturl(), r.read().decode("utf-8")

    def post(self, path: str, data: dict[str, str], csrf: str) -> tuple[str, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": csrf}).encode()
        request = urllib.request.Request(  # noqa: S310 - the test server's own address
            urllib.parse.urljoin(self.base_url, path), data=body, method="POST"
        )
        with self.opener.open(request, timeout=TIMEOUT) as r:
            return r.geturl(), r.read().decode("utf-8")

    def post_file(self, path: str, name: str, content: bytes, csrf: str) -> tuple[str, str]:
        """A form post of one file (multipart), as a file input sends it."""
        boundary = secrets.token_hex(16)
        body = (
            (
                f"--{boundary}\r\n"
                f'Content-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{csrf}\r\n'
                f"--{boundary}\r\n"
                f'Content-Disposition: form-data; name="{name}"; filename="{name}.json"\r\n'
                "Content-Type: application/json\r\n\r\n"
            ).encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = urllib.request.Request(  # noqa: S310 - the test server's own address
            urllib.parse.urljoin(self.base_url, path),
            data=body,
            method="POST",
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        with self.opener.open(request, timeout=TIMEOUT) as r:
            return r.geturl(), r.read().decode("utf-8")

    def page(self) -> str:
        return self.get(self.url)[1]

    def act(self, tap: str, **fields: str) -> None:
        """A tap on this device's page, as its script posts one over HTTP (htmx: answered 204,
        no page rendered, so a table of ten is set up in a moment). Each call is a tap of its
        own (`repeat`: never merged with an identical tap just before). HTTPError if refused."""
        if not self.csrf:
            html = self.page()
            found = HEADER_CSRF_RE.search(html)
            assert found, html[:300]
            self.csrf = found.group(1)
        request = urllib.request.Request(  # noqa: S310 - the test server's own address
            urllib.parse.urljoin(self.base_url, self.url + f"act/{tap}"),
            data=urllib.parse.urlencode({"repeat": "1", **fields}).encode(),
            method="POST",
            headers={"HX-Request": "true", "X-CSRFToken": self.csrf},
        )
        with self.opener.open(request, timeout=TIMEOUT) as r:
            assert r.status in (200, 204), (tap, fields, r.status)  # 200: a fragment (handover)


@dataclass
class HttpSeat:
    device: Device
    name: str
    id: int = 0
    identity: str = ""


@dataclass
class HttpTable:
    base_url: str
    host: Device
    code: str
    seats: list[HttpSeat] = field(default_factory=list)

    @property
    def display_path(self) -> str:
        return f"/t/{self.code}/"

    def seat_by_identity(self, identity: str) -> HttpSeat:
        return next(s for s in self.seats if s.identity == identity)


def open_table(base_url: str, mode: str = "") -> HttpTable:
    """A new table (of this way to play, else the default); the returned host device holds the
    console's link."""
    host = Device(base_url)
    _url, html = host.get("/")
    found = CSRF_RE.search(html)
    assert found, html[:300]
    host.url, html = host.post("/new/", {"mode": mode} if mode else {}, found.group(1))
    host.url = urllib.parse.urlsplit(host.url).path
    assert re.fullmatch(r"/h/[A-Za-z0-9_-]{22,}/", host.url), host.url
    code = re.search(r'data-code="([A-Z0-9]+)"', html)
    assert code, html[:300]
    return HttpTable(base_url, host, code.group(1))


def join(table: HttpTable, name: str) -> HttpSeat:
    device = Device(table.base_url)
    _url, html = device.get(f"/j/{table.code}/")
    found = CSRF_RE.search(html)
    assert found, html[:300]
    url, html = device.post(f"/j/{table.code}/", {"name": name}, found.group(1))
    device.url = urllib.parse.urlsplit(url).path
    assert re.fullmatch(r"/p/[A-Za-z0-9_-]{22,}/", device.url), (url, html[:500])
    seat_id = SEAT_RE.search(html)
    assert seat_id, html[:500]
    seat = HttpSeat(device, name, int(seat_id.group(1)))
    table.seats.append(seat)
    return seat


# The widest hero a deal of the standard box can show, whatever it draws: the longest English
# name (Sun Shangxiang), three Chinese characters, the most skills (two) and the most HP (four:
# a lord's five jades).
_WIDEST_EN = max((h.name_en for h in STANDARD_HEROES), key=len)
_WIDEST_SKILLS = max(len(h.skills_zh) for h in STANDARD_HEROES)
_SURNAMES = "孙张王李赵钱周吴郑冯陈褚卫蒋沈韩杨朱秦尤许何吕施曹"


def widest_box(count: int = len(STANDARD_HEROES)) -> dict[str, Any]:
    """A hero box file holding `count` heroes (as many as the standard box, enough for a deal
    to any number of players), each as wide as the widest standard one (every standard hero
    switched off): any deal from it lays out the worst case."""
    assert count <= len(_SURNAMES)
    skills = [{"name": f"技{i}能", "text": "描述。"} for i in range(_WIDEST_SKILLS)]
    return {
        "format": "sanguosha-box",
        "version": 1,
        "standard_off": [h.id for h in STANDARD_HEROES],
        "added": [
            {
                "id": f"ADD{i + 1:03d}",
                "name_zh": f"{surname}尚香",
                "name_en": _WIDEST_EN,
                "kingdom": "wei",  # its badge "Wei 魏" as wide as any
                "hp": 4,
                "gender": "female",
                "lord": False,
                "skills": skills,
            }
            for i, surname in enumerate(_SURNAMES[:count])
        ],
    }


def standard_box(on: list[str]) -> dict[str, Any]:
    """A hero box file: only these standard heroes on."""
    off = [h.id for h in STANDARD_HEROES if h.id not in on]
    return {"format": "sanguosha-box", "version": 1, "standard_off": off, "added": []}


def import_box(table: HttpTable, box_file: dict[str, Any]) -> None:
    """The host imports this hero box file (one request)."""
    found = HEADER_CSRF_RE.search(table.host.page())
    assert found
    content = json.dumps(box_file, ensure_ascii=False).encode()
    url, html = table.host.post_file(table.host.url + "box/import", "file", content, found.group(1))
    assert url.endswith("/box/"), (url, html[:500])


def seated(base_url: str, names: list[str], *, box: dict[str, Any] | None = None) -> HttpTable:
    """A table of these players in the lobby (with this hero box file, if given)."""
    table = open_table(base_url)
    if box is not None:
        import_box(table, box)
    for name in names:
        join(table, name)
    return table


def deal(table: HttpTable, *, first_game: bool = False) -> None:
    if first_game:
        table.host.act("options", fields="first_game_mode", first_game_mode="1")
    table.host.act("deal")
    for seat in table.seats:
        found = IDENTITY_RE.search(seat.device.page())
        assert found
        seat.identity = found.group(1)


def pick_heroes(table: HttpTable) -> None:
    """Deal hero candidates; the lord picks first, then everyone else (the first offered)."""
    table.host.act("start")
    lord = table.seat_by_identity("lord")
    others = [s for s in table.seats if s is not lord]
    for seat in [lord, *others]:
        heroes = HERO_RE.findall(seat.device.page())
        assert heroes, seat.name
        seat.device.act("pick", hero=heroes[0])


def playing(
    base_url: str,
    names: list[str],
    *,
    heroes: bool = True,
    box: dict[str, Any] | None = None,
) -> HttpTable:
    """A table of these players, in play (heroes picked unless `heroes` is False; from this
    hero box file, if given)."""
    table = seated(base_url, names, box=box)
    deal(table, first_game=not heroes)
    if heroes:
        pick_heroes(table)
    else:
        table.host.act("start")
    return table


def kill(table: HttpTable, victim: HttpSeat, killer: HttpSeat | None) -> None:
    """Damage from the killer that brings the victim to dying (a blow of the HP the host's seat
    dialog shows), then record the death (host)."""
    for _blow in range(3):  # one blow does it; a rule that keeps the last HP may need more
        hp = shown_hp(table, victim)
        if hp is None:
            break
        table.host.act(
            "hp", seat=str(victim.id), delta=str(-hp), source=str(killer.id) if killer else ""
        )
    else:
        raise AssertionError(f"{victim.name} is never dying")
    table.host.act("die", seat=str(victim.id))


def shown_hp(table: HttpTable, seat: HttpSeat) -> int | None:
    """The seat's HP as the host's dialog of that seat shows it, None once he is dying (its
    dying mark): a fragment a tenth of the console's size."""
    _url, html = table.host.get(table.host.url + f"seat/{seat.id}")
    assert 'class="dialog-hp"' in html, html[:300]  # where the HP and the mark are
    if 'class="dying-mark"' in html:
        return None
    found = re.search(r'class="hp-num">(-?\d+)/', html)
    assert found, html[:300]
    return int(found.group(1))
