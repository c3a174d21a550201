"""Small pieces of the sentences players read: counted nouns, the article before a word, a date."""

from __future__ import annotations

import time

VOWEL_SOUNDS = ("a", "e", "i", "o", "u", "8", "11", "18")  # an 8, an ace; not "a 8"
LETTERS_SAID_WITH_A_VOWEL = frozenset("AEFHILMNORSX")  # "an A", "an 8H"'s rank aside


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 card`, `3 cards`, `0 cards` (`nouns` when the plural is not just an `s` added)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def are(count: int) -> str:
    """The verb after `count` things: `is` for one, `are` for any other number ("1 player is
    ready", "2 players are ready")."""
    return "is" if count == 1 else "are"


def article(word: str) -> str:
    """`a` or `an`, as said before `word`: `an 8`, `an A`, `a K`, `an ace`, `a bat`."""
    if len(word) == 1 and word.isupper():
        return "an" if word in LETTERS_SAID_WITH_A_VOWEL else "a"
    return "an" if word.lower().startswith(VOWEL_SOUNDS) else "a"


def with_article(word: str) -> str:
    """`an 8`, `a bat`: `word` after its article."""
    return f"{article(word)} {word}"


def moment_words(seconds: float) -> str:
    """A moment as every list of games says it (the menu and the command line alike), in the
    local time: `2026-11-30 06:03`."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def on_its_own(text: str) -> str:
    """`text` as a sentence on a line of its own: a capital first and a full stop at its end
    (`the game has begun` -> `The game has begun.`)."""
    text = text.strip()
    if not text:
        return text
    end = "" if text[-1] in ".!?" else "."
    return f"{text[0].upper()}{text[1:]}{end}"
