"""The history's lines of the table itself: opening, seats, host, lock and options, the deal of
identities and heroes, the hero box, the turn timer and the scoring sessions
(companion.words.history has the registry)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from companion.models import GAME_CORRECTED, SESSION_STARTED
from companion.words.history import hero_name, line
from companion.words.labels import place_label, side_label


def _in_sentence(label: str) -> str:
    """A label that starts a line ("The warm side: commander") inside a sentence."""
    return label[:1].lower() + label[1:]


@line("table_created")
def _table_created(public: dict[str, Any], name: str) -> str:
    return _("Table opened")


@line("seat_joined")
def _seat_joined(public: dict[str, Any], name: str) -> str:
    return _("%(name)s joined") % {"name": name}


@line("seat_moved")
def _seat_moved(public: dict[str, Any], name: str) -> str:
    return _("%(name)s moved to seat %(pos)s") % {
        "name": name,
        "pos": int(public.get("position", 0)) + 1,
    }


@line("seat_removed")
def _seat_removed(public: dict[str, Any], name: str) -> str:
    return _("%(name)s was removed") % {"name": name}


@line("seat_handed_over")
def _seat_handed_over(public: dict[str, Any], name: str) -> str:
    if public.get("by_host"):
        return _("%(name)s's seat moved to a new phone, by the host") % {"name": name}
    return _("%(name)s's seat moved to another phone") % {"name": name}


@line("seat_handover_requested")
def _seat_handover_requested(public: dict[str, Any], name: str) -> str:
    return _(
        "%(name)s's seat is moving to a new phone, by the host: in %(s)s seconds unless "
        "%(name)s's phone refuses or someone objects"
    ) % {"name": name, "s": public.get("seconds")}


@line("seat_handover_cancelled")
def _seat_handover_cancelled(public: dict[str, Any], name: str) -> str:
    if public.get("by_name"):
        return _("%(by)s objected: %(name)s's seat stays on its phone") % {
            "by": public.get("by_name"),
            "name": name,
        }
    return _("The move of %(name)s's seat to a new phone was stopped") % {"name": name}


@line("host_passed")
def _host_passed(public: dict[str, Any], name: str) -> str:
    return _("%(name)s is now the host") % {"name": name}


@line("table_locked")
def _table_locked(public: dict[str, Any], name: str) -> str:
    return _("Table locked")


@line("table_unlocked")
def _table_unlocked(public: dict[str, Any], name: str) -> str:
    return _("Table unlocked")


@line("options_changed")
def _options_changed(public: dict[str, Any], name: str) -> str:
    return _("Table options changed")


@line("identities_dealt")
def _identities_dealt(public: dict[str, Any], name: str) -> str:
    if public.get("role"):
        return _("Identities dealt: %(name)s is %(role)s") % {
            "name": public.get("lord_name", ""),
            "role": _in_sentence(place_label(public["role"])),
        }
    return _("Identities dealt: %(name)s is the Lord") % {"name": public.get("lord_name", "")}


@line("identities_redealt")
def _identities_redealt(public: dict[str, Any], name: str) -> str:
    if public.get("role"):
        return _("Identities dealt again: %(name)s is %(role)s") % {
            "name": public.get("lord_name", ""),
            "role": _in_sentence(place_label(public["role"])),
        }
    return _("Identities dealt again: %(name)s is the Lord") % {"name": public.get("lord_name", "")}


@line("game_started")
def _game_started(public: dict[str, Any], name: str) -> str:
    return _("The game has started")


@line("heroes_lord_choosing")
def _heroes_lord_choosing(public: dict[str, Any], name: str) -> str:
    return _("%(name)s, the Lord, is choosing a hero") % {"name": name}


@line("hero_lord_picked")
def _hero_lord_picked(public: dict[str, Any], name: str) -> str:
    return _("The Lord %(name)s plays %(hero)s") % {
        "name": name,
        "hero": hero_name(public.get("hero", ""), public),
    }


@line("hero_picked")
def _hero_picked(public: dict[str, Any], name: str) -> str:
    return _("%(name)s has chosen a hero (%(n)s of %(of)s)") % {
        "name": name,
        "n": public.get("picked"),
        "of": public.get("of"),
    }


@line("hero_repicked")
def _hero_repicked(public: dict[str, Any], name: str) -> str:
    return _("%(name)s changed their choice (%(n)s of %(of)s)") % {
        "name": name,
        "n": public.get("picked"),
        "of": public.get("of"),
    }


@line("heroes_revealed")
def _heroes_revealed(public: dict[str, Any], name: str) -> str:
    return _("All heroes revealed: take your hero card from the box")


@line("heroes_redealt")
def _heroes_redealt(public: dict[str, Any], name: str) -> str:
    return _("The host dealt the hero candidates again")


@line("my_hero_picked")
def _my_hero_picked(public: dict[str, Any], name: str) -> str:
    return _("You chose %(hero)s") % {"hero": hero_name(public["hero"], public)}


@line("box_changed")
def _box_changed(public: dict[str, Any], name: str) -> str:
    """A change of the table's hero box (companion.actions.box_offers)."""
    what = public.get("what")
    hero = hero_name(public.get("hero", ""), public)
    if what == "add":
        return _("The host added %(hero)s to the hero box") % {"hero": hero}
    if what == "remove":
        return _("The host took %(hero)s out of the hero box") % {"hero": hero}
    if what == "off":
        return _("The host took %(hero)s out of the hero box") % {"hero": hero}
    if what == "on":
        return _("The host put %(hero)s back in the hero box") % {"hero": hero}
    return _("The host imported a hero box")


@line("timer")
def _timer(public: dict[str, Any], name: str) -> str:
    if public.get("seconds"):
        return _("Turn timer: %(s)s seconds") % {"s": public.get("seconds")}
    return _("Turn timer off")


# Scoring sessions (companion.actions.sessions) -----------------------------------------------


@line(SESSION_STARTED)
def _session_started(public: dict[str, Any], name: str) -> str:
    if public.get("tournament"):
        return _("Tournament session %(n)s started: %(name)s is the first Lord") % {
            "n": public.get("session"),
            "name": public.get("first_lord_name", ""),
        }
    return _("Session %(n)s started") % {"n": public.get("session")}


def _names_of_change(item: dict[str, Any]) -> str:
    name = item.get("name", "")
    what = item.get("what")
    if what == "killer":
        if item.get("now_name"):
            return _("%(name)s was killed by %(killer)s") % {
                "name": name,
                "killer": item["now_name"],
            }
        return _("%(name)s died with no killer") % {"name": name}
    if what == "alive":
        if item.get("now"):
            return _("%(name)s was alive at the end") % {"name": name}
        return _("%(name)s was dead at the end") % {"name": name}
    if what == "final_duel":
        if item.get("now"):
            return _("%(name)s lost the final duel") % {"name": name}
        return _("%(name)s did not die in the final duel") % {"name": name}
    return name


@line(GAME_CORRECTED)
def _game_corrected(public: dict[str, Any], name: str) -> str:
    text = _("The host corrected game %(n)s") % {"n": public.get("game")}
    parts = [_names_of_change(item) for item in public.get("changes", [])]
    if public.get("winner") != public.get("winner_before"):
        parts.append(side_label(public.get("winner", "")))
    return f"{text}: {'; '.join(parts)}" if parts else text
