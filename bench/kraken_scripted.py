"""Scripted Feed the Kraken players for the bench: the normal bot with one habit fixed.

- `all_guns` raises every gun it has in every mutiny (a player who mutinies at every chance);
- `no_mutiny` never raises a gun (a player who never mutinies).

Everything else they do as the normal bot does. They test that the bots cannot be exploited by
either extreme: each should win no more than its fair share against a table of normal bots.
"""

from __future__ import annotations

import random

from tablegames.bots.kraken import NormalBot
from tablegames.rules import Action, View


class AllGuns(NormalBot):
    """The normal bot, except that it raises every gun it may in every mutiny."""

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        raises = [a for a in legal if a["type"] == "mutiny"]
        if raises and view["private"].get("prompt") == "mutiny":
            return max(raises, key=lambda a: int(a["guns"]))
        return super().choose(view, legal)


class NoMutiny(NormalBot):
    """The normal bot, except that it raises as few guns as it may (none unless forced)."""

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        raises = [a for a in legal if a["type"] == "mutiny"]
        if raises and view["private"].get("prompt") == "mutiny":
            return min(raises, key=lambda a: int(a["guns"]))
        return super().choose(view, legal)


SCRIPTED: dict[str, type[NormalBot]] = {"all_guns": AllGuns, "no_mutiny": NoMutiny}


def make_scripted(level: str, seat: int, rng: random.Random) -> NormalBot:
    """A scripted player of `level` (a key of `SCRIPTED`) for `seat`."""
    return SCRIPTED[level](seat, rng)
