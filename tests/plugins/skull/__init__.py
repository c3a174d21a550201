"""Skull as a game's own package: its rules (`rules.py`) and its own `normal` bot (`bots.py`),
loaded by ``TABLEGAMES_GAMES=tests.plugins.skull:SKULL_GAME``."""

from .rules import SKULL_GAME

__all__ = ["SKULL_GAME"]
