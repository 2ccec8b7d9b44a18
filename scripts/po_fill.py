#!/usr/bin/env python3
"""Fill or fix entries of the zh_Hans catalog: `scripts/po_fill.py 'ctx|msgid=msgstr' ...`.

A tiny helper for the i18n workflow in tests/read/test_i18n.py: it sets the msgstr of each named
entry (msgctxt optional, before a |) and drops its fuzzy flag. Plural entries are not handled.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PO = Path(__file__).resolve().parent.parent / "companion/locale/zh_Hans/LC_MESSAGES/django.po"


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(pairs: list[str]) -> None:
    text = PO.read_text()
    blocks = text.split("\n\n")
    for pair in pairs:
        key, _, value = pair.partition("=")
        ctx, _, msgid = key.rpartition("|")
        for i, block in enumerate(blocks):
            if f"msgid {quote(msgid)}" not in block:
                continue
            if ctx and f"msgctxt {quote(ctx)}" not in block:
                continue
            block = re.sub(r"#, fuzzy\n", "", block)
            block = re.sub(r"#\| .*\n", "", block)
            block = re.sub(r'msgstr ".*"(\n".*")*', f"msgstr {quote(value)}", block)
            blocks[i] = block
            break
        else:
            raise SystemExit(f"not found: {pair}")
    PO.write_text("\n\n".join(blocks))


if __name__ == "__main__":
    main(sys.argv[1:])
