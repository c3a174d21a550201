"""Which games have bots of their own: the built-in games' are named here (the rules name
nothing above them), a game from elsewhere names its own (`Game.bots`)."""

from __future__ import annotations

from ..rules import Game

#: The built-in games' own bots: "package.module:NAME", NAME a map level -> bot class, imported
#: when one plays (knowing the games costs no bot).
OWN_BOTS = {
    "crates": "tablegames.bots.crates:BOTS",
    "roach": "tablegames.bots.roach:BOTS",
    "crabs": "tablegames.bots.crabs:BOTS",
    "kraken": "tablegames.bots.kraken:BOTS",
}


def own_bots(game: Game) -> str:
    """Where `game`'s own bots are ("package.module:NAME"), or "" for none (the generic ones
    play it)."""
    return OWN_BOTS.get(game.name) or game.bots
