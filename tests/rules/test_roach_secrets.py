"""A seat's view of Cockroach Poker Royal never depends on what that seat cannot know."""

from __future__ import annotations

import random
from typing import Any

from tablegames.rules import get_game
from tablegames.rules.roach import DECK

from .scripts import same_for

roach = get_game("roach")


def stacked(hands: list[list[str]], penalty: list[str], first: int = 0) -> Any:
    return roach.new(len(hands), seed=9, hands=hands, penalty=penalty, first=first)


def deal(own: list[str], pile_top: list[str], cards: list[str], players: int) -> Any:
    """Seat 0 holds `own`; `cards` fill the other hands (as many as seat 0's) and the pile."""
    size = len(own)
    hands = [own] + [cards[size * i : size * (i + 1)] for i in range(players - 1)]
    return stacked(hands, [*pile_top, *cards[size * (players - 1) :]])


def views(state: Any, seats: list[int | None]) -> list[dict[str, Any]]:
    return [state.view(seat) for seat in seats]


def mentioned(view: dict[str, Any]) -> str:
    """Everything a view says, but the per-animal counts of face-up cards (keyed by animal)."""
    return repr({key: value for key, value in view.items() if key != "front_counts"})


def private_texts(view: dict[str, Any]) -> list[str]:
    return [entry["text"] for entry in view["log"] if entry["to"] is not None]


def test_the_card_in_flight_is_hidden_from_everyone_who_has_not_seen_it() -> None:
    # Two tables that differ only in the card seat 0 slides: a mouse or a royal frog.
    first = stacked([["mouse", "fly"], ["fly"], ["fly"], ["fly"]], penalty=["cockroach"])
    second = stacked([["royal-frog", "fly"], ["fly"], ["fly"], ["fly"]], penalty=["cockroach"])
    first.apply(0, {"type": "offer", "card": "mouse", "to": 1, "claim": "scorpion"})
    second.apply(0, {"type": "offer", "card": "royal-frog", "to": 1, "claim": "scorpion"})
    assert views(first, [1, 2, 3, None]) == views(second, [1, 2, 3, None])
    assert first.view(0)["flight"]["card"] == "mouse"
    assert second.view(0)["flight"]["card"] == "royal-frog"

    # Seat 1 peeks and passes: now seat 1 knows, seats 2, 3 and spectators still do not.
    for state in (first, second):
        state.apply(1, {"type": "pass", "to": 2, "claim": "royal"})
    assert views(first, [2, 3, None]) == views(second, [2, 3, None])
    assert first.view(1)["flight"]["card"] == "mouse"
    assert private_texts(first.view(1)) == ["You peek: the card is mouse."]
    for seat in (2, 3, None):
        assert "mouse" not in mentioned(first.view(seat))
        assert "frog" not in mentioned(second.view(seat))
        assert private_texts(first.view(seat)) == []

    # The challenge reveals it to everyone.
    for state in (first, second):
        state.apply(2, {"type": "challenge", "believe": False})
    assert first.view(None)["fronts"][1] == ["mouse"]
    assert first.view(3) != second.view(3)


def test_two_deals_differing_only_in_hidden_cards_look_the_same_to_the_seat() -> None:
    rng = random.Random(1)
    for trial in range(200):
        players = 2 + trial % 5
        deck = list(DECK)
        rng.shuffle(deck)
        size = 58 // players
        # The top two penalty cards are the same: a royal may pull the first into view.
        own, pile_top = deck[:size], deck[size : size + 2]
        hidden = deck[size + 2 : size * players + 7]
        other = hidden[:]
        rng.shuffle(other)
        tables = [deal(own, pile_top, cards, players) for cards in (hidden, other)]
        hands_differ = sorted(hidden[:size]) != sorted(other[:size])
        same_for(*tables, (0, None), differ=(1,) if hands_differ else ())

        # Seat 0 offers one of its own cards and the chain runs to the challenge: seat 0
        # still cannot tell the tables apart.
        moves = random.Random(trial)
        offer = moves.choice(tables[0].legal(0))
        for state in tables:
            state.apply(0, offer)
        while tables[0].phase == "respond":
            (seat,) = tables[0].waiting_for()
            assert tables[0].legal(seat) == tables[1].legal(seat)
            action = moves.choice(tables[0].legal(seat))
            for state in tables:
                state.apply(seat, action)
            same_for(*tables, (0, None))


def test_the_penalty_pile_shows_only_its_top_card() -> None:
    first = stacked([["bat"], ["fly"]], penalty=["mouse", "frog", "royal-bat"])
    second = stacked([["bat"], ["fly"]], penalty=["mouse", "royal-bat", "frog"])
    for seat in (0, 1, None):
        assert first.view(seat) == second.view(seat)
        assert first.view(seat)["penalty_top"] == "mouse"
        assert first.view(seat)["penalty_size"] == 3


def test_spectators_see_no_hand_no_card_in_flight_and_no_private_event() -> None:
    state = roach.new(4, seed=3)
    (seat,) = state.waiting_for()
    card = state.hands[seat][0]
    state.apply(seat, {"type": "offer", "card": card, "to": (seat + 1) % 4, "claim": "royal"})
    receiver = (seat + 1) % 4
    state.apply(receiver, {"type": "pass", "to": (seat + 2) % 4, "claim": "bat"})
    spectator = state.view(None)
    assert spectator["hand"] == []
    assert "card" not in spectator["flight"]
    assert all(entry["to"] is None for entry in spectator["log"])
    assert spectator["seat"] is None
    for viewer in range(4):
        view = state.view(viewer)
        assert view["hand"] == state.hands[viewer]
        assert ("card" in view["flight"]) == (viewer in (seat, receiver))
        assert all(entry["to"] in (None, [viewer]) for entry in view["log"])
    # the seed and the hidden piles are never part of a view
    for viewer in [None, 0]:
        view = state.view(viewer)
        assert "seed" not in repr(view)
        assert not {"hands", "penalty", "deck"} & set(view)
