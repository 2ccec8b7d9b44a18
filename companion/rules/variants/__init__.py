"""The identity game's variants and house rules (docs/rules.md §9), each a table option of the
identity mode (`IdentityGameOptions`), off by default: plain rules over seat indexes and
identities, with no storage and no screens (`docs/variants.md` says what remains to wire).

- `rebirth` 转世: the gifts to a dead player, the threshold, the rebirth, the dead-for-victory rule.
- `souls` 暗魂: the dark soul a dead player becomes, whom it haunts, its one-off effect.
- `house`: 003's house rules: rebels who know each other, the lord's five cards.

Two more variants are game packages of their own, with their rules beside their screens
(`companion/games/`, reached through `companion.hooks`).

The hero box (the standard 25, heroes a table adds, the lord pack's offer, the rebirth draw) is
`companion.rules.box`.
"""
