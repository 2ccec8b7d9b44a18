"""The draft kit (docs/rules.md §9.7, §9.8): a hero draft between two sides and their secret
placements, shared by the modes that draft (3 vs 3, 1 vs 1): its rules (`rules`: plain Python),
its taps' actions (`actions`), their forms (`forms`), what a screen sees of it (`read`, the draft's
part of companion.read.modeview's view), its history lines (`words`), its board and controls
(`templates/companion/modes/draft.html`) and the hooks every drafted mode's game shares
(`hooks.DraftingGame`). It registers no game of its own: a drafted mode's package imports this
kit, the one exception to "no game imports another"."""
