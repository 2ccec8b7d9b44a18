"""The read side (only reads): a seat's private state (private.py), the history lines (history.py)
and a change's delta (delta.py) beside the public state (companion.read.state); and of a session of
several games its summary, finished games, standings, timelines, exports and the live panel (the
writes are in companion.actions.sessions)."""
