"""A table's scoring: its sessions (an evening of games by the same people, or a tournament)
and its games (one per deal, with the results and scores), which `companion.actions.sessions`
and the end of a game write and the standings read."""

from __future__ import annotations

from django.db import models


class Session(models.Model):
    """An evening of games at one table by the same people, scored together."""

    table = models.ForeignKey("companion.Table", on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Tournament (推广版计分赛): the lord passes round the seats in this order, once each.
    tournament = models.BooleanField(default=False)
    lord_order = models.JSONField(default=list, blank=True)
    # Who played: seat id -> name at the time, so exports survive seats leaving.
    players = models.JSONField(default=dict, blank=True)
    # The session's hero box (`rules.box.Box.stored()`: the standard heroes switched
    # off, the heroes the table added); empty: the standard 25. Read through
    # `queries.box.table_box`.
    box = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="session_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/s{self.number}"


class Game(models.Model):
    """One game at a table, from the deal to the end; its events share its number."""

    table = models.ForeignKey("companion.Table", on_delete=models.CASCADE, related_name="games")
    session = models.ForeignKey(
        "companion.Session", null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    winner = models.CharField(max_length=16, blank=True, default="")
    # Filled at the end: one entry per seat (name, identity, hero, alive, killer, kills...).
    results = models.JSONField(default=list, blank=True)
    # Filled at the end and on corrections: seat id -> score breakdown lines and total.
    scores = models.JSONField(default=dict, blank=True)
    # The table's options at the deal (the mode's stored options: the variants on).
    options = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.number}"
