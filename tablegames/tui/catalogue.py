"""The games tablegames offers, from the registry, and what plays each one: the game's own
screen and bots (`Game.screen`, `Game.bots`), else the generic ones.

Light on purpose (no Textual, no screen imported until one is asked for): `tablegames list`
reads it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..bots.own import own_bots
from ..rules import GAMES, Game, get_game
from ..rules.core import resolve

#: What draws a game that has no screen of its own.
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


def own_screen(game: Game) -> str:
    """Where `game`'s own table screen is ("package.module:NAME", NAME a `GameScreen` class,
    imported when a table of the game opens), or "" for none."""
    return game.screen


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
            own_screen=bool(own_screen(game)),
            own_bots=bool(own_bots(game)),
        )
        for game in GAMES.values()
    ]


def screen_class(name: str) -> Any:
    """What makes `name`'s table screen (called with the client and `ascii=`): the game's own,
    else the generic one. KeyError for a game not in the registry."""
    return resolve(own_screen(get_game(name)) or GENERIC_SCREEN)
