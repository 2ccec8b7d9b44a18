"""The read side of a session of several games: its summary, finished games, standings, timelines,
exports and the live panel (only reads; the writes are in companion.actions.sessions)."""
