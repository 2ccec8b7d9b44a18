"""1 vs 1 (docs/rules.md §9.8): two players, three heroes each, drafted and played one after the
other. Its rules (`rules`: the mode), its words (`words`), its next hero when one falls
(`actions`), its game (`hooks`: the draft kit's taps and start, and the fall) and its templates;
its app registers the mode with the registry (companion.rules.modes) and its game with
companion.hooks when ready. It drafts its heroes with the draft kit (companion.games.draft)."""
