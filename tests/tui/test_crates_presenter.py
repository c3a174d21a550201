"""The Crates screen's game flow, read from views alone: no app, no terminal, no Pilot."""

from __future__ import annotations

from typing import Any

from tablegames.rules.crates_types import TYPES, CratesView
from tablegames.tui.screens.crates_presenter import CratesPresenter, Offers, Play

from .helpers import stacked

NAMES = ["Sara", "Ada (bot)"]


def dealt(hand: list[str], upcard: str = "KH", dealer: int = 1, **changes: Any) -> CratesView:
    """Seat 0's view of a two-seat table where seat 0 holds `hand`, with `changes` made."""
    client = stacked([hand, ["2D", "4C", "6S"]], upcard=upcard, dealer=dealer)
    view = TYPES.view(client.update(0).view)
    return {**view, **changes}  # type: ignore[typeddict-item]


def test_a_new_turn_picks_the_first_card_that_fits_and_says_what_to_do():
    flow = CratesPresenter(dealt(["QS", "7C", "5H"]))
    shown = flow.hand(dealt(["QS", "7C", "5H"]), 0, read_only=False, ascii=True)
    assert shown.cards == ["QS", "5H", "7C"]  # by suit: spades, hearts, clubs
    assert shown.selected == 1  # 5H, the one card that fits on KH
    assert shown.status == "Your turn: <- -> or a card's number picks it, Enter plays it."


def test_the_same_turn_drawn_again_keeps_the_pick_and_the_status_line():
    view = dealt(["QS", "7C", "5H"])
    flow = CratesPresenter(view)
    flow.hand(view, 0, read_only=False, ascii=True)
    assert flow.pick(view, 2, NAMES, 0, ascii=True) is not None
    again = flow.hand(view, 0, read_only=False, ascii=True)  # (a refused play: nothing moved)
    assert (again.selected, again.status) == (2, None)


def test_what_a_card_says_holds_until_the_turn_ends():
    view = dealt(["QS", "7C", "5H"])
    flow = CratesPresenter(view)
    flow.hand(view, 0, read_only=False, ascii=True)
    assert flow.pick(view, 0, NAMES, 0, ascii=True) == (
        "x QS does not fit: play a heart, a K, or an 8"
    )
    assert flow.hand(view, 0, read_only=False, ascii=True).status is None
    later = {**view, "turn": 1}
    assert flow.hand(later, 0, read_only=False, ascii=True).status == ""  # (cleared)


def test_a_replay_picks_nothing():
    view = dealt(["QS", "5H"])
    shown = CratesPresenter(view).hand(view, 0, read_only=True, ascii=True)
    assert (shown.selected, shown.status) == (None, None)


def test_crates_is_armed_only_with_two_cards_on_your_turn_and_goes_with_the_play():
    view = dealt(["QS", "5H"])
    flow = CratesPresenter(view)
    assert flow.arm(view, 0) == "Crates! will be announced with your next play."
    assert flow.hand(view, 0, read_only=False, ascii=True).subtitle == (
        "Crates! armed: announced with your next play"
    )
    assert flow.play_action(view, "5H", None) == {"type": "play", "card": "5H", "announce": True}
    assert flow.arm(view, 0) == "Crates! is no longer armed."
    assert flow.play_action(view, "5H", None) == {"type": "play", "card": "5H"}
    three = dealt(["QS", "5H", "7C"])
    assert flow.arm(three, 0) is None  # (c announces now, or is refused)
    assert flow.arm({**view, "turn": 1}, 0) is None


def test_arming_ends_when_the_hand_no_longer_holds_two_cards():
    view = dealt(["QS", "5H"])
    flow = CratesPresenter(view)
    flow.arm(view, 0)
    flow.hand(dealt(["QS", "5H", "7C"]), 0, read_only=False, ascii=True)
    assert not flow.armed


def test_enter_plays_asks_for_a_suit_or_says_why_not():
    view = dealt(["QS", "8D", "5H"])
    flow = CratesPresenter(view)
    flow.hand(view, 0, read_only=False, ascii=True)
    assert flow.play(view, 0, NAMES, ascii=True) == Play("play", "5H")
    flow.pick(view, 2, NAMES, 0, ascii=True)  # 8D: wild
    assert flow.play(view, 0, NAMES, ascii=True) == Play("name", "8D")
    flow.pick(view, 0, NAMES, 0, ascii=True)
    refused = flow.play(view, 0, NAMES, ascii=True)
    assert refused == Play("say", "QS", "x QS does not fit: play a heart, a K, or an 8")
    theirs = flow.play({**view, "turn": 1}, 0, NAMES, ascii=True)
    assert theirs == Play("say", "QS", "It is Ada (bot)'s turn, not yours: QS waits.")
    assert CratesPresenter(view).play({**view, "hand": []}, 0, NAMES, True) == Play(
        "say", words="Pick a card first."
    )
    assert flow.play({**view, "phase": "suit"}, 0, NAMES, ascii=True) == Play("suit")


def test_the_turned_up_cards_suit_is_asked_once_of_the_player_at_the_keyboard():
    view = {**dealt(["QS", "5H"]), "phase": "suit"}
    flow = CratesPresenter(view)
    assert not flow.asks_suit(view, shown=1)  # (someone else's to name)
    assert flow.asks_suit(view, shown=0)
    assert not flow.asks_suit(view, shown=0)
    flow.asks_suit({**view, "phase": "play"}, shown=0)
    assert flow.asks_suit(view, shown=0)  # (the next turned-up card)


def test_a_rounds_scores_are_shown_once():
    view = dealt(["QS", "5H"])
    flow = CratesPresenter(view)
    assert not flow.taken(view)
    ended = {"round": 1, "ender": 0, "points": [0, 12], "hands": [[], ["KS"]]}
    after: CratesView = {**view, "last_round": ended, "scores": [0, 12]}  # type: ignore[typeddict-item]
    assert flow.taken(after)
    assert not flow.taken(after)
    assert flow.summaries == [(ended, [0, 12], 15)]


def test_the_buttons_offered():
    view = dealt(["QS", "7C"])  # nothing fits on KH
    assert CratesPresenter.offers(view, 0) == Offers(draw=True, announce=True, dope=False)
    fits = dealt(["QS", "5H", "7C"])
    assert CratesPresenter.offers(fits, 0) == Offers(draw=False, announce=False, dope=False)
    exposed = {**fits, "exposed": [1]}
    assert CratesPresenter.offers(exposed, 0).dope
    assert CratesPresenter.dope_targets(exposed, 0) == [1]
    assert CratesPresenter.dope_targets({**fits, "exposed": [0]}, 0) == []
