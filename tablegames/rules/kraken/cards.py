"""Navigation cards (colour plus action), both boards' decks, and the cult ritual cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core import SetupError

DRUNK, DISARMED, ARMED = "drunk", "disarmed", "armed"
MERMAID, TELESCOPE, UPRISING = "mermaid", "telescope", "uprising"

#: The long journey's 23 navigation cards: code -> copies.
LONG_DECK: dict[str, int] = {
    "yellow-uprising": 6,
    "blue-drunk": 4,
    "blue-disarmed": 2,
    "red-drunk": 5,
    "red-mermaid": 2,
    "red-telescope": 2,
    "red-armed": 2,
}
#: What the quick journey leaves out of the long journey's deck (19 cards remain).
QUICK_REMOVED: dict[str, int] = {"yellow-uprising": 1, "blue-drunk": 1, "red-armed": 2}
DECKS: dict[str, dict[str, int]] = {
    "long": dict(LONG_DECK),
    "quick": {
        code: copies - QUICK_REMOVED.get(code, 0)
        for code, copies in LONG_DECK.items()
        if copies > QUICK_REMOVED.get(code, 0)
    },
}

CONVERSION, GUN_STASH, CULT_CABIN_SEARCH = "conversion", "gun_stash", "cult_cabin_search"
#: The five cult rituals: code -> copies.
RITUALS: dict[str, int] = {CONVERSION: 3, GUN_STASH: 1, CULT_CABIN_SEARCH: 1}


def colour(card: str) -> str:
    """The colour of a navigation card: red (west), yellow (north) or blue (east)."""
    return card.split("-", 1)[0]


def action(card: str) -> str:
    """The action printed on a navigation card."""
    return card.split("-", 1)[1]


def is_card(code: object) -> bool:
    """True if `code` names a navigation card."""
    return isinstance(code, str) and code in LONG_DECK


def deck_cards(board: str) -> list[str]:
    """Every navigation card of `board`'s deck, in a fixed order."""
    return [code for code, copies in DECKS[board].items() for _ in range(copies)]


def ritual_cards() -> list[str]:
    """The five ritual cards in a fixed order."""
    return [code for code, copies in RITUALS.items() for _ in range(copies)]


def stacked_top(codes: object, full: Sequence[str], what: str) -> list[str]:
    """Validate `codes` as the top of a pile (top first) drawn from the cards in `full`."""
    if not isinstance(codes, list | tuple) or not all(isinstance(c, str) for c in codes):
        raise SetupError(f"{what} must be a list of card codes, top first")
    missing = Counter(codes) - Counter(full)
    if missing:
        raise SetupError(f"{what} holds more cards than there are: {', '.join(sorted(missing))}")
    return list(codes)
