"""The last-three rule (docs/rules.md §9.4), a table option of the identity game
(`last_three`): its rules (`rules`, plain Python), its state (`actions`), its hooks (`hooks`),
its words (`words`), its countdown's filter (`templatetags`) and its templates."""
