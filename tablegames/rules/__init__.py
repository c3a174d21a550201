"""Pure rule engines for every game, reached by name through one registry."""

from . import crates as _crates  # noqa: F401  (registers the game)
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
