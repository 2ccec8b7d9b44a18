"""军争's rules, plain Python: one damage worked out through 酒, the weapons, the armour and a
铁索连环 chain (`resolver`, in the core's words of `companion.rules.damage`), 酒, 白银狮子 and
火攻's steps (`cards`), and what its damage dialog and a seat's dialog offer (`offers`)."""
