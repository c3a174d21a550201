"""A cabin search shows a group (sailor, pirate or cult), never the rank inside the cult.

The seed: the captain "secretly sees their group" (پنهانی گروهش را میبیند). The cult leader and
a cultist both show as ``cult``, to the captain and in the cult's own cabin search ritual, so
that nobody learns from a search whether feeding that player wins the game for the cult.
"""

from __future__ import annotations

from .helpers import ROLES, act, at, public, sail, table, texts

LEADER = 6  # in the 7-player table
#: 11 players: seat 9 is the starting cultist and seat 10 the cult leader, or the other way.
ELEVEN = list(ROLES[11])
ELEVEN_SWAPPED = [*ELEVEN[:9], "cult_leader", "cultist"]
#: From 0,2 (both boards) a red card sails to -1,3: a cabin search.
TO_SEARCH = ["red-mermaid", "blue-drunk", "red-drunk", "blue-drunk"]
#: From 0,0 a yellow card sails to 0,2: nothing there, then the cult uprising.
TO_UPRISING = ["yellow-uprising", "red-drunk", "red-drunk", "blue-drunk"]


def searched(players, target, roles=None, deck=TO_SEARCH, captain=0):
    """A table whose captain has just searched `target`'s cabin at -1,3 (no other secrets)."""
    state = at(table(players, deck=deck, roles=roles, captain=captain), "0,2")
    lieutenant, navigator = [s for s in (1, 2, 3) if s not in (captain, target)][:2]
    sail(state, lieutenant, navigator, deck[0], "red-drunk", deck[0])
    assert public(state)["pick"] == "cabin_search"
    act(state, captain, {"type": "pick", "target": target})
    return state


def search_note(state, seat):
    """The private sentence the searching captain was shown."""
    return [e for e in state.view(seat)["log"] if e["to"] == [seat]][-1]


def test_the_captain_searching_the_cult_leader_sees_cult():
    state = searched(7, LEADER)
    view = state.view(0)
    assert view["known"] == {"6": "cult"}
    note = search_note(state, 0)
    assert note["text"] == "{6} is in the cult." and note["group"] == "cult"
    assert note["target"] == LEADER
    # Nothing the captain is shown names the rank: not the view, not a field of the log.
    assert "cult_leader" not in str(view)
    assert "{0} searches {6}'s cabin." in texts(public(state)["log"])


def test_the_captain_searching_a_starting_cultist_sees_cult():
    state = searched(11, 9)
    assert state.view(0)["known"] == {"9": "cult"}
    assert search_note(state, 0)["text"] == "{9} is in the cult."
    assert "cultist" not in str(state.view(0))


def test_the_captain_searching_a_convert_sees_cult():
    state = table(7, deck=TO_UPRISING + TO_SEARCH, rituals=["conversion"])
    sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
    act(state, LEADER, {"type": "convert", "target": 5})
    sail(state, 3, 4, "red-mermaid", "red-drunk", "red-mermaid")
    act(state, 0, {"type": "pick", "target": 5})
    assert state.view(0)["known"] == {"5": "cult"}
    assert search_note(state, 0)["text"] == "{5} is in the cult."
    assert state.view(LEADER)["known"] == {"5": "cultist"}  # the leader still knows the rank


def test_sailors_and_pirates_are_shown_as_before():
    assert searched(7, 4).view(0)["known"] == {"4": "sailor"}
    pirate = searched(7, 3)
    assert pirate.view(0)["known"] == {"3": "pirate"}
    assert search_note(pirate, 0)["text"] == "{3} is a pirate."


def test_leader_or_cultist_searched_looks_the_same_to_everyone_who_cannot_know():
    first = searched(11, 9, roles=ELEVEN)
    second = searched(11, 9, roles=ELEVEN_SWAPPED)
    for seat in [None, *range(9)]:  # the captain (0) above all
        assert first.view(seat) == second.view(seat), seat
    for seat in (9, 10):  # the two cult members know their own rank
        assert first.view(seat) != second.view(seat), seat


def test_leader_or_convert_searched_looks_the_same_to_everyone_who_cannot_know():
    swapped = list(ROLES[7])
    swapped[5], swapped[6] = swapped[6], swapped[5]  # the leader sits at 6 or at 5
    tables = []
    for roles, leader, convert in ((ROLES[7], 6, 5), (swapped, 5, 6)):
        state = table(7, deck=TO_UPRISING + TO_SEARCH, rituals=["conversion"], roles=roles)
        sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
        act(state, leader, {"type": "convert", "target": convert})
        sail(state, 3, 4, "red-mermaid", "red-drunk", "red-mermaid")
        act(state, 0, {"type": "pick", "target": 5})  # the convert, or the leader
        tables.append(state)
    first, second = tables
    assert first.view(0)["known"] == second.view(0)["known"] == {"5": "cult"}
    for seat in [None, *range(5)]:
        assert first.view(seat) == second.view(seat), seat


def test_a_convert_searching_their_leader_keeps_knowing_the_leader():
    # A group never blurs a rank the seat already knows.
    state = table(7, deck=TO_UPRISING + TO_SEARCH, rituals=["conversion"])
    sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
    act(state, LEADER, {"type": "convert", "target": 0})  # the captain joins the cult
    sail(state, 3, 4, "red-mermaid", "red-drunk", "red-mermaid")
    act(state, 0, {"type": "pick", "target": LEADER})
    assert search_note(state, 0)["text"] == "{6} is in the cult."
    assert state.view(0)["known"] == {"6": "cult_leader"}


# -- the cult's own cabin search ------------------------------------------------------------------


def test_the_cult_cabin_search_shows_groups_to_the_leader():
    state = table(11, deck=TO_UPRISING, rituals=["cult_cabin_search"])
    sail(state, 1, 9, "yellow-uprising", "red-drunk", "yellow-uprising")
    view = state.view(10)
    assert view["known"] == {"0": "sailor", "1": "pirate", "9": "cult"}
    note = [e for e in view["log"] if e["to"] == [10]][-1]
    assert note["text"] == (
        "The cult cabin search: {0} is a sailor, {1} is a pirate, {9} is in the cult."
    )
    assert note["found"] == [[0, "sailor"], [1, "pirate"], [9, "cult"]]
    assert "cultist" not in str(note)


def test_the_cult_cabin_search_keeps_what_the_leader_knows_of_a_convert():
    state = table(7, deck=TO_UPRISING * 2, rituals=["conversion", "cult_cabin_search"])
    sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
    act(state, LEADER, {"type": "convert", "target": 3})
    sail(state, 3, 4, "yellow-uprising", "red-drunk", "yellow-uprising")  # to -1,3
    act(state, 0, {"type": "pick", "target": 5})  # the map's cabin search comes first
    note = [e for e in state.view(LEADER)["log"] if e["to"] == [LEADER]][-1]
    assert note["text"] == (
        "The cult cabin search: {0} is a sailor, {3} is in the cult, {4} is a sailor."
    )
    assert state.view(LEADER)["known"] == {"0": "sailor", "3": "cultist", "4": "sailor"}
