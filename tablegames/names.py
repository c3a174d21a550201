"""Names as players see them: cleaned of anything that could act on a terminal, compared the
way people read them (case, width and compatibility forms do not make a new name), and kept
apart from the names they could be taken for (Unicode TS #39: confusables, mixed scripts).

Cleaning drops, it does not refuse: control and format characters, and the combining marks
beyond two on a letter (a name with a tower of marks is that name with two).

A new name is refused at every door (`tablegames join`, SSH, the browser) when it mixes
scripts (Latin with Cyrillic, say: `Аlice` with a Cyrillic А; digits, spaces, punctuation,
emoji and combining marks belong to every script, and Japanese or Korean mix Han with their
own letters, and Latin, as TS #39's "highly restrictive" level allows), when it looks like a
guest's (`guest‐bob` with U+2010, `gueѕt-bob`) or a bot's name (`Bоt 2`) without being one, or
when it looks like a name someone else holds (`a1ice` beside `alice`) without being it; a
table refuses a name that looks like one at it. A name someone holds is never refused as a
look-alike of another (names owned before these rules came stay their owners'). Two names
look alike when their skeletons do (`look_alike_key`): each character mapped to the
prototype TS #39's confusables give it, case folded, mapped again. The confusables and the
scripts are the Unicode data that `confusable_homoglyphs` ships; its table pairs each
character with its look-alikes both ways, and every group there is one prototype and the
characters that map to it, so each character is mapped to its group's prototype (a group of
two: to the lower code point, which gives the same comparisons).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache

from .text import clean_text

NAME_LIMIT = 24
GUEST_PREFIX = "guest-"  # guests' names (SSH and browsers): nobody else may take one
BOT_NAME = re.compile(r"bot \d+")  # what a bot is called at a table ("Bot 2"), as a name key
#: Scripts that one writing system mixes (TS #39's "highly restrictive" sets); Latin may join
#: each of them. Every other mix of scripts is refused.
WRITING_SYSTEMS = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA", "LATIN"}),  # Japanese
    frozenset({"HAN", "HANGUL", "LATIN"}),  # Korean
    frozenset({"HAN", "BOPOMOFO", "LATIN"}),  # Chinese with Bopomofo
)
_EVERY_SCRIPT = frozenset({"COMMON", "INHERITED", "UNKNOWN"})  # digits, marks, emoji...
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")  # (in the table around RTL letters)


def clean_name(name: str) -> str:
    """A name fit to show at a table ("" if nothing printable is left)."""
    return clean_text(name, NAME_LIMIT)


def name_key(name: str) -> str:
    """What makes two names the same name: `Ben`, `BEN` and full-width `Ｂｅｎ` are one."""
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the prototype of its group (TS #39's confusables)."""
    from confusable_homoglyphs.confusables import confusables_data

    alikes: dict[str, set[str]] = {}  # each character (or sequence) -> its look-alikes
    for char, listed in confusables_data.items():
        char = char.translate(_DIRECTION_MARKS)
        for alike in (entry["c"].translate(_DIRECTION_MARKS) for entry in listed):
            alikes.setdefault(char, set()).add(alike)
            alikes.setdefault(alike, set()).add(char)
    prototypes = {}
    for member, others in alikes.items():
        if len(member) != 1:
            continue
        if len(others) > 1:  # many map to it: it is the prototype
            prototypes[member] = member
            continue
        (other,) = others
        if len(alikes[other]) > 1 or len(other) > 1:  # ("m": its one is "rn")
            prototypes[member] = other
        else:  # a group of two: either will do, as long as both map to it
            prototypes[member] = min(member, other)
    return prototypes


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def _looks(text: str) -> str:
    # Mapped before case is folded (a capital I looks like an l, a small i does not), and
    # after (some look-alikes are listed by their small letter only).
    return _skeleton(_skeleton(unicodedata.normalize("NFKC", text)).casefold())


@lru_cache(maxsize=4096)
def look_alike_key(name: str) -> str:
    """What a name looks like: names with one look-alike key could be taken for each other
    (`Аlice` with a Cyrillic А, `a1ice`, `AIice` and `alice`)."""
    return _looks(clean_name(name))


def scripts(name: str) -> frozenset[str]:
    """The scripts of a name's letters (digits, punctuation, marks and emoji are in none)."""
    from confusable_homoglyphs.categories import alias

    found = {alias(char).upper() for char in unicodedata.normalize("NFKC", clean_name(name))}
    return frozenset(found - _EVERY_SCRIPT)


def mixed_scripts(name: str) -> bool:
    """True if `name` mixes scripts that no one writing system mixes (Latin and Cyrillic)."""
    found = scripts(name)
    return len(found) > 1 and not any(found <= system for system in WRITING_SYSTEMS)


def looks_like_guest(name: str) -> bool:
    """True if `name` is, or looks like, a guest's name ("guest-…", "guest‐…", "gueѕt-…")."""
    return look_alike_key(name).startswith(_looks(GUEST_PREFIX))


@cache
def _digit_looks() -> frozenset[str]:
    return frozenset(_looks(digit) for digit in "0123456789")


def looks_like_bot(name: str) -> bool:
    """True if `name` is, or looks like, a bot's name at a table ("Bot 2", "Bоt 2", "Bot l2")."""
    if BOT_NAME.fullmatch(name_key(name)):
        return True
    prefix, looks = _looks("Bot "), look_alike_key(name)
    digits = looks[len(prefix) :]
    return looks.startswith(prefix) and bool(digits) and all(d in _digit_looks() for d in digits)


def look_alike_problem(name: str, held: Iterable[str] = ()) -> str | None:
    """Why `name` could be taken for someone else's, in words (None: it could not): it mixes
    scripts, or looks like a guest's or a bot's name, or like one of the `held` names, without
    being it. Whose the same name is, the doors' own rules say."""
    if mixed_scripts(name):
        found = " and ".join(sorted(script.capitalize() for script in scripts(name)))
        return f"{name} mixes {found} letters"
    key = name_key(name)
    if looks_like_guest(name) and not key.startswith(GUEST_PREFIX):
        return f"{name} looks like a guest's name"
    if looks_like_bot(name) and not BOT_NAME.fullmatch(key):
        return f"{name} looks like a bot's name"
    twin = look_alike_of(name, held)
    return None if twin is None else f"{name} looks like {twin}"


def look_alike_of(name: str, held: Iterable[str]) -> str | None:
    """The first of `held` that `name` looks like without being it (None: none)."""
    key, looks = name_key(name), look_alike_key(name)
    return next((o for o in held if name_key(o) != key and look_alike_key(o) == looks), None)
