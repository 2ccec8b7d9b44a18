"""1 vs 1 (docs/rules.md §9.8): two players, three heroes each, drafted and played one after the
other. Its rules (`rules`: the mode) and its words (`words`); its app registers the mode with the
registry (companion.rules.modes) when ready. The draft it plays is the core's
(companion.rules.draft, companion.actions.draft), driven by the mode's `draft_*` hooks."""
