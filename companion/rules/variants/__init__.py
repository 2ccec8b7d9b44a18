"""The identity game's variants and house rules (docs/rules.md §9), each a table option of the
identity mode (`IdentityGameOptions`), off by default: plain rules over seat indexes and
identities, with no storage and no screens (`docs/variants.md` says what remains to wire).

- `house`: 003's house rules: rebels who know each other, the lord's five cards.

The other variants are game packages of their own, with their rules beside their screens
(`companion/games/`, reached through `companion.hooks`).

The hero box (the standard 25, heroes a table adds, the lord pack's offer, the draw of a new
hero) is `companion.rules.box`.
"""
