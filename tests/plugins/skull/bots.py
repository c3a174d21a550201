"""Skull's own `normal` bot, and its levels: the generic bots at the others (`BOTS`).

`normal` plays as a bluffer who counts does: its skull first, mostly (a challenger who meets
it loses a disc), a bid its own flowers cover, a raise only while its own flowers and the
others' discs make it likely, and the discs of players who bid to turn up first (they are
likely flowers). `hard` is the generic look-ahead (`look_ahead`), which models people by this
`normal`: its playouts' players play like it, it believes the discs put down as such players
put them down, and it keeps this `normal`'s move unless surely beaten. Against three of them it
won 0.72 of 40 games, and a trivial policy (`SkullFirst`) won 0.06 of 16 against three of it
(docs/adding-a-game.md).

Tuned on the check's `bots` part, which found the first settings (a skull first three times
in ten, half the others' discs trusted) weaker than chance: against three `random` bots they
won 0.19 of 300 games (95% 0.15-0.24), these 0.48 of 400 (0.43-0.53; fair share 0.25).
"""

from __future__ import annotations

import random

from tablegames.bots import look_ahead
from tablegames.rules import Action, View

from .rules import FLOWER, SKULL, SKULL_GAME

#: How often `normal` puts its skull down first, and what share of the others' discs it trusts.
BLUFFS, TRUST = 0.8, 1.0


class CarefulPlayer:
    """Skull's `normal`: a careful player (the module docstring)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        kinds = {action["type"] for action in legal}
        mat = view["mat"]
        if "flip" in kinds:
            return self._flip(view, legal)
        if view["phase"] == "place":
            skull = SKULL in view["hand"] and (
                FLOWER not in view["hand"] or self.rng.random() < BLUFFS
            )
            return {"type": "place", "disc": SKULL if skull else FLOWER}
        covered = 0 if SKULL in mat else len(mat)
        others = sum(view["mats"]) - len(mat)
        likely = covered + int(TRUST * others)
        if view["phase"] == "add":
            if FLOWER in view["hand"] and self.rng.random() < 0.5:
                return {"type": "place", "disc": FLOWER}
            return {"type": "bid", "count": max(1, min(covered or 1, sum(view["mats"])))}
        raise_to = view["bid"] + 1
        if SKULL not in mat and raise_to <= likely and {"type": "bid", "count": raise_to} in legal:
            return {"type": "bid", "count": raise_to}
        return {"type": "pass"}

    def _flip(self, view: View, legal: list[Action]) -> Action:
        """The top disc of a player who bid (likely a flower), else of the most shown."""

        def trust(action: Action) -> tuple[int, float]:
            other = action["seat"]
            return (not view["passed"][other], self.rng.random())

        return max(legal, key=trust)


class SkullFirst:
    """A trivial fixed policy, the yardstick `hard` is measured by: a skull first, bid 1 at
    once, raise by 2, else pass (a look-ahead that imagined people at random lost to it)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        for wanted in (
            {"type": "place", "disc": SKULL},
            {"type": "bid", "count": 1},
            {"type": "bid", "count": (view["bid"] or 0) + 2},
            {"type": "pass"},
        ):
            if wanted in legal:
                return wanted
        return self.rng.choice(legal) if legal else None


#: Skull's levels: its own `normal`; `random` and `hard` are the generic ones, `hard` the
#: look-ahead (the documented factory, as the generic `hard` is made).
BOTS = {"normal": CarefulPlayer, "hard": look_ahead(SKULL_GAME)}
