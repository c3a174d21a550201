"""Bots for every game: `get_bot(game, level, seat, rng)`; a bot sees only its seat's view."""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from ..rules import Action, View

LEVELS = ("random", "normal", "hard")


class Bot(Protocol):
    """A player that chooses from its own view and legal actions (None: nothing to do now)."""

    def choose(self, view: View, legal: list[Action]) -> Action | None: ...


def get_bot(game: str, level: str, seat: int, rng: random.Random) -> Bot:
    """A bot for `game` at `level` sitting in `seat`, drawing its randomness from `rng`."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(LEVELS)}, not {level!r}")
    module = importlib.import_module(f"{__name__}.{game}")
    maker: type[Bot] = module.BOTS[level]
    return maker(seat, rng)  # type: ignore[call-arg]
