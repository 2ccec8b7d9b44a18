"""Static files as served: our own CSS and JavaScript minified, then hashed and compressed.

The sources keep their comments (they explain the code); a phone on a café's Wi-Fi should not
download them. `collectstatic` copies the files, this storage minifies the copies of our own
`.css` and `.js` (rcssmin and rjsmin: conservative minifiers that drop comments and white space
and rename nothing) and then lets WhiteNoise hash and compress them as before. Vendored files are
already minified and are left alone.

Some files are joined before that: the page's script `js/live.js`, written as parts by concern in
`static/js/live/` (LIVE_PARTS, in order), every page's stylesheet `css/app.css`, written as parts
by component in `static/css/app/` (APP_PARTS, in order), the table display's `css/display.css`
and the drafted modes' pages' `css/modes.css`. Each stylesheet has a games' slot, where the games'
own rules for it join. The static files finder (JoiningFinder, in STATICFILES_FINDERS) serves each
joined file under its one name and hides the parts, so a phone still loads one script and one
stylesheet, `collectstatic` copies (then minifies and hashes) the joined files, and DEBUG's
runserver and WhiteNoise serve the very same text: one function joins for both.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

SOURCE = Path(__file__).resolve().parents[2] / "static"

# The parts of js/live.js, in the order they are joined (why each exists is at its top). Those
# between _begin.js and _end.js are fragments of one function: moving one moves when its
# statements run, so a new part goes where its code would have been in the one file.
LIVE_PARTS = (
    "_begin.js",
    "shared.js",
    "toast.js",
    "socket.js",
    "swap.js",
    "deltas.js",
    "taps.js",
    "outcomes.js",
    "timers.js",
    "alerts.js",
    "strip.js",
    "awake.js",
    "identity.js",
    "dialog.js",
    "_end.js",
    "help.js",
)
# The parts of css/app.css, in the order they are joined. The order is the cascade: a later rule
# of the same specificity overrides an earlier one on the same element, so a component's later
# part (a phone's, a big table's) comes after the parts it refines, and a rule moves to another
# part only where no rule it passes can set the same property on the same element (each part's
# header says what it must follow).
# Where the games' own stylesheets join a joined sheet: for `css/NAME.css`, each game's `NAME.css`
# at the top of its package (`app.css`, `display.css`, `modes.css`) in the games' slot, in
# INSTALLED_APPS' order, and in app.css each game's `app-last.css` in the last games' slot, at its
# end (for rules that refine the core's of any part). The core names no game. In app.css a game's
# rules refine the seat's; the display's and the drafted modes' sheets end with the games' rules,
# which refine theirs.
GAMES_SLOT = "games"
GAMES_LAST_SLOT = "games-last"
GAME_SHEET = "app.css"
APP_PARTS = tuple(
    f"{name}.css"
    for name in (
        "base",
        "seat",
        GAMES_SLOT,
        "help",
        "identity",
        "hero",
        "hp",
        "banner",
        "seat-hero",
        "result",
        "dialog",
        "host-panel",
        "toast",
        "turn",
        "session-panel",
        "turn-phone",
        "judge",
        "turn-sheets",
        "strip",
        "first-screen",
        "phone-ring",
        "big-tables",
        "host-console",
        "hero-choices",
        "fit",
        "variants",
        "end-of-night",
        "modes",
        GAMES_LAST_SLOT,
    )
)
# The parts of css/display.css, in order. Its first three (the display's end, the scoring session's
# panel and the display in play, from 900 px: rules for body.page-display only) were app.css's,
# where every phone downloaded them for pages it never shows. They keep their order and still come
# before the display's own rules; they now also come after all of app.css, where no rule of the
# same specificity sets the same property on the same elements (tests/browser/test_css_same.py:
# the display screens render the same).
DISPLAY_PARTS = ("end.css", "session.css", "play.css", "display.css", f"{GAMES_SLOT}.css")
# Each joined file: the folder of its parts, and the parts in order. The table display's sheet
# (loaded after app.css on the display and the host console) and the drafted modes' pages' (after
# app.css and display.css) each end with the games' slot; the drafted modes' is all games' rules
# (the draft kit's, then its modes').
JOINED = {
    "js/live.js": ("js/live", LIVE_PARTS),
    "css/app.css": ("css/app", APP_PARTS),
    "css/display.css": ("css/display", DISPLAY_PARTS),
    "css/modes.css": ("css/modes", (f"{GAMES_SLOT}.css",)),
}


def game_sheets(sheet: str = GAME_SHEET) -> list[Path]:
    """The games' own stylesheets named `sheet`, in the order their apps are installed."""
    found = (Path(config.path) / sheet for config in apps.get_app_configs())
    return [path for path in found if path.is_file()]


def part_paths(name: str, source: Path = SOURCE) -> list[Path]:
    """The files the joined static file `name` is made of, in order: its parts, the games'
    sheets of its name in the games' slot (and of its name with `-last` in the last one)."""
    folder, parts = JOINED[name]
    paths: list[Path] = []
    sheet = name.rsplit("/", 1)[-1]
    for part in parts:
        if part == f"{GAMES_SLOT}.css":
            paths.extend(game_sheets(sheet))
        elif part == f"{GAMES_LAST_SLOT}.css":
            paths.extend(game_sheets(sheet.replace(".css", "-last.css")))
        else:
            paths.append(source / folder / part)
    return paths


def joined_text(name: str, source: Path = SOURCE) -> str:
    """The text of the joined static file `name`: its parts one after the other."""
    return "".join(path.read_text(encoding="utf-8") for path in part_paths(name, source))


def is_part(name: str) -> bool:
    """A part of a joined file (served only inside it)."""
    return any(name.startswith(folder + "/") for folder, _ in JOINED.values())


class JoiningFinder(FileSystemFinder):
    """STATICFILES_DIRS as Django's finder has them, but each joined file is served joined
    (written under DATA_DIR, as finders hand out paths) and its parts are not served."""

    def joined_root(self) -> Path:
        return Path(settings.DATA_DIR) / "joined-static"

    def joined_path(self, name: str) -> str:
        """The joined file on disk, written again whenever a part changed."""
        out = self.joined_root() / name
        text = joined_text(name)
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            out.parent.mkdir(parents=True, exist_ok=True)
            # Written aside and moved in: test servers and workers may join at the same time.
            tmp = out.with_name(f".{out.name}.{os.getpid()}.{secrets.token_hex(4)}")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, out)
        return str(out)

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        find_all = self._check_deprecated_find_param(find_all=find_all, **kwargs)
        if path in JOINED:
            found = self.joined_path(path)
            return [found] if find_all else found
        if is_part(path):
            return []  # as Django's finders say "not here", found or not
        return super().find(path, find_all=find_all)

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, Any]]:
        for path, storage in super().list(ignore_patterns):
            if not is_part(path.replace(os.sep, "/")):
                yield path, storage
        joined = FileSystemStorage(location=self.joined_root())
        for name in JOINED:
            self.joined_path(name)
            yield name, joined


def is_ours(name: str) -> bool:
    """Our own stylesheets and scripts (not the vendored, already minified files)."""
    vendored = name.startswith("vendor/") or ".min." in name
    return name.endswith((".css", ".js")) and not vendored


def minify(name: str, text: str) -> str:
    """The text a phone receives for the static file `name` (unchanged unless ours)."""
    if not is_ours(name):
        return text
    if name.endswith(".css"):
        return rcssmin.cssmin(text)
    return rjsmin.jsmin(text)


class MinifiedManifestStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's hashed, compressed storage over minified copies of our CSS and JS."""

    def post_process(
        self, paths: dict[str, Any], dry_run: bool = False, **options: Any
    ) -> Iterator:
        if not dry_run:
            for name in list(paths):
                if is_ours(name):
                    with self.open(name) as handle:
                        text = handle.read().decode()
                    small = minify(name, text)
                    if small != text:
                        with open(self.path(name), "w", encoding="utf-8") as out:
                            out.write(small)
                        # Hash and compress the minified copy, not the source.
                        paths[name] = (self, name)
        yield from super().post_process(paths, dry_run=dry_run, **options)
