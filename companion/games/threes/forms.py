"""3 vs 3's lobby taps: a player joins a team, a team member takes its command. Its game offers
them beside the draft's (`FORMS`, its `forms`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from django.utils.translation import gettext_lazy as _

from companion.games.threes import actions
from companion.web.fields import Choice, SeatId
from companion.web.tapform import TapForm


class TeamForm(TapForm):
    action = staticmethod(actions.team_join)
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id"}
    team = Choice(("0", "1"), _("No such team."))
    seat = SeatId(required=False)  # none: the tapping seat


class CommanderForm(TapForm):
    action = staticmethod(actions.team_commander)
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id"}
    seat = SeatId(required=False)  # none: the tapping seat


# The lobby's taps, by name.
FORMS: dict[str, type[TapForm]] = {
    "team": TeamForm,
    "commander": CommanderForm,
}
