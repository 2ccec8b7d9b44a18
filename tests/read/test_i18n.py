"""The Simplified Chinese catalog (companion/locale/zh_Hans) is complete, compiled and in use.

UI strings are English msgids in templates and companion/*.py; zh-hans is the default language.
After adding or changing a UI string, refresh the catalog, translate, compile, and commit both
the .po and the .mo:

    cd /work/main
    .venv/bin/python manage.py makemessages -l zh_Hans --no-location --no-obsolete \\
        --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench
    # fill every empty msgstr (plurals: msgstr[0] only) and delete every "#, fuzzy" flag in
    # companion/locale/zh_Hans/LC_MESSAGES/django.po, then:
    .venv/bin/python manage.py compilemessages --ignore=.venv
    .venv/bin/python -m pytest -q tests/read/test_i18n.py

The tests check that every entry is translated and not fuzzy, with the same placeholders; that
django.mo holds exactly what django.po says; that makemessages, run on a temporary copy of the
project, finds no string the .po lacks and none it no longer needs; and that Django serves the
catalog for zh-hans while English stays English.
"""

from __future__ import annotations

import gettext as pygettext
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

BASE_DIR = Path(__file__).resolve().parents[2]
LC_MESSAGES = BASE_DIR / "companion" / "locale" / "zh_Hans" / "LC_MESSAGES"
PO_PATH = LC_MESSAGES / "django.po"
MO_PATH = LC_MESSAGES / "django.mo"
# The same --ignore list as the makemessages command in the module docstring.
MAKEMESSAGES_IGNORE = [".venv", "staticfiles", "tests", "bench"]
REFRESH_HINT = "refresh the catalog with the commands at the top of tests/read/test_i18n.py"
PLACEHOLDER = re.compile(r"%\(\w+\)[a-z]|%%|%[a-z]")


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return (self.msgctxt, self.msgid, self.msgid_plural)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    text = text.strip()
    assert text.startswith('"') and text.endswith('"'), f"not a PO string: {text!r}"
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], "\\" + m[1]), text[1:-1])


def parse_po(path: Path) -> list[Entry]:
    """A minimal PO reader: msgctxt, msgid, msgid_plural, msgstr[N], flags, obsolete (#~)."""
    entries: list[Entry] = []
    entry: Entry | None = None
    has_msgid = False  # whether `entry` has had its msgid line
    target: tuple[str, int] | None = None  # the field continuation lines append to

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            entry, target = None, None
            continue
        if line.startswith("#") and not line.startswith("#,"):
            continue
        if line.startswith('"'):
            assert entry is not None and target is not None, f"stray string line: {raw!r}"
            name, index = target
            if name == "msgstr":
                entry.msgstr[index] += _unquote(line)
            else:
                setattr(entry, name, (getattr(entry, name) or "") + _unquote(line))
            continue
        keyword, _, value = ("#,", "", "") if line.startswith("#,") else line.partition(" ")
        # Flags, msgctxt or msgid begin a new entry unless the current one is still at its start
        # (the entry after the header may follow it without a blank line).
        starting = keyword in ("#,", "msgctxt", "msgid")
        if starting and (
            entry is None
            or entry.msgstr
            or has_msgid
            or (keyword != "msgid" and entry.msgctxt is not None)
        ):
            entry, has_msgid, target = Entry(), False, None
            entries.append(entry)
        if keyword == "#,":
            assert entry is not None
            entry.flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            continue
        assert entry is not None, f"unexpected line: {raw!r}"
        entry.obsolete = entry.obsolete or obsolete
        match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if match:
            target = ("msgstr", int(match[1]))
            entry.msgstr[target[1]] = _unquote(value)
        elif keyword == "msgstr":
            target = ("msgstr", 0)
            entry.msgstr[0] = _unquote(value)
        elif keyword in ("msgctxt", "msgid", "msgid_plural"):
            target = (keyword, 0)
            setattr(entry, keyword, _unquote(value))
            has_msgid = has_msgid or keyword == "msgid"
        else:
            raise AssertionError(f"unknown PO keyword in {path}: {raw!r}")
    return entries


def _live(entries: list[Entry]) -> list[Entry]:
    """Every entry but the header and obsolete (#~) ones."""
    return [e for e in entries if e.msgid and not e.obsolete]


def _header(entries: list[Entry]) -> dict[str, str]:
    header = next(e for e in entries if not e.msgid and e.msgctxt is None)
    assert "fuzzy" not in header.flags, "the .po header is marked fuzzy"
    pairs = (line.partition(":") for line in header.msgstr[0].splitlines() if line)
    return {name.strip(): value.strip() for name, _, value in pairs}


def _mo_key(entry: Entry, index: int | None = None) -> str | tuple[str, int]:
    msgid = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
    return msgid if index is None else (msgid, index)


@pytest.fixture(scope="module")
def po_entries() -> list[Entry]:
    assert PO_PATH.exists(), f"{PO_PATH} is missing; {REFRESH_HINT}"
    return parse_po(PO_PATH)


# (a) Every entry translated, none fuzzy, placeholders kept, header right.


def test_po_header_is_simplified_chinese_utf8_one_plural_form(po_entries: list[Entry]) -> None:
    header = _header(po_entries)
    assert header["Language"] == "zh_Hans"
    assert header["Content-Type"] == "text/plain; charset=UTF-8"
    assert header["Plural-Forms"].replace(" ", "") == "nplurals=1;plural=0;"


def test_every_msgid_is_translated_and_none_is_fuzzy(po_entries: list[Entry]) -> None:
    entries = _live(po_entries)
    assert entries, "the .po has no messages"
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    empty = [e.msgid for e in entries if not all(e.msgstr.values())]
    plural_shape = [
        e.msgid for e in entries if e.msgid_plural is not None and sorted(e.msgstr) != [0]
    ]
    assert not fuzzy, f"fuzzy entries (check the translation, drop the flag): {fuzzy}"
    assert not empty, f"untranslated entries: {empty}"
    assert not plural_shape, f"plural entries need exactly msgstr[0] (nplurals=1): {plural_shape}"


def test_translations_keep_the_placeholders(po_entries: list[Entry]) -> None:
    wrong = []
    for entry in _live(po_entries):
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        for translated in entry.msgstr.values():
            if sorted(PLACEHOLDER.findall(translated)) != wanted:
                wrong.append((entry.msgid, translated))
    assert not wrong, f"placeholders differ from the msgid: {wrong}"


def test_po_passes_msgfmt_check() -> None:
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt (GNU gettext) is not on PATH")
    result = subprocess.run(
        ["msgfmt", "--check", "--output-file=/dev/null", str(PO_PATH)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


# (b) The compiled .mo says exactly what the .po says.


def test_mo_is_up_to_date_with_po(po_entries: list[Entry]) -> None:
    assert MO_PATH.exists(), f"{MO_PATH} is missing; run compilemessages ({REFRESH_HINT})"
    with MO_PATH.open("rb") as fp:
        catalog = dict(pygettext.GNUTranslations(fp)._catalog)
    catalog.pop("", None)  # the header
    expected: dict[str | tuple[str, int], str] = {}
    for entry in _live(po_entries):
        if entry.msgid_plural is None:
            expected[_mo_key(entry)] = entry.msgstr[0]
        else:
            for index, text in entry.msgstr.items():
                expected[_mo_key(entry, index)] = text
    stale = {k: (catalog.get(k), v) for k, v in expected.items() if catalog.get(k) != v}
    extra = sorted(str(k) for k in catalog.keys() - expected.keys())
    assert not stale, f"django.mo differs from django.po (run compilemessages): {stale}"
    assert not extra, f"django.mo has messages django.po lacks (run compilemessages): {extra}"


# (c) makemessages finds nothing new in the source, and nothing in the .po has gone.


def _copy_ignore(directory: str, names: list[str]) -> set[str]:
    top = Path(directory).resolve() == BASE_DIR
    return {
        name
        for name in names
        if name.startswith(".")
        or name == "__pycache__"
        or name.endswith((".pyc", ".mo"))
        or (top and name in MAKEMESSAGES_IGNORE)
    }


def test_makemessages_finds_no_new_or_removed_strings(
    po_entries: list[Entry], tmp_path: Path, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    needed = ("xgettext", "msguniq", "msgmerge", "msgattrib")
    missing = [program for program in needed if shutil.which(program) is None]
    if missing:
        pytest.skip(f"GNU gettext tools not on PATH: {', '.join(missing)}")
    # makemessages walks the current directory and writes into any locale/ dir it meets, so it
    # runs on a copy of the project: the real .po is never touched.
    root = tmp_path / "project"
    shutil.copytree(BASE_DIR, root, ignore=_copy_ignore)
    copy_po = root / PO_PATH.relative_to(BASE_DIR)
    assert copy_po.exists()
    settings.LOCALE_PATHS = [root / "companion" / "locale"]
    monkeypatch.chdir(root)
    call_command(
        "makemessages",
        locale=["zh_Hans"],
        no_location=True,
        no_obsolete=True,
        ignore_patterns=MAKEMESSAGES_IGNORE,
        verbosity=0,
    )
    refreshed = _live(parse_po(copy_po))
    before = {e.key for e in _live(po_entries)}
    after = {e.key for e in refreshed}
    new = sorted(key[1] for key in after - before)
    gone = sorted(key[1] for key in before - after)
    assert not (new or gone), (
        f"django.po is behind the source ({REFRESH_HINT}); "
        f"new strings: {new}; strings no longer used: {gone}"
    )
    untranslated = [e.msgid for e in refreshed if "fuzzy" in e.flags or not all(e.msgstr.values())]
    assert not untranslated, f"untranslated after makemessages ({REFRESH_HINT}): {untranslated}"


# (d) Django serves the catalog: Chinese for zh-hans, English msgids for en.


@pytest.mark.parametrize(
    ("msgid", "chinese"),
    [
        ("Lord", "主公"),
        ("Loyalist", "忠臣"),
        ("Rebel", "反贼"),
        ("Renegade", "内奸"),
        ("Host", "房主"),
        ("Table code", "桌号"),
        ("Deal identities", "发身份"),
        ("Your identity", "你的身份"),
    ],
)
def test_zh_hans_gets_chinese_and_en_keeps_english(msgid: str, chinese: str) -> None:
    with translation.override("zh-hans"):
        assert translation.gettext(msgid) == chinese
    with translation.override("en"):
        assert translation.gettext(msgid) == msgid


def test_plural_and_placeholders_at_runtime() -> None:
    with translation.override("zh-hans"):
        for n in (1, 5):
            text = translation.ngettext("%(n)s player", "%(n)s players", n) % {"n": n}
            assert text == f"{n} 人"
        joined = translation.gettext("%(name)s joined") % {"name": "刘备"}
        assert joined == "刘备 入座"
    with translation.override("en"):
        assert translation.ngettext("%(n)s player", "%(n)s players", 5) % {"n": 5} == "5 players"


def test_every_catalog_entry_wins_over_other_catalogs(po_entries: list[Entry]) -> None:
    """LOCALE_PATHS comes first, so Django's own zh_Hans strings ("Close", ...) never leak in."""
    wrong = {}
    with translation.override("zh-hans"):
        for entry in _live(po_entries):
            if entry.msgid_plural is not None:
                got = translation.ngettext(entry.msgid, entry.msgid_plural, 2)
            elif entry.msgctxt is not None:
                got = translation.pgettext(entry.msgctxt, entry.msgid)
            else:
                got = translation.gettext(entry.msgid)
            if got != entry.msgstr[0]:
                wrong[entry.msgid] = got
    assert not wrong, f"zh-hans does not get the catalog's translation: {wrong}"
