"""Names and chat lines are cleaned of terminal tricks and compared as people read them."""

from __future__ import annotations

from tablegames.net.names import clean_name, clean_text, name_key


def test_escape_sequences_and_format_characters_never_reach_another_terminal():
    assert clean_text("hi\x1b[2J\x07 there", 50) == "hi2J there"
    assert clean_name("ben\u202eevil") == "benevil"  # a right-to-left override
    assert clean_name("a\u200bb") == "ab"  # zero-width space
    assert clean_text("[bold red]loud[/]", 50) == "bold redloud/"
    assert clean_text("line\u2028break\nnext", 50) == "line break next"


def test_names_are_one_name_whatever_the_case_or_width():
    assert name_key("Ben") == name_key("BEN") == name_key("ｂｅｎ") == name_key(" ben ")
    assert name_key("Ben") != name_key("Bea")


def test_names_are_cut_to_a_readable_length():
    assert len(clean_name("x" * 100)) == 24
