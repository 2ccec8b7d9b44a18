"""A stylesheet change that should change nothing: the same screens (the lobby's host console and
phone, a phone and the display in play, a dying seat, the end card, ten seats, the help and start
pages; rebirth's and dark souls' phones and display; the protected first out's and the last
three's countdown's; 3 vs 3's and 1 vs 1's at the draft and in play; 360x640, 390x844 and 1280x800; Chinese and English) rendered with earlier stylesheets
(OLD_CSS: app.css as a file, e.g. `git show REV:static/css/app.css`, or a folder of app.css,
display.css and modes.css as they were served) and with today's joined ones, in the same page,
one after the other: every element's computed style (and ::before, ::after) must be the same,
and so must the screenshot's bytes. A screen whose screenshot also differs between two
renderings with the earlier sheet (a fading scrollbar) is reported, not failed: its computed
styles still decide. CSS animations are paused at their start before each look; the dying
pulse's shadow may still differ by a frame (CSS_REDUCED_MOTION=1 turns the pulse off).

Skipped unless OLD_CSS is set (it takes half an hour on a busy machine); CSS_SCREENS=a,b keeps
only those screens; the PNGs are left in test-artifacts/css-same/."""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.infra.staticstorage import joined_text, minify
from tests.browser import screen_tables, tables
from tests.browser.conftest import ARTIFACTS

OLD = os.environ.get("OLD_CSS", "")
OUT = ARTIFACTS / "css-same"
SHEETS = ("app", "display", "modes")
# A served stylesheet's name (hashed or not) and which of SHEETS it is.
SHEET_URL = re.compile(r"/static/css/(app|display|modes)[.\w]*\.css")

BOX = """async ([a, b]) => {
  const load = (src) => new Promise((ok) => { const i = new Image(); i.onload = () => ok(i); i.src = 'data:image/png;base64,' + src; });
  const [x, y] = [await load(a), await load(b)];
  if (x.width !== y.width || x.height !== y.height) return ['size', x.width, x.height, y.width, y.height];
  const data = (img) => { const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    const g = c.getContext('2d'); g.drawImage(img, 0, 0); return g.getImageData(0, 0, img.width, img.height).data; };
  const [p, q] = [data(x), data(y)];
  let n = 0, x0 = 1e9, y0 = 1e9, x1 = -1, y1 = -1;
  for (let i = 0; i < p.length; i += 4) {
    if (p[i] !== q[i] || p[i+1] !== q[i+1] || p[i+2] !== q[i+2] || p[i+3] !== q[i+3]) {
      n++; const k = i / 4, px = k % x.width, py = Math.floor(k / x.width);
      x0 = Math.min(x0, px); y0 = Math.min(y0, py); x1 = Math.max(x1, px); y1 = Math.max(y1, py);
    }
  }
  return [n, x0, y0, x1, y1];
}"""

DUMP = """() => {
  const out = [];
  for (const el of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const cs = getComputedStyle(el, pseudo);
      let s = el.tagName + '.' + el.className + (pseudo || '') + '|';
      for (let i = 0; i < cs.length; i++) s += cs[i] + ':' + cs.getPropertyValue(cs[i]) + ';';
      out.push(s);
    }
  }
  return out;
}"""


def old_sheets() -> dict[str, str]:
    """The earlier sheets: OLD_CSS's app.css alone, or each of SHEETS its folder holds."""
    old = Path(OLD)
    if old.is_file():
        return {"app": old.read_text()}
    return {n: (old / f"{n}.css").read_text() for n in SHEETS if (old / f"{n}.css").is_file()}


def protection(base: str, names: list[str]) -> tuple[tables.HttpTable, tables.HttpSeat]:
    """The session's second game, its first out of the first protected and attacked once."""
    table = tables.seated(base, names)
    table.host.act("options", fields="first_out_protection", first_out_protection="1")
    tables.deal(table)
    tables.pick_heroes(table)
    first = table.seat_by_identity("rebel")
    tables.kill(table, first, None)
    tables.kill(table, table.seat_by_identity("lord"), None)
    tables.deal(table)
    tables.pick_heroes(table)
    attacker = next(s for s in table.seats if s is not first)
    table.host.act("hp", seat=str(first.id), delta="-1", source=str(attacker.id))
    return table, first


def last_three_now(base: str, names: list[str]) -> tuple[tables.HttpTable, tables.HttpSeat]:
    """Three alive since four rounds: the round that ends with everyone losing 1 HP."""
    table = tables.seated(base, names)
    table.host.act("options", fields="last_three", last_three="1")
    tables.deal(table)
    tables.pick_heroes(table)
    for identity in ("loyalist", "renegade"):
        tables.kill(table, table.seat_by_identity(identity), None)
    for _ in range(4):
        start = round_of(table)
        while round_of(table) == start:
            table.host.act("endturn")
    assert "last-three-now" in table.host.page()
    return table, table.seat_by_identity("lord")


def round_of(table: tables.HttpTable) -> int:
    found = re.search(r'class="pill now-round">[^<\d]*(\d+)', table.host.page())
    assert found
    return int(found.group(1))


def game_screens(base: str) -> list[tuple[str, str, str]]:
    """Rebirth (a gift given, another due), dark souls (a soul to choose, a player haunted), the
    protected first out (his phone, the display), the last three's countdown at its last round
    (a phone, the display), and 3 vs 3 and 1 vs 1 at the draft and in play."""
    names = tables.NAMES_EN[:6]
    rebirth = tables.seated(base, names[:5])
    rebirth.host.act("options", fields="rebirth", rebirth="1")
    tables.deal(rebirth)
    tables.pick_heroes(rebirth)
    lord = rebirth.seat_by_identity("lord")
    rebel = rebirth.seat_by_identity("rebel")
    tables.kill(rebirth, rebel, lord)
    rebirth.seat_by_identity("loyalist").device.act("give", seat=str(rebel.id))
    giver = rebirth.seat_by_identity("renegade")
    souls = tables.seated(base, names)
    souls.host.act("options", fields="dark_souls", dark_souls="1")
    tables.deal(souls)
    tables.pick_heroes(souls)
    haunted, loyalist = souls.seat_by_identity("lord"), souls.seat_by_identity("loyalist")
    chooser = next(s for s in souls.seats if s.identity == "rebel")
    tables.kill(souls, loyalist, chooser)
    loyalist.device.act("haunt", seat=str(haunted.id))
    tables.kill(souls, chooser, haunted)
    protected_table, protected = protection(base, names[:5])
    last_three, last_lord = last_three_now(base, names[:5])
    threes_draft, commanders = screen_tables.threes(base, draft_only=True)
    threes, _ = screen_tables.threes(base)
    duel_draft, duel = screen_tables.duel(base, draft_only=True), screen_tables.duel(base)
    return [
        ("rebirth-dead", rebel.device.url, "phone"),
        ("rebirth-giver", giver.device.url, "phone"),
        ("rebirth-display", rebirth.display_path, "display"),
        ("souls-choose", chooser.device.url, "phone"),
        ("souls-haunted", haunted.device.url, "phone"),
        ("souls-display", souls.display_path, "display"),
        ("protected-phone", protected.device.url, "phone"),
        ("protected-display", protected_table.display_path, "display"),
        ("lastthree-phone", last_lord.device.url, "phone"),
        ("lastthree-display", last_three.display_path, "display"),
        ("threes-draft-phone", commanders[0].device.url, "phone"),
        ("threes-draft-display", threes_draft.display_path, "display"),
        ("threes-play-phone", threes.seats[0].device.url, "phone"),
        ("threes-play-display", threes.display_path, "display"),
        ("duel-draft-phone", duel_draft.seats[0].device.url, "phone"),
        ("duel-draft-display", duel_draft.display_path, "display"),
        ("duel-play-phone", duel.seats[0].device.url, "phone"),
        ("duel-play-display", duel.display_path, "display"),
    ]


@pytest.mark.skipif(not OLD, reason="OLD_CSS not set")
def test_same_rendering(browser, app_server) -> None:
    old = old_sheets()
    css = {
        f"{which}-{n}": minify(f"css/{n}.css", text)
        for n in old
        for which, text in (("old", old[n]), ("new", joined_text(f"css/{n}.css")))
    }
    base = app_server.base_url
    only = os.environ.get("CSS_SCREENS", "").split(",")
    lobby = screen_tables.lobby(base)
    play = screen_tables.playing(base)
    lord = play.seat_by_identity("lord")
    other = next(s for s in play.seats if s is not lord)
    dying, victim = screen_tables.dying(base)
    end = screen_tables.finished(base)
    big = tables.playing(base, tables.NAMES_ZH)
    screens = [
        ("lobby-host", lobby.host.url, "display"),
        ("lobby-host-phone", lobby.host.url, "phone"),
        ("lobby-seat", lobby.seats[0].device.url, "phone"),
        ("play-lord", lord.device.url, "phone"),
        ("play-other", other.device.url, "phone"),
        ("play-display", play.display_path, "both"),
        ("play-host", play.host.url, "display"),
        ("dying-self", victim.device.url, "phone"),
        ("dying-display", dying.display_path, "display"),
        ("end-seat", end.seats[0].device.url, "phone"),
        ("end-display", end.display_path, "display"),
        ("big-seat", big.seats[3].device.url, "phone"),
        ("big-display", big.display_path, "display"),
        ("help", "/help/", "both"),
        ("start", "/", "phone"),
    ]
    if only == [""] or any(
        n.split("-")[0] in {"rebirth", "souls", "protected", "lastthree", "threes", "duel"}
        for n in only
    ):
        screens += game_screens(base)
    sizes = {"phone": [(360, 640), (390, 844)], "display": [(1280, 800)]}
    sizes["both"] = sizes["phone"] + sizes["display"]
    OUT.mkdir(parents=True, exist_ok=True)
    compared = 0
    results: list = []
    for name, path, kind in screens:
        if only != [""] and name not in only:
            continue
        for w, h in sizes[kind]:
            for lang in ("zh", "en"):
                phone = w < 900
                options: dict = {"viewport": {"width": w, "height": h}}
                if phone:
                    options.update(device_scale_factor=2, is_mobile=True, has_touch=True)
                if os.environ.get("CSS_REDUCED_MOTION"):
                    options["reduced_motion"] = "reduce"
                context = browser.new_context(
                    locale="zh-CN" if lang == "zh" else "en-US", base_url=base, **options
                )
                if lang == "en":
                    context.add_cookies([{"name": "django_language", "value": "en", "url": base}])

                def serve(route, request) -> None:
                    which = "new" if "v=new" in request.url else "old"
                    sheet = SHEET_URL.search(request.url)
                    if sheet is None or f"{which}-{sheet.group(1)}" not in css:
                        route.continue_()
                        return
                    body = css[f"{which}-{sheet.group(1)}"]
                    route.fulfill(status=200, content_type="text/css", body=body)

                context.route(SHEET_URL, serve)
                page = context.new_page()
                page.clock.install()
                page.goto(path)
                if page.locator("#conn").count():
                    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
                page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
                page.wait_for_timeout(300)
                shots = {}
                dumps = {}
                for which in ("old", "new", "old2"):
                    page.evaluate(
                        """([v, names]) => Promise.all([...document.querySelectorAll(
                          'link[rel=stylesheet]')].filter((link) => names.some(
                          (n) => link.href.includes('/css/' + n))).map((link) => new Promise((done) => {
                          const fresh = link.cloneNode();
                          fresh.href = link.href.split('?')[0] + '?v=' + v;
                          fresh.onload = () => { link.remove(); done(); };
                          link.after(fresh);
                        })))""",
                        [which, list(old)],
                    )
                    # CSS animations run on the page's own time (the dying pulse): each
                    # stylesheet is compared at their start.
                    page.evaluate(
                        "() => document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 0; })"
                    )
                    stem = f"{name}-{w}x{h}-{lang}-{which}"
                    shots[which] = page.screenshot(
                        path=str(OUT / f"{stem}.png"), full_page=True, animations="disabled"
                    )
                    if which != "old2":
                        dumps[which] = page.evaluate(DUMP)
                diffs = [
                    (a[:120], [x for x in a.split(";") if x not in b.split(";")][:5])
                    for a, b in zip(dumps["old"], dumps["new"], strict=False)
                    if a != b
                ]
                same_dump = len(dumps["old"]) == len(dumps["new"]) and not diffs
                box = None
                if shots["old"] != shots["new"]:
                    box = context.new_page().evaluate(
                        BOX, [base64.b64encode(shots[k]).decode() for k in ("old", "new")]
                    )
                line = (
                    stem.rsplit("-", 1)[0],
                    same_dump,
                    shots["old"] == shots["new"],
                    shots["old"] == shots["old2"],
                    box,
                    diffs[:3],
                )
                results.append(line)
                print(line, flush=True)
                compared += 1
                context.close()
    print("compared", compared)
    # Different computed styles, or screenshots that differ only with the new sheet.
    bad = [r for r in results if not r[1] or (not r[2] and r[3])]
    assert not bad, bad
