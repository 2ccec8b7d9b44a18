"""A group's all-time table: one Django app above the core, which never imports it.

A group (周五三国杀) gathers evenings (sessions) played by the same people. Its players are
persons across evenings, each seat of an attached evening linked to one of them; its games are
copied from the finished games' stored records (`Game.results`, `Game.scores`) when a game ends
or the evening is attached, so the group page reads only this app's rows and never a game in
progress. See docs/architecture.md "The group's all-time table".
"""
