"""3 vs 3 (docs/rules.md §9.7): two teams of three, a commander each, a hero draft and the go.
Its rules (`rules`: the seats, the go, the mode) and its words (`words`); its app registers the
mode with the registry (companion.rules.modes) when ready. The draft it plays is the core's
(companion.rules.draft, companion.actions.draft), driven by the mode's `draft_*` hooks."""
