"""军争 (Maneuvering, docs/rules.md §9.9), a table option of every mode (`maneuvering`):
its rules (`rules`, plain Python: the damage resolver, 酒, 白银狮子, 火攻, what its dialogs
offer), its taps (`actions`: a seat's chain and 酒, a whole resolved damage and the rest of a
paused chain), its damage dialog (`read`, `views`), what every screen sees of a paused chain
(`state`), its hooks (`hooks`), its history lines (`words`), its taps' forms (`forms`) and its
templates; its option, its cards (`data/maneuvering_deck.csv`) and its questions in the help,
which its app registers with the core's deck and help (`rules.deck`)."""
