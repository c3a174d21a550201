"""The games tablegames offers, from the registry, and where each one's screen and bots live."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.util import find_spec

from .rules import GAMES

SCREENS = "tablegames.tui.screens"
BOTS = "tablegames.bots"
#: What plays a game that has no screen or bots of its own.
GENERIC_SCREEN = f"{SCREENS}.generic"


@dataclass(frozen=True)
class Listing:
    """A game as menus and `tablegames list` show it."""

    name: str
    title: str
    min_players: int
    max_players: int
    blurb: str
    own_screen: bool  # False: the generic screen draws it from its view
    own_bots: bool  # False: the generic random bot plays it
    playable: bool = True  # every registered game is (kept for the screens that ask)

    @property
    def players(self) -> str:
        return f"{self.min_players}–{self.max_players}"


def listings() -> list[Listing]:
    """Every registered game, in the registry's order."""
    return [
        Listing(
            game.name,
            game.title,
            game.min_players,
            game.max_players,
            game.blurb,
            own_screen=has_module(SCREENS, game.name),
            own_bots=has_module(BOTS, game.name),
        )
        for game in GAMES.values()
    ]


def is_playable(name: str) -> bool:
    """True if `name` can be played: every registered game can, on its own screen or the
    generic one, against its own bots or the generic one."""
    return name in GAMES


def has_module(package: str, name: str) -> bool:
    """True if `package.name` exists (looking imports nothing: the CLI stays light)."""
    return find_spec(f"{package}.{name}") is not None


def screen_module(name: str) -> str:
    """The module whose `SCREEN` plays `name`: `tui/screens/<name>.py`, else the generic one."""
    return f"{SCREENS}.{name}" if has_module(SCREENS, name) else GENERIC_SCREEN
