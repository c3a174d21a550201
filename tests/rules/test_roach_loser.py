"""Roach's `loser` option: `four` (the published game, the default) or `most` (the seed: the
player with the most face-up cards loses), the game ending the same way either way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablegames.rules import SetupError, get_game
from tablegames.testing.playing import settle_clock

from .test_roach_rules import act, offer, say, texts

roach = get_game("roach")


def table(*hands: list[str], fronts: list[list[str]], loser: str | None = "most") -> Any:
    options: dict[str, Any] = {"hands": [list(h) for h in hands], "fronts": fronts}
    if loser is not None:
        options["loser"] = loser
    return roach.new(len(hands), 1, first=0, **options)


def fourth_mouse_to_seat_1(loser: str | None, fronts: list[list[str]]) -> Any:
    """Seat 0 slides a mouse to seat 1 claiming frog; seat 1 says true, wrongly, and takes it:
    with three mice in front already, seat 1 ends the game."""
    state = table(["mouse", "fly"], ["frog"], ["bat"], ["bat"], fronts=fronts, loser=loser)
    act(state, 0, offer("mouse", 1, "frog"))
    events = act(state, 1, say(True))
    assert state.over
    return state, events


def test_the_option_is_offered_with_four_as_its_default_and_checked():
    (option,) = roach.options
    assert (option.name, option.default, option.choices) == ("loser", "four", ("four", "most"))
    assert roach.new(4, 1).view(0)["loser_rule"] == "four"
    with pytest.raises(SetupError, match="loser must be four or most"):
        roach.new(4, 1, loser="least")


@pytest.mark.parametrize("loser", [None, "four"])
def test_four_keeps_the_published_loser_even_with_fewer_cards_in_front(loser):
    fronts = [[], ["mouse", "mouse", "royal-mouse"], ["bat", "fly", "frog", "bat", "fly"], []]
    state, events = fourth_mouse_to_seat_1(loser, fronts)
    assert "{1} has 4 mice in front of them and loses! Everyone else wins." in texts(events)
    assert state.result()["loser"] == 1 and state.result()["ended_by"] == 1


def test_most_ends_the_game_the_same_way_and_the_most_face_up_cards_lose():
    fronts = [[], ["mouse", "mouse", "royal-mouse"], ["bat", "fly", "frog", "bat", "fly"], []]
    state, events = fourth_mouse_to_seat_1("most", fronts)
    assert texts(events)[-2:] == [
        "{1} has 4 mice in front of them: the game ends.",
        "{2} has the most face-up cards (5) and loses! Everyone else wins.",
    ]
    result = state.result()
    assert result["loser"] == 2 and result["winners"] == [0, 1, 3]
    assert result["ended_by"] == 1 and result["face_up"] == [0, 4, 5, 0]
    assert result["reason"] == "the most face-up cards (5)"
    assert state.view(None)["loser"] == 2 and state.view(0)["loser_rule"] == "most"


def test_a_tie_for_the_most_goes_to_the_player_who_ended_the_game():
    fronts = [[], ["mouse", "mouse", "royal-mouse"], ["bat", "fly", "frog", "bat"], []]
    state, events = fourth_mouse_to_seat_1("most", fronts)
    assert "{1} has the most face-up cards (4, tied with {2}) and loses! Everyone else wins." in (
        texts(events)
    )
    assert state.result()["loser"] == 1


def test_a_tie_without_the_player_who_ended_it_goes_to_the_most_of_one_animal():
    fronts = [[], ["mouse", "mouse", "royal-mouse"], ["bat", "fly", "frog", "bat", "fly"], []]
    fronts[3] = ["frog", "frog", "frog", "fly", "bat"]  # three frogs beat two bats
    state, events = fourth_mouse_to_seat_1("most", fronts)
    assert "{3} has the most face-up cards (5, tied with {2}) and loses! Everyone else wins." in (
        texts(events)
    )
    assert state.result()["loser"] == 3


def test_then_the_first_tied_player_after_the_one_who_ended_it_loses():
    fronts = [
        ["fly", "fly", "bat", "bat", "frog"],
        ["mouse", "mouse", "royal-mouse"],
        [],
        ["frog", "frog", "scorpion", "scorpion", "bat"],
    ]
    state, _ = fourth_mouse_to_seat_1("most", fronts)
    assert state.result()["loser"] == 3  # seats 3 then 0 come after seat 1


def test_an_empty_hand_ends_the_game_too():
    state = table(["blank", "fly"], [], ["frog"], fronts=[["bat", "bat"], [], []])
    act(state, 0, offer("blank", 1, "bat"))
    events = act(state, 1, say(True))  # the blank goes out in front of seat 1: 1 card, hand empty
    assert texts(events)[-2:] == [
        "{1} has no card left to offer: the game ends.",
        "{0} has the most face-up cards (2) and loses! Everyone else wins.",
    ]
    assert state.result()["loser"] == 0 and state.result()["ended_by"] == 1


def test_random_playouts_with_most_the_loser_always_has_the_most_face_up_cards():
    losers_who_did_not_end_it = 0
    for players in range(2, 7):
        for seed in range(60):
            state = roach.new(players, seed, loser="most")
            rng = random.Random(seed)
            for _ in range(5000):
                settle_clock(state, 0.0)
                if state.over:
                    break
                seat = rng.choice(sorted(state.waiting_for()))
                state.apply(seat, rng.choice(state.legal(seat)))
            result = state.result()
            face_up = [len(front) for front in state.fronts]
            assert result["face_up"] == face_up
            assert face_up[result["loser"]] == max(face_up), (players, seed)
            assert result["winners"] == [s for s in range(players) if s != result["loser"]]
            losers_who_did_not_end_it += result["loser"] != result["ended_by"]
    assert losers_who_did_not_end_it > 0  # the option changes who loses, not only the words
