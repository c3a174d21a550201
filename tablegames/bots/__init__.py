"""Bots for every game: `get_bot(game, level, seat, rng)`; a bot sees only its seat's view."""

from __future__ import annotations

import importlib
import random
from importlib.util import find_spec
from typing import Protocol

from ..rules import Action, View

LEVELS = ("random", "normal", "hard")


class Bot(Protocol):
    """A player that chooses from its own view and legal actions (None: nothing to do now)."""

    def choose(self, view: View, legal: list[Action]) -> Action | None: ...


class AnyLegalAction:
    """Plays a uniformly random action among those the game waits for it to take.

    Works for every game through the contract alone (the view's `waiting`): the bot of every
    level for games that have no bots of their own, and a fuzzer's player in reliability tests.
    """

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        waiting = view.get("waiting")
        if isinstance(waiting, list) and self.seat not in waiting and self.rng.random() < 0.9:
            return None  # mostly leave optional moves alone, so games still end
        return self.rng.choice(legal) if legal else None


def get_bot(game: str, level: str, seat: int, rng: random.Random) -> Bot:
    """A bot for `game` at `level` sitting in `seat`, drawing its randomness from `rng`."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(LEVELS)}, not {level!r}")
    if find_spec(f"{__name__}.{game}") is None:  # no bots of its own: the generic one plays
        return AnyLegalAction(seat, rng)
    module = importlib.import_module(f"{__name__}.{game}")
    maker: type[Bot] = module.BOTS[level]
    return maker(seat, rng)  # type: ignore[call-arg]
