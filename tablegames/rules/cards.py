"""The standard 52-card deck: card codes like `10H`, ranks, suits and colours."""

from __future__ import annotations

from collections.abc import Iterable

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
_CARDS = frozenset(DECK)
#: Each card's rank and suit, for engines' hot loops (a lookup, not a slice and a call).
RANK_OF = {card: card[:-1] for card in DECK}
SUIT_OF = {card: card[-1] for card in DECK}
#: Ace low, as when drawing for the first dealer.
RANK_ORDER = {rank: index for index, rank in enumerate(RANKS)}


def rank(card: str) -> str:
    """The rank of a card code: `10H` -> `10`."""
    return card[:-1]


def suit(card: str) -> str:
    """The suit letter of a card code: `10H` -> `H`."""
    return card[-1]


def is_card(code: object) -> bool:
    """True if `code` is one of the 52 card codes."""
    return isinstance(code, str) and code in _CARDS


def colour_partner(suit_letter: str) -> str:
    """The other suit of the same colour: S<->C, H<->D."""
    return {"S": "C", "C": "S", "H": "D", "D": "H"}[suit_letter]


def parse_cards(codes: Iterable[object], what: str) -> list[str]:
    """Check a list of card codes (for test setups); ValueError naming `what` if one is bad."""
    cards = list(codes)
    for code in cards:
        if not is_card(code):
            raise ValueError(f"{what}: {code!r} is not a card code (e.g. 10H, QS, AC)")
    return [str(code) for code in cards]
