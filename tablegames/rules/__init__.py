"""Pure rule engines for every game, reached by name through one registry.

Importing this registers the built-in games only: it reads no environment and prints nothing.
Games from elsewhere (installed packages, ``TABLEGAMES_GAMES``) join the registry when a program
calls `load_games` as it starts (`plugins.py`).
"""

from .contract import (
    KNOWN_VIEW_KEYS,
    SHARED_VIEW_KEYS,
    Action,
    Bot,
    Event,
    EventBase,
    Result,
    Secrets,
    SharedView,
    View,
)
from .core import (
    BUILT_IN,
    GAMES,
    Game,
    IllegalAction,
    Option,
    Panel,
    SecretChoices,
    SetupError,
    State,
    get_game,
    load,
)
from .plugins import load_games

for _reference in BUILT_IN:  # declared apart from their engines: registering imports none
    load(_reference)

__all__ = [
    "GAMES",
    "KNOWN_VIEW_KEYS",
    "SHARED_VIEW_KEYS",
    "Action",
    "Bot",
    "Event",
    "EventBase",
    "Game",
    "IllegalAction",
    "Option",
    "Panel",
    "Result",
    "SecretChoices",
    "Secrets",
    "SetupError",
    "SharedView",
    "State",
    "View",
    "get_game",
    "load_games",
]
