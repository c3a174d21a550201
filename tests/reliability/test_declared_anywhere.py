"""The leak scanner looks for a declared secret's value wherever it is in a frame, not only
under the field the game declared it with; a value too common to mean anything (a small
number, a short word, one the recipient's own view holds) is looked for under its field only.
"""

from __future__ import annotations

from tablegames.rules import GAMES, load
from tablegames.testing.scanner import Scanner, Truth

#: Love Letter stacked: seat 0 holds the Countess and draws the Priest, seat 1 the Baron,
#: seat 2 the Handmaid... (the top card is set aside).
DECK = ["king", "countess", "baron", "handmaid", "guard", "priest", "guard", "prince"]
DECK += ["guard", "guard", "princess", "prince", "priest", "baron", "guard", "handmaid"]


def scanner() -> Scanner:
    game = load("tests.plugins.loveletter:LOVELETTER")
    return Scanner(Truth(game, 4, {"deck": DECK}, seed=1, log=[]))


def update(view: dict[str, object]) -> dict[str, object]:
    return {"t": "update", "version": 0, "view": view, "legal": [], "waiting": [], "events": []}


def test_a_secret_sent_under_another_key_is_a_leak():
    truth_view = GAMES["loveletter"].new(4, 1, deck=DECK).view(0)
    # seat 1 holds the Baron: declared as ("holds", (1, "baron")); here it rides along as a
    # pair of another name, and as a value in a list
    for leaked in ({"peek": [1, "baron"]}, {"notes": [[1, "baron"]]}):
        found = scanner().scan_message(0, 0, update({**truth_view, **leaked}))
        leaks = [finding.what for finding in found if finding.kind == "leak"]
        assert leaks == ["seat 1 holds the Baron"], (leaked, found)


def test_a_common_value_is_looked_for_under_its_field_only():
    truth_view = GAMES["loveletter"].new(4, 1, deck=DECK).view(0)
    # ["baron"] is seat 1's hand (declared as ("hand", ("baron",))), but a one-card list is
    # what any discard pile may be: under another key it says nothing
    found = scanner().scan_message(0, 0, update({**truth_view, "pile": ["baron"]}))
    assert [finding for finding in found if finding.kind == "leak"] == []
    found = scanner().scan_message(0, 0, update({**truth_view, "hand": ["baron"]}))
    assert "seat 1's hand is ['baron']" in [finding.what for finding in found]
