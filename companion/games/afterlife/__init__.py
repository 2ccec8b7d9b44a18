"""What becomes of the dead: rebirth 转世 and dark souls 暗魂 (docs/rules.md §9.1, §9.2), two
table options of the identity game (`rebirth`, `dark_souls`; one at a time) sharing one state:
their rules (`rules`, plain Python), their state and taps (`actions`), what every screen sees of
them (`read`), their hooks (`hooks`), their history lines (`words`), their taps' forms (`forms`)
and their templates."""
