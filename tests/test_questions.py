"""What a seat is asked, and actions chosen on a view from before its question changed.

A player (or a slow network) may act on a view the table has since moved past: the table
refuses such an action with a sentence when the seat's question changed in between, and lets
any-time actions (calls, accusations) through, since they stand on their own.
"""

from __future__ import annotations

import pytest

from tablegames.rules import IllegalAction, get_game
from tablegames.table import MOVED_ON, Table

ROACH_HANDS = [
    ["bat", "fly", "mouse"],
    ["frog", "scorpion", "mouse"],
    ["ladybug", "cockroach", "bat"],
]


def roach() -> Table:
    """Three roach seats; seat 0 offers first."""
    options = {"hands": ROACH_HANDS, "penalty": ["fly"], "first": 0}
    return Table(get_game("roach"), 3, ["Sara", "Ada", "Bruno"], seed=1, options=options)


def test_an_answer_chosen_before_the_question_changed_is_refused_and_changes_nothing():
    table = roach()
    before = table.update_for(1)  # Ada has nothing to answer yet
    table.submit(0, {"type": "offer", "card": "bat", "to": 1, "claim": "bat"})
    now = table.update_for(1)
    assert now.asked == table.version > before.asked  # a card in front of her: a new question
    log = list(table.log)
    with pytest.raises(IllegalAction, match=MOVED_ON):
        table.submit(1, {"type": "challenge", "believe": True}, seen=before.version)
    assert table.log == log and table.update_for(1).view == now.view
    table.submit(1, {"type": "challenge", "believe": True}, seen=now.version)
    assert len(table.log) == len(log) + 1


def test_the_same_question_on_a_newer_view_is_still_answered():
    table = Table(
        get_game("crates"),
        3,
        ["Sara", "Tom", "Ann"],
        seed=1,
        options={"dealer": 2, "hands": [["QH", "JH"], ["2C", "3C"], ["4H", "9H"]],
                 "upcard": "KH", "draw": ["4D", "6D", "7S"]},
    )  # fmt: skip
    waiting_before = table.update_for(2)
    table.submit(0, {"type": "play", "card": "QH", "announce": True})
    assert table.update_for(2).asked == waiting_before.asked  # Ann still only waits
    table.submit(1, {"type": "draw"})  # Tom cannot follow a queen of hearts: he draws
    assert table.update_for(2).asked == table.version  # now Ann is to play: a new question
    asked = table.update_for(2)
    table.submit(2, {"type": "play", "card": "4H"}, seen=asked.version)


def test_an_any_time_call_is_never_refused_as_chosen_too_early():
    crates = get_game("crates")
    options = {"dealer": 1, "hands": [["QH", "JH"], ["2C", "3C", "5C"]], "upcard": "KH"}
    table = Table(crates, 2, ["Sara", "Tom"], seed=1, options=options)
    old = table.update_for(1).version
    table.submit(0, {"type": "play", "card": "QH"})  # one card left, not announced
    assert {"type": "dope", "target": 0} in table.legal(1)
    table.submit(1, {"type": "dope", "target": 0}, seen=old)  # a call stands on its own
    assert table.log[-1][1]["type"] == "dope"


def test_the_question_is_what_the_seat_may_do_in_shape_not_every_card():
    state = get_game("crates").new(2, 1, dealer=1, hands=[["QH", "JH"], ["2C"]], upcard="KH")
    legal = state.legal(0)  # the queen or the jack, each with or without announcing
    assert state.question(0, legal) == state.question(0, legal[:2])  # one card, same ask
    assert state.question(0, legal) != state.question(0, [{"type": "draw"}])
    assert state.question(1, state.legal(1)) != state.question(0, legal)  # waits vs is asked
