"""Pure rule engines for every game, reached by name through one registry."""

import os
import sys

from .contract import (
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
    SetupError,
    State,
    get_game,
    load,
)

#: Games from elsewhere, as `load` names them: "package.module:NAME", comma-separated.
PLUGINS = "TABLEGAMES_GAMES"

for _reference in BUILT_IN:
    load(_reference)
for _reference in os.environ.get(PLUGINS, "").split(","):
    if _reference.strip():  # a game from elsewhere that does not load is left out, with a line
        try:
            load(_reference)
        except Exception as problem:  # whatever its import raised
            print(
                f"tablegames: {PLUGINS} names {_reference.strip()!r}, which could not be "
                f"loaded ({problem}); playing without it.",
                file=sys.stderr,
            )

__all__ = [
    "GAMES",
    "PLUGINS",
    "SHARED_VIEW_KEYS",
    "Action",
    "Bot",
    "Event",
    "EventBase",
    "Game",
    "IllegalAction",
    "Option",
    "Result",
    "Secrets",
    "SetupError",
    "SharedView",
    "State",
    "View",
    "get_game",
]
