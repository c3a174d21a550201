"""Which games have bots of their own: each game names its own (`Game.bots`)."""

from __future__ import annotations

from ..rules import Game


def own_bots(game: Game) -> str:
    """Where `game`'s own bots are ("package.module:NAME"), or "" for none (the generic ones
    play it)."""
    return game.bots
