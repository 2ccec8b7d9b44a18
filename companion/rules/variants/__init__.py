"""The identity game's variants and house rules (docs/rules.md §9), each a table option of the
identity mode off by default, are game packages of their own, which declare their options
(`companion.rules.modes.add_option`), with their rules beside their screens (`companion/games/`,
reached through `companion.hooks`).

The hero box (the standard 25, heroes a table adds, the offers and draws from it) is
`companion.rules.box`.
"""
