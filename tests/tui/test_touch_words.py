"""A phone is told taps, a keyboard keys (issue 48, item 12): on the party's web page there is
no `d`, Enter or PgUp to press, but the footer's keys, the Draw button and the cards can be
tapped, and the log swiped."""

from __future__ import annotations

from typing import Any

import pytest

from tablegames.net.web_protocol import PAGE_ENV
from tablegames.rules import get_game
from tablegames.rules.crates_types import TYPES
from tablegames.tui.screens.crates_view import card_hint, turn_hint
from tablegames.tui.screens.recap import digest
from tablegames.tui.touch import press
from tablegames.tui.widgets.log import event_line

NAMES = ["Sara", "Ada (bot)"]
KEY_WORDS = ("Enter", "press ", "Press ", "PgUp", "←→")


def crates(hands: list[list[str]], upcard: str = "KH") -> Any:
    """Sara's view (seat 0, to play) of a crates deal of exactly `hands`."""
    state = get_game("crates").new(
        len(hands), 1, dealer=len(hands) - 1, hands=hands, upcard=upcard, draw=["2C", "3C"]
    )
    return TYPES.view(state.view(0))


def words() -> list[str]:
    """What the screens say of the keys: crates' hints, a long recap, the waiting room's r."""
    fits, wild, two = (
        crates([["QH", "7S", "4C"], ["JH", "10D", "5S"]]),
        crates([["8H", "7S", "4C"], ["JH", "10D", "5S"]]),
        crates([["QH", "7S"], ["JH", "10D", "5S"]]),
    )
    nothing = crates([["7S", "4C"], ["JH", "10D", "5S"]])
    long = [{"kind": "x", "text": f"{{1}} plays card {n}.", "to": None} for n in range(30)]
    rows = lambda line: 1 + len(line) // 80  # noqa: E731 (an 80-column log)
    recap = digest(long, NAMES, lambda event: event_line(event, NAMES), rows, height=5)
    assert recap is not None
    return [
        card_hint(fits, "QH", NAMES, 0),
        card_hint(wild, "8H", NAMES, 0),
        card_hint(two, "QH", NAMES, 0),
        turn_hint(fits),
        turn_hint(two),
        turn_hint(nothing),
        recap[1],
        f"Until you {press('r', 'Ready')}.",
    ]


def test_a_keyboard_is_told_keys():
    said = words()
    assert said[0] == "Enter plays Q♥."
    assert said[5] == "Nothing fits: press d to draw a card."
    assert "PgUp" in said[6] and said[7] == "Until you press r."


def test_a_phone_on_the_party_page_is_told_taps(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(PAGE_ENV, "1")
    said = words()
    for line in said:
        assert not any(word in line for word in KEY_WORDS), line
    assert said[0] == "Tap Q♥ again to play it."
    assert said[1] == "Tap 8♥ again to play it and name any suit."
    assert said[5] == "Nothing fits: tap Draw to draw a card."
    assert "a swipe down the log" in said[6] and said[7] == "Until you tap Ready."
