"""A seat's view of Crates never depends on what that seat cannot know."""

from __future__ import annotations

import random

from tablegames.rules import get_game
from tablegames.rules.cards import DECK

from .scripts import same_for

crates = get_game("crates")


def stacked(hands, upcard, draw, dealer=0):
    return crates.new(len(hands), seed=9, dealer=dealer, hands=hands, upcard=upcard, draw=draw)


def deal(own, upcard, cards, players):
    hands = [own] + [cards[8 * i : 8 * i + 8] for i in range(players - 1)]
    return stacked(hands, upcard, cards[8 * (players - 1) :])


def test_two_deals_differing_only_in_hidden_cards_look_the_same_to_the_seat():
    rng = random.Random(1)
    for trial in range(200):
        players = 2 + trial % 4
        deck = list(DECK)
        rng.shuffle(deck)
        own, upcard = deck[:8], deck[8]
        hidden = deck[9 : 9 + 8 * (players - 1) + 10]
        other = hidden[:]
        rng.shuffle(other)

        first, second = (deal(own, upcard, cards, players) for cards in (hidden, other))
        if "8" in upcard[:-1] or "9" in upcard[:-1]:
            for state in (first, second):
                state.apply(0, state.legal(0)[0])
        same_for(first, second, (0, None), differ=(1,) if hidden[:8] != other[:8] else ())


def test_a_card_drawn_by_another_player_stays_secret():
    # Seat 1 cannot follow a heart (no heart, no queen, no wild), so it draws from different piles.
    first = stacked([["QH", "JH"], ["2C", "3C"]], upcard="KH", draw=["4D", "6D"], dealer=1)
    second = stacked([["QH", "JH"], ["2C", "3C"]], upcard="KH", draw=["7S", "10S"], dealer=1)
    for state in (first, second):
        state.apply(0, {"type": "play", "card": "QH", "announce": True})
        state.apply(1, {"type": "draw"})
    same_for(first, second, (0, None))
    assert first.view(1)["hand"] == ["2C", "3C", "4D"]
    assert second.view(1)["hand"] == ["2C", "3C", "7S"]
    assert "4D" not in repr(first.view(0)) and "4D" not in repr(first.view(None))
    private = [e for e in first.view(1)["log"] if e["to"] == [1]]
    assert private and "4D" in private[0]["text"]


def test_spectator_and_other_seats_never_get_a_hand():
    state = crates.new(4, seed=3)
    assert state.view(None)["hand"] == []
    for seat in range(4):
        view = state.view(seat)
        assert view["hand"] == state.hands[seat]
        for other in range(4):
            if other != seat:
                for card in state.hands[other]:
                    assert card not in repr({k: v for k, v in view.items() if k != "log"})
    # the seed and the deck order are never part of a view
    for seat in [None, 0]:
        text = repr(state.view(seat))
        assert "seed" not in text and "draw_pile" not in text
        assert state.draw_pile[-1] not in repr(state.view(seat)["discard"])
