"""Names as players see them: cleaned of anything that could act on a terminal, and compared
the way people read them (case, width and compatibility forms do not make a new name)."""

from __future__ import annotations

import re
import unicodedata

NAME_LIMIT = 24
_MARKUP = re.compile(r"[\[\]\\]")
_SPACES = re.compile(r"\s+")


def clean_text(text: str, limit: int) -> str:
    """`text` safe to show in someone else's terminal: no control, format or markup characters.

    Line breaks and tabs become spaces; other control characters (escape sequences), format
    characters (right-to-left overrides, zero-width joiners) and private-use ones are dropped;
    runs of space become one space; Rich markup brackets go too.
    """
    spaced = _SPACES.sub(" ", text)  # new lines and tabs (and line separators) become spaces
    kept = "".join(char for char in spaced if not unicodedata.category(char).startswith("C"))
    return _SPACES.sub(" ", _MARKUP.sub("", kept)).strip()[:limit]


def clean_name(name: str) -> str:
    """A name fit to show at a table ("" if nothing printable is left)."""
    return clean_text(name, NAME_LIMIT)


def name_key(name: str) -> str:
    """What makes two names the same name: `Ben`, `BEN` and full-width `Ｂｅｎ` are one."""
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()
