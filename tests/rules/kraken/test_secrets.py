"""Every eyes-closed moment stays private: a seat's view never depends on what it cannot know.

Each test plays the same script on two tables that differ only in a secret, then compares the
views of every seat that may not know it (and checks that the seat that may, can tell).
"""

from __future__ import annotations

from ..scripts import same_for
from .helpers import ROLES, act, appoint, keep, no_mutiny, raise_guns, sail, table

SEATS = [None, *range(7)]


def test_factions_stay_hidden_from_sailors_and_spectators():
    swapped = list(ROLES[7])
    swapped[2], swapped[6] = swapped[6], swapped[2]  # who is the cult leader: seat 6 or seat 2
    deck = ["red-telescope", "red-drunk", "red-drunk", "blue-drunk", "blue-disarmed",
            "red-drunk", "red-mermaid", "red-mermaid"]  # fmt: skip
    first, second = table(7, deck=deck, captain=3), table(7, deck=deck, captain=3, roles=swapped)
    for state in (first, second):
        state.ship = "0,2"
        sail(state, 4, 5, "red-telescope", "red-drunk", "red-telescope")  # to -1,3
        act(state, 3, {"type": "pick", "target": 2})  # a cabin search by seat 3
        act(state, 3, {"type": "pick", "target": 0})  # the telescope
        act(state, 0, {"type": "telescope", "choice": "keep"})
    same_for(first, second, [None, 0, 4, 5], differ=[2, 3, 6])
    assert first.view(3)["known"]["2"] == "sailor"
    assert second.view(3)["known"]["2"] == "cult"


def test_pirates_alone_know_whether_they_are_one_or_two():
    one = ["sailor", "pirate", "sailor", "sailor", "cult_leader"]
    two = ["sailor", "pirate", "pirate", "sailor", "cult_leader"]
    first, second = table(5, roles=one), table(5, roles=two)
    same_for(first, second, [None, 0, 3, 4], differ=[1, 2])


def test_drawn_cards_are_seen_by_the_drawer_only():
    first = table(7, deck=["red-drunk", "blue-drunk", "red-mermaid", "blue-disarmed"])
    second = table(7, deck=["red-drunk", "yellow-uprising", "red-mermaid", "blue-disarmed"])
    for state in (first, second):
        appoint(state, 1, 2)
        no_mutiny(state)
    same_for(first, second, [None, 1, 2, 3], differ=[0])
    for state in (first, second):
        keep(state, 0, "red-drunk")
    same_for(first, second, [None, 1, 2, 3], differ=[0])
    for state in (first, second):
        keep(state, 1, "blue-disarmed")
        act(state, 2, {"type": "steer", "card": "blue-disarmed"})
    # The captain's discarded card stays the captain's secret for the rest of the game.
    same_for(first, second, [None, 1, 2, 3, 4, 5, 6], differ=[0])


def test_the_logbook_is_seen_by_the_navigator_only():
    first = table(7, deck=["red-drunk", "blue-drunk", "red-mermaid", "blue-disarmed"])
    second = table(7, deck=["blue-drunk", "red-drunk", "red-mermaid", "blue-disarmed"])
    for state, kept in ((first, "red-drunk"), (second, "blue-drunk")):
        appoint(state, 1, 2)
        no_mutiny(state)
        keep(state, 0, kept)  # different cards reach the logbook
        keep(state, 1, "blue-disarmed")
    same_for(first, second, [None, 1, 3, 4, 5, 6], differ=[0, 2])
    for state in (first, second):
        act(state, 2, {"type": "steer", "card": "blue-disarmed"})
    same_for(first, second, [None, 1, 3, 4, 5, 6], differ=[0, 2])


def test_mutiny_fists_stay_closed_until_everyone_has_chosen():
    first, second = table(7), table(7)
    for state, guns in ((first, 2), (second, 0)):
        appoint(state, 1, 2)
        act(state, 3, {"type": "mutiny", "guns": guns})
    same_for(first, second, [None, 0, 1, 2, 4, 5, 6], differ=[3])


def test_mermaid_and_telescope_peeks_reach_the_chosen_player_only():
    first = table(7, deck=["red-mermaid", "blue-drunk", "red-drunk", "red-telescope"])
    second = table(7, deck=["red-mermaid", "blue-disarmed", "red-drunk", "red-telescope"])
    for state in (first, second):
        sail(state, 1, 2, "red-mermaid", "red-drunk", "red-mermaid")
        act(state, 0, {"type": "pick", "target": 4})
    same_for(first, second, [None, 1, 2, 3, 5, 6], differ=[0, 4])
    first = table(7, deck=["red-telescope", "red-drunk", "red-drunk", "blue-drunk", "red-mermaid"])
    second = table(
        7, deck=["red-telescope", "red-drunk", "red-drunk", "blue-drunk", "blue-disarmed"]
    )
    for state in (first, second):
        sail(state, 1, 2, "red-telescope", "red-drunk", "red-telescope")
        act(state, 0, {"type": "pick", "target": 4})
    same_for(first, second, [None, 0, 1, 2, 3, 5, 6], differ=[4])
    for state in (first, second):
        act(state, 4, {"type": "telescope", "choice": "discard"})
    same_for(first, second, [None, 0, 1, 2, 3, 5, 6], differ=[4])


UPRISING = ["yellow-uprising", "red-drunk", "red-drunk", "red-mermaid"]


def uprising(ritual, roles=None):
    state = table(7, deck=UPRISING, rituals=[ritual], roles=roles)
    sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
    return state


def test_who_is_converted_is_known_to_the_leader_and_the_convert_only():
    first, second = uprising("conversion"), uprising("conversion")
    act(first, 6, {"type": "convert", "target": 4})
    act(second, 6, {"type": "convert", "target": 5})
    same_for(first, second, [None, 0, 1, 2, 3], differ=[4, 5, 6])


def test_the_cult_leader_acts_unseen_in_a_ritual():
    swapped = list(ROLES[7])
    swapped[5], swapped[6] = swapped[6], swapped[5]  # the leader sits at 6 or at 5
    first, second = uprising("gun_stash"), uprising("gun_stash", roles=swapped)
    same_for(first, second, [None, 0, 1, 2, 3, 4], differ=[5, 6])
    act(first, 6, {"type": "stash", "recipients": [0, 0, 3]})
    act(second, 5, {"type": "stash", "recipients": [0, 0, 3]})
    same_for(first, second, [None, 0, 1, 2, 3, 4], differ=[5, 6])


def test_the_cult_cabin_search_is_the_leaders_secret():
    swapped = list(ROLES[7])
    swapped[0], swapped[1] = swapped[1], swapped[0]  # the captain is a sailor or a pirate
    first, second = uprising("cult_cabin_search"), uprising("cult_cabin_search", roles=swapped)
    same_for(first, second, [None, 2, 4, 5], differ=[0, 1, 3, 6])


def test_a_jumping_navigator_takes_their_faction_overboard_unseen():
    swapped = list(ROLES[7])
    swapped[2], swapped[3] = swapped[3], swapped[2]
    first, second = table(7, roles=ROLES[7]), table(7, roles=swapped)
    for state in (first, second):
        appoint(state, 1, 2)
        raise_guns(state)
        keep(state, 0, state.hands[0][0])
        keep(state, 1, state.hands[1][0])
        act(state, 2, {"type": "jump"})
    same_for(first, second, [None, 0, 4, 5, 6], differ=[1, 2, 3])


def test_unused_characters_stay_face_down():
    dealt = ["captain", "bosun", "smuggler", "kleptomaniac", "gunslinger", "equalizer", "agitator"]
    other = ["captain", "bosun", "smuggler", "look_out", "gunslinger", "equalizer", "agitator"]
    first = table(7, dealt_characters=dealt, seed=4)
    second = table(7, dealt_characters=other, seed=4)
    same_for(first, second, [None, 0, 1, 2, 4, 5, 6], differ=[3])


def test_nobody_sees_who_holds_the_character_a_window_waits_for():
    # A window opening is public (someone may use a character now); who may is not.
    dealt = ["captain", "bosun", "smuggler", "consultant", "gunslinger", "equalizer", "agitator"]
    other = ["captain", "bosun", "smuggler", "gunslinger", "consultant", "equalizer", "agitator"]
    first = table(7, dealt_characters=dealt, seed=4)
    second = table(7, dealt_characters=other, seed=4)
    assert first.view(None)["phase"] == "window" and first.waiting_for() == {3}
    same_for(first, second, [None, 0, 1, 2, 5, 6], differ=[3, 4])
    act(first, 3, {"type": "decline"})
    act(second, 4, {"type": "decline"})
    same_for(first, second, [None, 0, 1, 2, 5, 6], differ=[3, 4])


def test_the_look_outs_peek_is_the_look_outs_alone():
    dealt = ["captain", "bosun", "smuggler", "look_out", "gunslinger", "equalizer", "agitator"]
    first = table(7, dealt_characters=dealt, seed=4, deck=["red-drunk"])
    second = table(7, dealt_characters=dealt, seed=4, deck=["blue-drunk"])
    for state in (first, second):
        if state.phase == "window":
            for seat in sorted(state.waiting_for()):
                act(state, seat, {"type": "decline"})
        act(state, 3, {"type": "character", "name": "look_out"})
    same_for(first, second, [None, 0, 1, 2, 4, 5, 6], differ=[3])
    for state in (first, second):
        act(state, 3, {"type": "telescope", "choice": "keep"})
    same_for(first, second, [None, 0, 1, 2, 4, 5, 6], differ=[3])
