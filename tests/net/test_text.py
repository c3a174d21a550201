"""Text from outside reaches a terminal or a log only made visible: escapes written out, never
acted on, and no tower of combining marks (issue 39, findings 1 and 7)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tablegames.text import clean_text, few_marks, visible

#: What a terminal acts on or hides, as the issue's attacks used them.
ATTACKS = [
    "\x1b]0;PWNED\x07",  # retitles the terminal
    "\x1b[2J\x1b[H",  # clears it
    "\x1b[8m",  # hides every later line
    "\x1b]52;c;cm0gLXJmIH4=\x07",  # OSC 52: a command put in the clipboard
    "\x9b31m",  # C1 CSI
    "\x7f\x08\r",  # DEL, backspace, carriage return (overwrite a line)
    "\u202eevil\u202c",  # right-to-left override
    "\u2066isolate\u2069",  # isolates
    "a\u200bb\u200d\ufeff\u2060",  # zero-width characters
    "\U000e0041",  # a tag character
    "line\nforged 12:00:00 ssh: alice logged in",  # a forged log line
    "\u2028paragraph\u2029",  # line and paragraph separators
]


def terminal_safe(text: str) -> bool:
    """True if `text` holds nothing a terminal acts on or hides (only printable characters)."""
    return all(char.isprintable() for char in text)


def test_control_and_format_characters_are_written_out_not_sent():
    assert visible("\x1b]0;PWNED\x07") == "\\x1b]0;PWNED\\x07"
    assert visible("\x9b31m") == "\\x9b31m"
    assert visible("a\u202eb") == "a\\u202eb"
    assert visible("tag\U000e0041") == "tag\\U000e0041"
    assert visible("one\ntwo\r\t") == "one\\ntwo\\r\\t"
    assert visible(visible("\x1b[2J")) == "\\x1b[2J"  # written out at the source, then logged
    for attack in ATTACKS:
        assert terminal_safe(visible(attack)), attack


def test_ordinary_text_is_left_as_it_is():
    for text in ("Ben", "ana🂡", "Zoë", "山田たろう", "Ελένη", "table KXPF: Ben sits down.", ""):
        assert visible(text) == text


def test_a_tower_of_combining_marks_keeps_two_marks_a_letter():
    tower = "Z" + "\u0301" * 105 + "a" + "\u0300\u0301"
    assert few_marks(tower) == "Z\u0301\u0301a\u0300\u0301"
    assert visible(tower) == "Z\u0301\u0301a\u0300\u0301"
    assert clean_text(tower + " hi", 300) == "\u0179\u0301\u00e0\u0301 hi"  # (composed: NFC)
    assert few_marks("Tiếng Việt") == "Tiếng Việt"  # precomposed letters are letters
    assert few_marks(unicodedata.normalize("NFD", "Việt")) == unicodedata.normalize("NFD", "Việt")


def test_chat_and_names_drop_what_a_terminal_would_act_on():
    assert clean_text("hi\x1b[2J\x07 there", 50) == "hi2J there"
    for attack in ATTACKS:
        assert terminal_safe(clean_text(attack, 300)), attack


@given(st.text(max_size=60))
def test_nothing_from_outside_acts_on_a_terminal(text: str):
    shown = visible(text)
    assert terminal_safe(shown) and visible(shown) == shown
    assert "\n" not in shown and "\r" not in shown  # one log record, one line
    cleaned = clean_text(text, 300)
    assert terminal_safe(cleaned)
    assert visible(cleaned) == cleaned  # what chat keeps needs no escaping: one rule, two uses
