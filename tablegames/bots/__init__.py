"""Bots for every game: `get_bot(game, level, seat, rng)`; a bot sees only its seat's view.

A game may have bots of its own (`own.py`: the built-in games', or `Game.bots`, an import
string of a map level -> bot class); without them the generic bots play (`generic.py`:
look-ahead over `from_view`, the game's heuristic, or chance, and a sentence saying so where a
level is chosen: `level_note`).
"""

from __future__ import annotations

import random

from ..rules import Bot, get_game
from ..rules.core import resolve
from .generic import AnyLegalAction, level_note, levels
from .own import own_bots

LEVELS = ("random", "normal", "hard")

__all__ = ["LEVELS", "AnyLegalAction", "Bot", "get_bot", "level_note"]


def get_bot(game: str, level: str, seat: int, rng: random.Random) -> Bot:
    """A bot for `game` at `level` sitting in `seat`, drawing its randomness from `rng`."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(LEVELS)}, not {level!r}")
    info = get_game(game)
    own = own_bots(info)
    makers = resolve(own) if own else levels(info)
    bot: Bot = makers[level](seat, rng)
    return bot
