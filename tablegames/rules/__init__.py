"""Pure rule engines for every game, reached by name through one registry."""

import os

from .core import (
    BUILT_IN,
    GAMES,
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    SetupError,
    State,
    View,
    get_game,
    load,
)

#: Games from elsewhere, as `load` names them: "package.module:NAME", comma-separated.
PLUGINS = "TABLEGAMES_GAMES"

for _reference in (*BUILT_IN, *os.environ.get(PLUGINS, "").split(",")):
    if _reference.strip():
        load(_reference)

__all__ = [
    "GAMES",
    "PLUGINS",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "Option",
    "SetupError",
    "State",
    "View",
    "get_game",
]
