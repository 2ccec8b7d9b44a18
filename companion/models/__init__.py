"""The stored truth of a table. Every change goes through companion.actions. A table's
scoring (its sessions and games) is in `companion.models.scoring`, its models named here too."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower

from companion.infra.fastsql import built, loaded_copy
from companion.models.scoring import Game as Game
from companion.models.scoring import Session as Session
from companion.rules import modes

# The seat limits are the rules' (docs/rules.md §1): written once, in companion.rules.identities.
from companion.rules.identities import MAX_PLAYERS as MAX_SEATS
from companion.rules.identities import MIN_PLAYERS as MIN_PLAYERS

NAME_MAX_LENGTH = 16
# No 0/O, 1/I/L: the code is read aloud across a table.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


def new_token() -> str:
    """An unguessable credential: 192 bits from secrets, 32 url-safe characters."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """A short table code that is easy to read aloud."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Table(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        DEALT = "dealt"
        HEROES = "heroes"
        PLAYING = "playing"
        FINISHED = "finished"

    class HeroStage(models.TextChoices):
        # The mode's leader chooses first, then the others. The stored value and its label
        # keep the identity game's word (the lord), so no migration follows the rename.
        NONE = ""
        LEADER = "lord", "Lord"
        OTHERS = "others"

    code = models.CharField(max_length=8, unique=True)
    host_token = models.CharField(max_length=64, unique=True, default=new_token)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    locked = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    game_number = models.PositiveIntegerField(default=0)
    # The way to play (companion.rules.modes) and its options, validated by the mode and kept in
    # one field; read them typed through `opts`.
    mode = models.CharField(max_length=16, default=modes.DEFAULT)
    options = models.JSONField(default=dict, blank=True)
    hero_stage = models.CharField(max_length=8, choices=HeroStage.choices, blank=True, default="")
    winner = models.CharField(max_length=16, blank=True, default="")
    # Turns and phases (public): whose turn, which round and phase, phases skipped this turn.
    turn_seat = models.ForeignKey(
        "Seat", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    round = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=16, blank=True, default="")
    phase_skips = models.JSONField(default=list, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    phase_started_at = models.DateTimeField(null=True, blank=True)
    # An optional reminder timer per turn, in seconds (0: off). It never acts.
    timer_seconds = models.PositiveIntegerField(default=0)
    # A judgement flipped but not yet resolved (鬼才 may still replace the card).
    pending_judgement = models.JSONField(default=dict, blank=True)
    # A mode's own state beyond the identity game's (docs/modes.md): the teams,
    # the draft, the placement, the go and the fallen heroes, plain data the rules read back.
    # It holds secrets (a placement before the reveal, a face-down hero): the screens read it
    # only through companion.read.modeview, never whole.
    # A game package (companion/games/<key>/) keeps its state under its key, read through its
    # own actions module.
    mode_state = models.JSONField(default=dict, blank=True)
    # Sessions and tournaments (scoring): the session games at this table now belong to.
    session = models.ForeignKey(
        "Session", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The languages the table's screens have spoken (bit i: settings.LANGUAGES[i]; 0: none known,
    # so every language): each change is rendered in these. Set when a screen connects
    # (companion.live.broadcast.note_language) and read with the row every tap locks anyway, so a
    # change asks nobody else (it was a Redis round trip per tap). Not the table's state: no
    # version, no event; the actions never write it.
    screen_langs = models.PositiveSmallIntegerField(default=0)
    # `opts` as last parsed: (mode, options as parsed, the options); not a field.
    _opts_kept: tuple[str, dict[str, Any], modes.TableOptions] | None = None

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["lobby", "dealt", "heroes", "playing", "finished"]),
                name="table_status_valid",
            )
        ]

    def __str__(self) -> str:
        return self.code

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Table:
        """Remember the values as read, so a save can write only what an action changed."""
        instance = built(cls, db, field_names, values)
        instance._loaded_values = {
            name: loaded_copy(value) if isinstance(value, list | dict) else value
            for name, value in zip(field_names, values, strict=False)
        }
        return instance

    @property
    def opts(self) -> modes.TableOptions:
        """This table's options, typed by its mode: parsed once per mode and options value and
        kept (`modes.options_of` shares them between tables); a change of `options` or `mode`, in
        place too, is read next time."""
        raw = self.options or {}
        kept = self._opts_kept
        if kept is not None and kept[0] == self.mode and kept[1] == raw:
            return kept[2]
        parsed = modes.options_of(self.mode, raw)
        self._opts_kept = (self.mode, dict(raw), parsed)
        return parsed

    @property
    def group(self) -> str:
        """The channels group every screen of this table listens on."""
        return f"table.{self.code}"

    @property
    def host_group(self) -> str:
        """The channels group of whoever holds host rights."""
        return f"host.{self.code}"


class Seat(models.Model):
    class Identity(models.TextChoices):
        NONE = ""
        LORD = "lord"
        LOYALIST = "loyalist"
        REBEL = "rebel"
        RENEGADE = "renegade"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # slot: a capacity ticket, 0..9 and unique per table, so the database itself refuses an 11th
    # seat; position: the play order, which the host rearranges to match the physical seating.
    slot = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    device = models.CharField(max_length=64, blank=True, default="")
    is_host = models.BooleanField(default=False)
    identity = models.CharField(max_length=16, choices=Identity.choices, blank=True, default="")
    alive = models.BooleanField(default=True)
    # Heroes: candidates and an unrevealed pick are private to this seat until every pick is in.
    hero = models.CharField(max_length=16, blank=True, default="")
    hero_candidates = models.JSONField(default=list, blank=True)
    hero_pick = models.CharField(max_length=16, blank=True, default="")
    hp = models.SmallIntegerField(default=0)
    max_hp = models.SmallIntegerField(default=0)
    dying = models.BooleanField(default=False)
    # The source of the damage that brought this seat to dying: the killer if it dies.
    damage_source = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    killer = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="kills"
    )
    died_version = models.PositiveIntegerField(null=True, blank=True)
    final_duel = models.BooleanField(default=False)
    equipment = models.JSONField(default=dict, blank=True)
    judgement_zone = models.JSONField(default=list, blank=True)
    # An expansion's (docs/rules.md §9.9, its game package writes them): chained by 铁索连环;
    # this turn's 酒 ("" none, "active" the next 杀 deals +1, "spent" drunk and used).
    chained = models.BooleanField(default=False)
    wine = models.CharField(max_length=8, blank=True, default="")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "slot"]
        constraints = [
            models.CheckConstraint(condition=Q(slot__lt=MAX_SEATS), name="seat_slot_range"),
            models.UniqueConstraint(fields=["table", "slot"], name="seat_slot_unique"),
            models.UniqueConstraint("table", Lower("name"), name="seat_name_unique"),
            models.UniqueConstraint(
                fields=["table", "device"], condition=~Q(device=""), name="seat_device_unique"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(is_host=True), name="seat_one_host"
            ),
            models.CheckConstraint(condition=Q(hp__lte=F("max_hp")), name="seat_hp_at_most_max"),
            models.CheckConstraint(condition=Q(max_hp__gte=0), name="seat_max_hp_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code}:{self.position}:{self.name}"

    @property
    def group(self) -> str:
        """The channels group of this seat's own phone(s)."""
        return f"seat.{self.pk}"


# The event kinds of a scoring session, written by companion.actions.sessions and read by the
# session's screens and history words: kept here, below both, so the words import no action.
SESSION_STARTED = "session_started"
GAME_CORRECTED = "game_corrected"
# The draw pile made again (companion.actions.deck), which the live odds start over from
# (companion.read.deck).
RESHUFFLED = "deck_reshuffled"


class Event(models.Model):
    """One change of a table: who, what, before and after. Append-only.

    `before`/`after` are the full record for audit and undo and may hold secrets; screens are
    only ever given `public` (shown to all, or only to `private_to` when that is set).
    """

    # Every tap appends one row, and SQLite writes a page for each index an INSERT touches: the
    # foreign keys below carry no index of their own. `table` is covered by (table, version);
    # events are never looked up by actor or subject alone, only within a table.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    version = models.PositiveIntegerField()
    game_number = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=32)
    actor = models.CharField(max_length=32)
    actor_seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    subject_seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    private_to = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="private_events"
    )
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    public = models.JSONField(default=dict)
    action_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # Undo: whether "undo my last change" may pick this event, and the version of the undo that
    # reverted it. The partial index "event_undo_last" holds only undoable events not undone yet,
    # so a seat's last one is one index step away whatever the length of the history.
    undoable = models.BooleanField(default=False)
    undone_by = models.PositiveIntegerField(null=True, blank=True)
    # The tap that made it, for the double-tap window across processes (companion.web.taps):
    # a hash of its screen, action and fields, and when it arrived (seconds since the epoch).
    # Empty for a tap that may never be merged (`repeat`), a retry, and changes that are no tap.
    tap_key = models.CharField(max_length=32, blank=True, default="")
    tapped_at = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["version", "pk"]
        indexes = [
            models.Index(fields=["table", "version"]),
            models.Index(
                fields=["table", "actor_seat", "version"],
                condition=Q(undoable=True, undone_by__isnull=True),
                name="event_undo_last",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "action_id"],
                condition=~Q(action_id="") & Q(private_to__isnull=True),
                name="event_action_once",
            ),
            models.UniqueConstraint(
                fields=["table", "version"],
                condition=Q(private_to__isnull=True),
                name="event_version_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}@{self.version}:{self.kind}"


class TapOutcome(models.Model):
    """What became of a tap that changed nothing: refused (with its answer) or merged with an
    identical tap just before it. Written under the table's lock in the same transaction as the
    attempt (companion.dispatch), so every copy of the tap (its socket message, its HTTP retry,
    in any process) gets the answer the first one got. An applied tap is in the event log."""

    class Kind(models.TextChoices):
        REFUSED = "refused"
        MERGED = "merged"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    action_id = models.CharField(max_length=64)
    actor = models.CharField(max_length=32)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.PositiveSmallIntegerField(default=0)
    message = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "action_id"], name="tap_outcome_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.action_id}:{self.kind}"


class Handover(models.Model):
    """A seat moving to another phone (docs/handover.md).

    The link the new phone scans carries `claim_token`, never the seat's token: the first phone
    that claims a ready handover is given a seat token nobody else has seen, and the link is
    spent. One the host asks for while the seat holds secrets waits (`pending`) until the seat's
    own phone agrees, or until every screen has shown it for the delay with nobody objecting.
    """

    class State(models.TextChoices):
        PENDING = "pending"
        READY = "ready"
        CLAIMED = "claimed"
        CANCELLED = "cancelled"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="handovers")
    claim_token = models.CharField(max_length=64, unique=True, default=new_token)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    # Whether the seat's phone agreed, or the table was told and did not object.
    consented = models.BooleanField(default=False)
    requested_by = models.CharField(max_length=32)
    not_before = models.DateTimeField()
    action_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "state"], name="handover_table_state")]

    def __str__(self) -> str:
        return f"{self.seat_id}:{self.state}"
