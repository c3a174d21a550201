"""Navigation: drawing and discarding, the logbook, steering, jumping overboard, the reshuffle."""

from __future__ import annotations

from collections import Counter

import pytest

from tablegames.rules import IllegalAction
from tablegames.rules.kraken.cards import deck_cards

from .helpers import act, appoint, keep, no_mutiny, private, public, sail, steer, table, texts

DECK = ["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"]


def test_captain_then_lieutenant_draw_two_each_and_see_only_their_own():
    state = table(7, deck=DECK)
    appoint(state, 1, 2)
    no_mutiny(state)
    assert public(state)["phase"] == "navigation" and state.waiting_for() == {0, 1}
    assert private(state, 0)["drawn"] == ["red-drunk", "blue-drunk"]
    assert private(state, 1)["drawn"] == ["red-mermaid", "yellow-uprising"]
    for seat in (None, 2, 3):
        assert state.view(seat)["private"].get("drawn", []) == []
    assert public(state)["deck_size"] == 15
    with pytest.raises(IllegalAction, match="keep one of the cards you drew"):
        state.apply(0, {"type": "keep", "card": "red-mermaid"})
    with pytest.raises(IllegalAction, match="no navigation cards"):
        state.apply(2, {"type": "keep", "card": "red-drunk"})
    events = act(state, 0, {"type": "keep", "card": "blue-drunk"})
    assert texts(events) == ["{0} puts a card in the logbook and discards the rest."]
    assert texts(events, 0)[0] == "You put blue-drunk in the logbook."
    assert private(state, 0)["kept"] == "blue-drunk" and private(state, 0)["drawn"] == []
    assert state.waiting_for() == {1}
    assert private(state, 2)["logbook"] == []  # the navigator waits for both cards
    keep(state, 1, "yellow-uprising")
    assert public(state)["phase"] == "steer" and state.waiting_for() == {2}
    assert sorted(private(state, 2)["logbook"]) == ["blue-drunk", "yellow-uprising"]
    assert private(state, 0)["logbook"] == [] and private(state, 1)["logbook"] == []
    assert public(state)["discard_size"] == 2


def test_the_navigator_steers_and_the_card_joins_the_captains_resume():
    state = table(7, deck=DECK)
    appoint(state, 1, 2)
    no_mutiny(state)
    keep(state, 0, "blue-drunk")
    keep(state, 1, "yellow-uprising")
    with pytest.raises(IllegalAction, match="logbook cards"):
        state.apply(2, {"type": "steer", "card": "red-drunk"})
    with pytest.raises(IllegalAction, match="only the navigator"):
        state.apply(1, {"type": "steer", "card": "blue-drunk"})
    assert {a["type"] for a in state.legal(2)} == {"steer", "jump"}
    events = act(state, 2, {"type": "steer", "card": "blue-drunk"})
    view = public(state)
    assert "The navigation card is blue-drunk; it joins {0}'s résumé." in texts(events)
    assert "The ship sails blue from 0,0 to 1,1." in texts(events)
    assert view["resumes"][0] == ["blue-drunk"] and view["ship"] == "1,1"
    assert view["discard_size"] == 3 and view["last_card"] == "blue-drunk"
    # Drunk: clockwise from the captain, the first with the fewest résumé cards takes over.
    assert view["captain"] == 1 and "{0} is drunk: {1} becomes captain." in texts(events)


@pytest.mark.parametrize(
    ("card", "space"), [("red-drunk", "-1,1"), ("yellow-uprising", "0,2"), ("blue-drunk", "1,1")]
)
def test_each_colour_follows_its_arrow(card, space):
    state = table(7, deck=[card, "red-mermaid", "red-telescope", "blue-disarmed"])
    sail(state, 1, 2, card, "red-telescope", card)
    assert public(state)["ship"] == space


def test_jumping_overboard_and_emergency_navigation():
    deck = [*DECK, "blue-disarmed", "red-drunk", "red-mermaid", "red-telescope"]
    state = table(7, deck=deck)
    appoint(state, 1, 2)
    no_mutiny(state)
    keep(state, 0, "red-drunk")
    keep(state, 1, "red-mermaid")
    events = act(state, 2, {"type": "jump"})
    assert "{2} jumps overboard! Both logbook cards are discarded unseen." in texts(events)
    view = public(state)
    assert view["eliminated"] == [2] and view["roles"] is None  # the faction stays hidden
    assert view["phase"] == "emergency" and state.waiting_for() == {0}
    # Off duty would be allowed; the captain, lieutenant and the jumper are not.
    assert {a["navigator"] for a in state.legal(0)} == {3, 4, 5, 6}
    with pytest.raises(IllegalAction, match="emergency navigator"):
        state.apply(0, {"type": "appoint", "navigator": 1})
    act(state, 0, {"type": "appoint", "navigator": 5})
    view = public(state)
    assert (view["lieutenant"], view["navigator"], view["phase"]) == (1, 5, "navigation")
    assert private(state, 0)["drawn"] == ["blue-disarmed", "red-drunk"]
    assert private(state, 1)["drawn"] == ["red-mermaid", "red-telescope"]
    keep(state, 0, "blue-disarmed")
    keep(state, 1, "red-telescope")
    steer(state, "blue-disarmed")
    view = public(state)
    assert view["ship"] == "1,1" and view["guns"][5] == 2
    assert view["off_duty"] == [1, 5]  # the emergency navigator is this navigation's navigator


def test_with_fewer_than_three_players_left_the_cards_fill_the_missing_roles():
    state = table(5)
    appoint(state, 1, 2)
    no_mutiny(state)
    for jumper in (2, 3, 4):
        keep(state, 0, state.hands[0][0])
        keep(state, 1, state.hands[1][0])
        act(state, jumper, {"type": "jump"})
        if jumper != 4:
            act(state, 0, {"type": "appoint", "navigator": jumper + 1})
    log = texts(public(state)["log"])
    assert "No navigator is left: the cards choose one at random." not in log
    # Nobody is left to be navigator: the navigation is redrawn and the cards choose.
    assert public(state)["phase"] == "navigation"
    keep(state, 0, state.hands[0][0])
    keep(state, 1, state.hands[1][0])
    assert "No navigator is left: the cards choose one at random." in texts(public(state)["log"])
    assert len(public(state)["resumes"][0]) == 1


def test_the_deck_reshuffles_before_a_navigation_with_fewer_than_four_cards():
    state = table(5)
    rounds = 0
    while public(state)["deck_size"] >= 4:
        captain, (lieutenant, navigator) = state.captain, state.officer_candidates()[:2]
        appoint(state, lieutenant, navigator)
        no_mutiny(state)
        keep(state, captain, state.hands[captain][0])
        keep(state, lieutenant, state.hands[lieutenant][0])
        steer(state, state.logbook[0])
        while not state.over and public(state)["phase"] not in ("appoint", "window"):
            seat = min(state.waiting_for())
            act(state, seat, state.legal(seat)[0])
        assert not state.over, "this voyage ended before the deck ran low: stack another one"
        rounds += 1
    resumes = [card for resume in state.resumes for card in resume]
    assert rounds == 4 and len(resumes) == 4 and public(state)["deck_size"] == 3
    captain, (lieutenant, navigator) = state.captain, state.officer_candidates()[:2]
    appoint(state, lieutenant, navigator)
    no_mutiny(state)
    assert "The discard pile is shuffled together with the draw pile." in texts(
        public(state)["log"]
    )
    in_hands = [card for hand in state.hands.values() for card in hand]
    assert public(state)["discard_size"] == 0 and public(state)["deck_size"] == 19 - 4 - 4
    # Résumé cards never return to the deck.
    assert Counter(state.draw_pile) + Counter(in_hands) + Counter(resumes) == Counter(
        deck_cards("quick")
    )
