"""Stacked crabs tables for the scenario tests of the rules and the bots: four plain hands,
the ocean, and a deal of exactly the cards a test names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablegames.rules import get_game

crabs = get_game("crabs")

OCEAN = ("jab", "taxi", "ab", "bunny")
#: Four hands without a four of a kind (no card of the ocean's kinds, so swaps are easy to read).
PLAIN = (
    ("crabbi", "crabbi", "kebab", "diet"),
    ("cappuccino", "cappuccino", "cabernet", "magic"),
    ("kebab", "kebab", "diet", "magic"),
    ("cabernet", "cabernet", "crabbi", "magic"),
)
KINGS = ("king",) * 4


def deal(
    *hands: Sequence[str],
    ocean: Sequence[str] = OCEAN,
    draw: Sequence[str] = (),
    first_side: int | None = 0,
    seed: int = 1,
    **options: Any,
) -> Any:
    """A stacked table: one hand per seat, the four ocean cards and the draw pile, top first."""
    return crabs.new(
        len(hands),
        seed,
        hands=[list(hand) for hand in hands],
        ocean=list(ocean),
        draw=list(draw),
        first_side=first_side,
        **options,
    )
