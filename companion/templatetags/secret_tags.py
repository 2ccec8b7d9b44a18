"""The covered identity card's words, each as long as its longest alternative.

A living non-lord's private fragment must have the same size whether the seat is a loyalist, a
rebel or a renegade: a frame's length is visible on the network even when its text is not. Each
identity-dependent piece is padded with spaces to the greatest UTF-8 length any secret identity
gives it in the active language (trailing spaces inside an element or a class list show
nothing), so the whole fragment's length cannot depend on the identity.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext

from companion.words.labels import identity_label

register = template.Library()

# The identities a living seat keeps secret; the lord's is public and shown another way.
SECRET = ("loyalist", "rebel", "renegade")


def padded(identity: str | None, word: Callable[[str], str]) -> SafeString:
    """`word(identity)` escaped, padded with spaces to the longest `word` of any secret one."""
    texts = {ident: str(conditional_escape(word(ident))) for ident in SECRET}
    text = texts.get(identity or "", str(conditional_escape(word(identity or ""))))
    width = max(len(t.encode()) for t in texts.values())
    return mark_safe(text + " " * max(0, width - len(text.encode())))  # noqa: S308 - escaped


# A phone's private frame (a dying seat's, a 桃's) pads three words, each against every secret
# identity's: the words of a language do not change, so each is padded once per process.
@lru_cache(maxsize=256)
def _padded(kind: str, identity: str, lang: str | None) -> SafeString:
    return padded(identity, _WORDS[kind])


def reminder_word(identity: str) -> str:
    """The one-character reminder of an identity (反/忠/内, Reb/Loy/Ren)."""
    words = {
        "loyalist": pgettext("identity reminder", "Loy"),
        "rebel": pgettext("identity reminder", "Reb"),
        "renegade": pgettext("identity reminder", "Ren"),
    }
    return words.get(identity, "")


@register.simple_tag
def secret_class(identity: str | None) -> SafeString:
    """`idn-<identity>`, padded: the class the held card takes its colour from."""
    return _padded("class", identity or "", get_language())


@register.simple_tag
def secret_label(identity: str | None) -> SafeString:
    """The identity's name, padded."""
    return _padded("label", identity or "", get_language())


@register.simple_tag
def secret_reminder(identity: str | None) -> SafeString:
    """The identity's one-character reminder, padded."""
    return _padded("reminder", identity or "", get_language())


_WORDS: dict[str, Callable[[str], str]] = {
    "class": lambda ident: f"idn-{ident}",
    "label": identity_label,
    "reminder": reminder_word,
}
