"""军争's rules, plain Python: one damage worked out through 酒, the weapons, the armour and a
铁索连环 chain (`resolver`, in the core's words of `companion.rules.damage`), 酒, 白银狮子 and
火攻's steps (`cards`), what its damage dialog and a seat's dialog offer (`offers`), and its
option and cards, which join the deck where it is on, and its questions in the help (`deck`,
`faq`)."""

# Its option's name (every table's, whatever its mode), the key of its cards and of its state.
KEY = "maneuvering"
