"""The draft's taps (docs/rules.md §9.7, §9.8): who picks first, a pick, a side's placement, the
undo of a side's last step. A drafted mode's game offers them (`FORMS`, its `forms`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _

from companion.games.draft import actions
from companion.web.fields import Text, Whole
from companion.web.tapform import NoFields, TapForm


class DraftTap(TapForm):
    """A tap whose action is one of the draft's own (`action` names it there)."""


class DraftFirstForm(DraftTap):
    action = staticmethod(actions.draft_first)
    side = Text(_("No such side."))


class DraftPickForm(DraftTap):
    """One hero of the pool, by its position (a face-down one has no other name)."""

    action = staticmethod(actions.draft_pick)
    keywords: ClassVar[Mapping[str, str]] = {"position": "positions"}
    position = Whole(_("That hero is not in the pool."))


class DraftPlaceForm(DraftTap):
    """A side's heroes in the order of its places (three)."""

    action = staticmethod(actions.draft_place)
    first = Text(_("Place exactly the heroes your side's places take."))
    second = Text(_("Place exactly the heroes your side's places take."))
    third = Text(_("Place exactly the heroes your side's places take."))

    def arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"heroes": [data["first"], data["second"], data["third"]]}


class DraftUndoForm(DraftTap, NoFields):
    action = staticmethod(actions.draft_undo)


# The draft's taps, by name (the forms of each drafted mode's game).
FORMS: dict[str, type[TapForm]] = {
    "draftfirst": DraftFirstForm,
    "draftpick": DraftPickForm,
    "draftplace": DraftPlaceForm,
    "draftundo": DraftUndoForm,
}
