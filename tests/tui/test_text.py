"""Card faces and log lines: symbols or letters, names in place of seat numbers."""

from __future__ import annotations

from tablegames.tui.screens.crates_view import suits_to_name
from tablegames.tui.widgets.card import card_label, prettify
from tablegames.tui.widgets.log import event_line


def test_cards_carry_their_suit_as_a_symbol_or_a_letter():
    assert card_label("10H") == "10♥"
    assert card_label("10H", ascii=True) == "10H"
    assert card_label("AS") == "A♠"


def test_sentences_get_card_faces_but_not_words():
    assert prettify("Ada plays 10H and names clubs.") == "Ada plays 10♥ and names clubs."
    assert prettify("you hold 8D, QS") == "you hold 8♦, Q♠"
    assert prettify("AS IS") == "A♠ IS"
    assert prettify("plays 10H", ascii=True) == "plays 10H"


def test_log_lines_name_the_seats():
    event = {"text": "{0} calls Dope! on {1}, who draws two and loses a turn.", "to": None}
    assert event_line(event, ["Sara", "Ada (bot)"]) == (
        "Sara calls Dope! on Ada (bot), who draws two and loses a turn."
    )
    assert event_line({"text": "{0} plays 7C.", "to": None}, ["{1}", "x"]) == "{1} plays 7♣."


def test_a_nine_names_only_its_colour():
    assert suits_to_name("9H") == ("H", "D")
    assert suits_to_name("9C") == ("C", "S")
    assert suits_to_name("8D") == ("S", "H", "D", "C")
