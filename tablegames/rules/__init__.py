"""Pure rule engines for every game, reached by name through one registry.

Importing this (importing any part of tablegames: see its ``__init__``) registers the games
tablegames declares in its own entry points (the group ``tablegames.games`` of pyproject.toml,
as any game's package does): it reads no environment, imports no engine and prints nothing.
Games from elsewhere (installed packages, ``TABLEGAMES_GAMES``) join the registry when a
program calls `load_games` as it starts (`plugins.py`).
"""

from .contract import (
    GROUP,
    KNOWN_VIEW_KEYS,
    SHARED_VIEW_KEYS,
    WORD,
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
    GAMES,
    Checks,
    Game,
    IllegalAction,
    Option,
    Panel,
    SecretChoices,
    SetupError,
    State,
    declared,
    get_game,
    hidden_group,
    load,
)
from .plugins import load_games
from .typed import GameTypes, event_base, shared

__all__ = [
    "GAMES",
    "GROUP",
    "KNOWN_VIEW_KEYS",
    "SHARED_VIEW_KEYS",
    "WORD",
    "Action",
    "Bot",
    "Checks",
    "Event",
    "EventBase",
    "Game",
    "GameTypes",
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
    "declared",
    "event_base",
    "get_game",
    "hidden_group",
    "load",
    "load_games",
    "shared",
]
