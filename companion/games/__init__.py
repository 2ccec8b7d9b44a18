"""The game packages: each way to play, variant or expansion that lives on its own, one Django app
in `companion/games/<key>/` (listed in `settings.GAMES`), reached by the core only through the
hooks of `companion.hooks`. The core never imports this package, and no game imports another
(the import-linter contracts in pyproject.toml)."""
