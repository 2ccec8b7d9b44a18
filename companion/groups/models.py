"""A group's stored truth: the group, its players, its evenings and its finished games.

Written only by companion.groups.services. The games are copies of the core's finished games
(`companion.models.Game`), one row per player, so the group page reads three tables whatever the
number of evenings, and an imported history (from another laptop) sits beside the local one.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q

from companion.models import Game, Session, new_token

NAME_MAX_LENGTH = 24


def new_uid() -> str:
    """A stable id that travels with an export, so one person stays one person on import."""
    return uuid.uuid4().hex


class Group(models.Model):
    """People who play together on many evenings (周五三国杀)."""

    name = models.CharField(max_length=NAME_MAX_LENGTH)
    # The group page's address: 192 bits from secrets (companion.models.new_token).
    token = models.CharField(max_length=64, unique=True, default=new_token)
    uid = models.CharField(max_length=32, unique=True, default=new_uid)
    # Bumped by every write of the group's games or players: what the page computed for one
    # version (the ratings) is kept in the cache under it.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """One person across the group's evenings. A merged entry points at the one it joined."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    uid = models.CharField(max_length=32, default=new_uid)
    # The phones (Seat.device) this person has played from: a phone seen again is recognised.
    devices = models.JSONField(default=list, blank=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["group", "uid"], name="group_player_uid_unique")
        ]

    def __str__(self) -> str:
        return self.name


class Evening(models.Model):
    """A session (an evening at one table) played as one of the group's evenings."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="evenings")
    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="+")
    attached_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.group_id}:{self.session_id}"


class SeatLink(models.Model):
    """A seat of an evening played by one of the group's players, and how it was recognised."""

    class How(models.TextChoices):
        DEVICE = "device"  # the phone played for this person before
        NAME = "name"  # the same name; the phone is asked to confirm
        NEW = "new"  # nobody matched: a new player
        HOST = "host"  # the host chose

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="links")
    seat = models.PositiveBigIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="links")
    how = models.CharField(max_length=8, choices=How.choices)
    confirmed = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["evening", "seat"], name="group_seat_link_unique")
        ]

    def __str__(self) -> str:
        return f"{self.seat}->{self.player_id}"


class GroupGame(models.Model):
    """A finished game of the group, copied from the core's record (or imported)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    evening = models.ForeignKey(
        Evening, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uid = models.CharField(max_length=32, default=new_uid)
    mode = models.CharField(max_length=16)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField()
    winner = models.CharField(max_length=16)

    class Meta:
        ordering = ["ended_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["group", "uid"], name="group_game_uid_unique"),
            models.CheckConstraint(
                condition=Q(ended_at__gte=models.F("started_at")), name="group_game_ends_after"
            ),
        ]
        indexes = [models.Index(fields=["group", "ended_at"], name="group_game_by_end")]

    def __str__(self) -> str:
        return f"{self.group_id}:{self.mode}@{self.ended_at}"


class GroupResult(models.Model):
    """One player's part in one of the group's games (public: the game is over)."""

    game = models.ForeignKey(GroupGame, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    position = models.PositiveSmallIntegerField(default=0)
    identity = models.CharField(max_length=16)
    # The mode's words for the seat ("warm_commander"), empty where the identity says it.
    role = models.CharField(max_length=24, blank=True, default="")
    # The team the rating counts this seat in (Mode.rating_team), and whether it led.
    team = models.CharField(max_length=24)
    leader = models.BooleanField(default=False)
    hero = models.CharField(max_length=16, blank=True, default="")
    alive = models.BooleanField()
    won = models.BooleanField()
    kills = models.PositiveSmallIntegerField(default=0)
    points = models.IntegerField(default=0)

    class Meta:
        ordering = ["game_id", "position"]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.name}"
