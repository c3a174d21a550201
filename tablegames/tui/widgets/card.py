"""Card faces as text: `10H` becomes `10♥` (or stays `10H` in ASCII style), suits named in words."""

from __future__ import annotations

import re
import unicodedata

from rich.text import Text

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")

_CARD_CODE = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")


def rank_of(card: str) -> str:
    """The rank part of a card code: `10H` -> `10`."""
    return card[:-1]


def suit_of(card: str) -> str:
    """The suit letter of a card code: `10H` -> `H`."""
    return card[-1]


def suit_mark(suit: str, ascii: bool = False) -> str:
    """The suit as one character: a symbol, or its letter in ASCII style."""
    return suit if ascii else SUIT_SYMBOLS[suit]


def card_label(card: str, ascii: bool = False) -> str:
    """A card as plain text: `10♥`, or `10H` in ASCII style."""
    return rank_of(card) + suit_mark(suit_of(card), ascii)


def suit_style(suit: str, colour: bool = True) -> str:
    """How a suit is drawn: red suits in red unless colour is off (the symbol carries the suit).

    Without colour, red would turn into a dark grey that is hard to read, so it is left out.
    """
    return "bold red" if colour and suit in RED_SUITS else "bold"


def card_text(card: str, ascii: bool = False, style: str = "", colour: bool = True) -> Text:
    """A card as styled text, red suits in red."""
    suit_look = suit_style(suit_of(card), colour)
    return Text(card_label(card, ascii), style=f"{suit_look} {style}".strip())


def suit_name(suit: str, ascii: bool = False) -> str:
    """A suit with its mark and name in words: `♥ hearts`."""
    return f"{suit_mark(suit, ascii)} {SUIT_WORDS[suit]}"


#: Characters of our texts, as ASCII (what is left goes through `unicodedata`).
ASCII_SPELLING = {
    "–": "-", "—": "--", "−": "-", "·": "*", "…": "...", "←": "<-", "→": "->", "↔": "<->",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "×": "x", "“": '"', "”": '"', "’": "'", "«": '"',
    "»": '"',
}  # fmt: skip


def in_ascii(text: str) -> str:
    """`text` for a terminal without UTF-8: every character spelled in ASCII (`résumé`:
    `resume`, `—`: `--`)."""
    text = "".join(ASCII_SPELLING.get(char, char) for char in text)
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def prettify(text: str, ascii: bool = False) -> str:
    """Replace every card code in a sentence with its face (`plays 10H` -> `plays 10♥`); in
    ASCII, spell the sentence in ASCII instead."""
    if ascii:
        return in_ascii(text)
    return _CARD_CODE.sub(lambda match: match[1] + SUIT_SYMBOLS[match[2]], text)
