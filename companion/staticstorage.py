"""Static files as served: our own CSS and JavaScript minified, then hashed and compressed.

The sources keep their comments (they explain the code); a phone on a café's Wi-Fi should not
download them. `collectstatic` copies the files, this storage minifies the copies of our own
`.css` and `.js` (rcssmin and rjsmin: conservative minifiers that drop comments and white space
and rename nothing) and then lets WhiteNoise hash and compress them as before. Vendored files are
already minified and are left alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import rcssmin
import rjsmin
from whitenoise.storage import CompressedManifestStaticFilesStorage


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
