"""The identity game (身份局, docs/rules.md §1–§8), the default way to play: its mode and options
(`rules`, plain Python), registered with `companion.rules.modes` when its app is ready, and the
words the core shows for it (`words`: its name, its winning sides, its options). Its variants
and house rules are game packages of their own, which declare their options for this mode
(`companion.rules.modes.add_option`); the pages are the shared ones."""
