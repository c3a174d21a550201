"""Bots for every game: `get_bot(game, level, seat, rng)`; a bot sees only its seat's view.

A game may have bots of its own (`own.py`: the built-in games', or `Game.bots`, an import
string of a map level -> bot class); without them the generic bots play (`generic.py`:
look-ahead over `from_view`, the game's heuristic, or chance, and a sentence saying so where a
level is chosen: `level_note`).
"""

from __future__ import annotations

import random

from ..rules import Bot, Game, get_game
from .beliefs import BotMaker
from .generic import (
    AnyLegalAction,
    by_heuristic,
    level_note,
    levels,
    look_ahead,
    own_levels,
)

LEVELS = ("random", "normal", "hard")

__all__ = [
    "LEVELS",
    "AnyLegalAction",
    "Bot",
    "BotMaker",
    "by_heuristic",
    "get_bot",
    "level_note",
    "look_ahead",
    "makers",
]


def makers(game: Game) -> dict[str, BotMaker]:
    """Each level's bot maker for `game`: its own where it declares one (`Game.bots`), the
    generic bots of the other levels."""
    return {**levels(game), **own_levels(game)}


def get_bot(game: str, level: str, seat: int, rng: random.Random) -> Bot:
    """A bot for `game` at `level` sitting in `seat`, drawing its randomness from `rng`."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(LEVELS)}, not {level!r}")
    bot: Bot = makers(get_game(game))[level](seat, rng)
    return bot
