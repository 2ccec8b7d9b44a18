"""The protection of the first player out (docs/rules.md §9.3), a table option of the identity
game (`first_out_protection`): its rules (`rules`, plain Python), its state and taps (`actions`),
its hooks (`hooks`), its history lines (`words`), its taps' forms (`forms`) and its templates."""
