"""Text from outside (anything a client sent) made safe for a terminal: written out, or cleaned.

One rule, as OpenSSH's `vis`: nothing a client sent reaches a terminal — a player's or the
host's — or a log as something the terminal would act on or hide. `visible` is for repeating a
client's text (a refusal that names what was asked for, every log record): each control, format
or separator character (C0, DEL, C1, bidi overrides and isolates, zero-width characters, tags,
line separators, unassigned code points) is written out as Python writes it in a string —
`\\x1b`, `\\n`, `\\u202e`, `\\U000e0041`. A backslash is left as it is, so text made
visible twice (where it is repeated, then by the log's formatter) reads the same: the
written-out form is for a person to read, not to be decoded. `clean_text` is what chat lines
and names keep: such characters dropped, runs of space made one, Rich markup's brackets gone.
Both keep at most `MARKS_PER_LETTER` combining marks on a letter: a tower of a hundred marks
would spill over the lines above and below.
"""

from __future__ import annotations

import re
import unicodedata

MARKS_PER_LETTER = 2
_MARKUP = re.compile(r"[\[\]\\]")
_SPACES = re.compile(r"\s+")


def few_marks(text: str) -> str:
    """`text` with at most two combining marks on each letter (the marks beyond are dropped)."""
    if text.isascii():
        return text
    kept: list[str] = []
    marks = 0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me"):
            marks += 1
            if marks > MARKS_PER_LETTER:
                continue
        else:
            marks = 0
        kept.append(char)
    return "".join(kept)


def _written_out(char: str) -> str:
    if char.isprintable() or char == " ":
        return char
    return char.encode("unicode_escape").decode("ascii")


def visible(text: str) -> str:
    """`text` as a terminal or a log may show it: every character a terminal would act on or
    hide written out (`\\x1b`, `\\n`, `\\u202e`), two marks a letter at most; one line."""
    if text.isprintable():
        return few_marks(text)
    return few_marks("".join(_written_out(char) for char in text))


def visible_lines(text: str, indent: str = "") -> str:
    """`text` made `visible` line by line, each after `indent` (lines we made, as the host's
    console's or a traceback's, holding what a client sent; indented, none can pass for a
    line of a log)."""
    return "\n".join(indent + visible(line) for line in text.split("\n"))


def clean_text(text: str, limit: int) -> str:
    """`text` fit to show in someone else's terminal as what they said: no control, format or
    markup characters, and no tower of marks.

    Line breaks and tabs become spaces; other control characters (escape sequences), format
    characters (right-to-left overrides, zero-width joiners), private-use and unassigned ones
    are dropped; runs of space become one space; Rich markup brackets go too; a letter keeps
    two combining marks at most (counted with its own accents: `NFD` first, `NFC` after).
    """
    spaced = _SPACES.sub(" ", text)  # new lines and tabs (and line separators) become spaces
    kept = "".join(char for char in spaced if not unicodedata.category(char).startswith("C"))
    letters = unicodedata.normalize("NFC", few_marks(unicodedata.normalize("NFD", kept)))
    return _SPACES.sub(" ", _MARKUP.sub("", letters)).strip()[:limit]
