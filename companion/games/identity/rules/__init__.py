"""The identity game's rules, plain Python: its mode (`mode`: the deal, the heroes, the flow,
victory and scoring as `companion.rules.modes.Mode` asks them) and its options (`options`)."""

from companion.games.identity.rules.mode import IdentityMode
from companion.games.identity.rules.options import IdentityGameOptions

__all__ = ["IdentityGameOptions", "IdentityMode"]
