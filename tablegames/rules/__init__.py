"""Pure rule engines for every game, reached by name through one registry."""

from . import crabs as _crabs  # noqa: F401
from . import crates as _crates  # noqa: F401  (registers the game)
from . import kraken as _kraken  # noqa: F401
from . import roach as _roach  # noqa: F401
from .core import GAMES, Action, Event, Game, IllegalAction, SetupError, State, View, get_game

__all__ = [
    "GAMES",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "SetupError",
    "State",
    "View",
    "get_game",
]
