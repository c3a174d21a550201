"""The games tablegames offers, from the registry, and what plays each one: the screen and bots
a game names (`Game.screen`, `Game.bots`), else the generic ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rules import GAMES, get_game
from .rules.core import resolve

#: What draws a game that names no screen of its own.
GENERIC_SCREEN = "tablegames.tui.screens.generic:SCREEN"


@dataclass(frozen=True)
class Listing:
    """A game as menus and `tablegames list` show it."""

    name: str
    title: str
    min_players: int
    max_players: int
    blurb: str
    own_screen: bool  # False: the generic screen draws it from its view
    own_bots: bool  # False: the generic bots play it (`bots/generic.py`)

    @property
    def players(self) -> str:
        return f"{self.min_players}–{self.max_players}"


def listings() -> list[Listing]:
    """Every registered game, in the registry's order (nothing is imported: the CLI stays
    light)."""
    return [
        Listing(
            game.name,
            game.title,
            game.min_players,
            game.max_players,
            game.blurb,
            own_screen=bool(game.screen),
            own_bots=bool(game.bots),
        )
        for game in GAMES.values()
    ]


def screen_class(name: str) -> Any:
    """What makes `name`'s table screen (called with the client and `ascii=`): the game's own
    (`Game.screen`), else the generic one. KeyError for a game not in the registry."""
    return resolve(get_game(name).screen or GENERIC_SCREEN)
