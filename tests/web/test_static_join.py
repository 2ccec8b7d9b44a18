"""The page's script and stylesheet are written as parts (static/js/live/, static/css/app/) and
each served as one file, js/live.js and css/app.css: the same joined text in production
(`collectstatic`, then minified) and in DEBUG (runserver's static view, WhiteNoise with the
finders), and the parts never served on their own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rcssmin
import rjsmin
from django.apps import apps
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.http import HttpResponse
from django.test import RequestFactory

from companion.infra.staticstorage import (
    APP_PARTS,
    DISPLAY_PARTS,
    GAMES_LAST_SLOT,
    GAMES_SLOT,
    JOINED,
    LIVE_PARTS,
    SOURCE,
    minify,
)

PARTS = SOURCE / "js" / "live"


def by_hand(name: str = "js/live.js") -> str:
    """The parts read one by one and put end to end, in the declared order."""
    folder, parts = {
        "js/live.js": ("js/live", LIVE_PARTS),
        "css/app.css": ("css/app", APP_PARTS),
        "css/display.css": ("css/display", DISPLAY_PARTS),
        "css/modes.css": ("css/modes", (f"{GAMES_SLOT}.css",)),
    }[name]
    slots = {f"{GAMES_SLOT}.css": "", f"{GAMES_LAST_SLOT}.css": "-last"}
    paths = []
    for part in parts:
        if part in slots:
            # The games' own sheets of that name, in the order their apps are installed.
            own = name.split("/")[-1].replace(".css", f"{slots[part]}.css")
            sheets = (Path(c.path) / own for c in apps.get_app_configs())
            paths.extend(sheet for sheet in sheets if sheet.exists())
        else:
            paths.append(SOURCE / folder / part)
    return "".join(path.read_text(encoding="utf-8") for path in paths)


def body_of(response) -> str:
    content = response.streaming_content if response.streaming else [response.content]
    return b"".join(content).decode()


def test_every_part_is_joined_once_in_the_declared_order() -> None:
    assert sorted(LIVE_PARTS) == sorted(p.name for p in PARTS.glob("*.js"))
    assert len(set(LIVE_PARTS)) == len(LIVE_PARTS)
    # The function the parts are fragments of opens first and closes before the help's block.
    assert LIVE_PARTS[0] == "_begin.js" and LIVE_PARTS[-2:] == ("_end.js", "help.js")
    joined = Path(finders.find("js/live.js")).read_text(encoding="utf-8")
    assert joined == by_hand()
    assert sorted(JOINED) == ["css/app.css", "css/display.css", "css/modes.css", "js/live.js"]
    sheet = Path(finders.find("css/app.css")).read_text(encoding="utf-8")
    assert sheet == by_hand("css/app.css") and sheet.startswith("/* Base")
    own = [p for p in DISPLAY_PARTS if p != f"{GAMES_SLOT}.css"]
    assert sorted(own) == sorted(p.name for p in (SOURCE / "css" / "display").glob("*.css"))
    assert DISPLAY_PARTS[-2:] == ("display.css", f"{GAMES_SLOT}.css")
    display = Path(finders.find("css/display.css")).read_text(encoding="utf-8")
    assert display == by_hand("css/display.css") and display.startswith("/* The table display")
    modes = Path(finders.find("css/modes.css")).read_text(encoding="utf-8")
    assert modes == by_hand("css/modes.css") and modes.startswith("/* The drafted modes")


def test_collectstatic_serves_the_joined_parts_minified_and_not_the_parts(
    tmp_path, settings
) -> None:
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "companion.infra.staticstorage.MinifiedManifestStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    served = (tmp_path / manifest["js/live.js"]).read_text()
    assert served == rjsmin.jsmin(by_hand()) == minify("js/live.js", by_hand())
    assert not [name for name in manifest if name.startswith("js/live/")]
    assert not (tmp_path / "js" / "live").exists()
    for name in ("css/app.css", "css/display.css", "css/modes.css"):
        sheet = (tmp_path / manifest[name]).read_text()
        assert sheet == rcssmin.cssmin(by_hand(name))
        folder = name.removesuffix(".css")
        assert not [path for path in manifest if path.startswith(f"{folder}/")]
        assert not (tmp_path / folder).exists()


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("js/live.js", ("socket.js", "_begin.js")),
        ("css/app.css", ("base.css", "turn.css")),
        ("css/display.css", ("display.css",)),
    ],
)
def test_debug_serves_the_same_joined_file(name, parts, settings) -> None:
    """runserver's static view and WhiteNoise in DEBUG (finders, autorefresh) both hand out the
    joined parts, and a change to a part shows at the next request, as with any static file."""
    from django.contrib.staticfiles.views import serve
    from whitenoise.middleware import WhiteNoiseMiddleware

    request = RequestFactory().get(f"/static/{name}")
    assert body_of(serve(request, name, insecure=True)) == by_hand(name)
    settings.DEBUG = True
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    middleware = WhiteNoiseMiddleware(lambda request: HttpResponse(status=404))
    response = middleware(request)
    assert response.status_code == 200 and body_of(response) == by_hand(name)
    folder = name.rsplit(".", 1)[0]
    for part in parts:
        missing = middleware(RequestFactory().get(f"/static/{folder}/{part}"))
        assert missing.status_code == 404
        assert not finders.find(f"{folder}/{part}")
