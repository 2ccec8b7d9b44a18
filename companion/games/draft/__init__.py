"""The draft kit (docs/rules.md §9.7, §9.8): a hero draft between two sides and their secret
placements, shared by the modes that draft (3 vs 3, 1 vs 1): its taps' actions (`actions`), its
taps' forms (`forms`), its history lines (`words`) and the hooks every drafted mode's game shares
(`hooks.DraftingGame`). It registers no game of its own: the one exception to "no game imports
another" is that a drafted mode's package imports this kit. The draft's rules
(companion.rules.draft) and what the screens see of it (companion.read.modeview) are the core's,
behind the mode's `draft_*` hooks."""
