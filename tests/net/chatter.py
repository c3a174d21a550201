"""A vocabulary for tests (`talk.Vocabulary`): Cockroach Poker players who say a hunch, a number
from 0 to 5, at the moments they peek at a card or see one revealed; and a bot who does."""

from __future__ import annotations

import random
from typing import Any

from tablegames.bots import get_bot
from tablegames.rules import Action, IllegalAction, View

MOMENTS = frozenset(("seen", "reveal"))  # a peek (told the peeker only), a card turned up
HUNCHES = range(6)


def check(view: dict[str, Any], claim: object) -> dict[str, Any]:
    if (
        not isinstance(claim, dict)
        or claim.get("kind") != "hunch"
        or claim.get("n") not in range(6)
    ):
        raise IllegalAction("a hunch is a number from 0 to 5")
    return {"kind": "hunch", "n": claim["n"]}


def sentence(seat: int, claim: dict[str, Any]) -> str:
    return f"{{{seat}}} has a hunch: {claim['n']}."


class Chatty:
    """Roach's normal bot that, at each moment, says a hunch one time in two (its dice are the
    bot's own: what it says changes what it plays)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.rng = rng
        self.player = get_bot("roach", "normal", seat, rng)

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        return self.player.choose(view, legal)

    def speak(self, view: View) -> list[dict[str, Any]]:
        return [{"kind": "hunch", "n": self.rng.choice(HUNCHES)}] if self.rng.random() < 0.5 else []
