"""3 vs 3 (docs/rules.md §9.7): two teams of three, a commander each, a hero draft and the go.
Its rules (`rules`: the seats, the go, the mode), its words (`words`), its game (`hooks`: the
draft kit's taps and start) and its templates; its app registers the mode with the registry
(companion.rules.modes) and its game with companion.hooks when ready. It drafts its heroes with
the draft kit (companion.games.draft)."""
