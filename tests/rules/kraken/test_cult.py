"""The cult: uprisings reveal rituals; conversion, the gun stash, the cult cabin search; winning."""

from __future__ import annotations

import pytest

from tablegames.rules import IllegalAction

from .helpers import act, appoint, at, keep, no_mutiny, private, public, sail, table, texts

UPRISING = ["yellow-uprising", "red-drunk", "red-drunk", "red-mermaid"]
LEADER = 6  # in the 7-player table


def uprising(rituals, players=7, **options):
    """A table where the first navigation reveals a cult uprising with `rituals` on top."""
    state = table(players, deck=UPRISING * 2, rituals=list(rituals), **options)
    sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
    return state


def test_an_uprising_reveals_the_top_ritual_and_the_leader_converts_in_secret():
    state = uprising(["conversion"])
    view = public(state)
    assert view["ship"] == "0,2" and view["rituals_used"] == ["conversion"]
    assert view["rituals_left"] == 4
    assert "Cult uprising: {0} reveals the ritual conversion." in texts(view["log"])
    assert "Everyone closes their eyes: the cult leader acts in secret." in texts(view["log"])
    assert view["phase"] == "convert" and state.waiting_for() == {LEADER}
    # Nobody but the leader sees who is being waited for.
    assert [state.view(seat)["waiting"] for seat in range(7)] == [[]] * 6 + [[LEADER]]
    assert public(state)["waiting"] == []
    assert state.legal(LEADER) == [{"type": "convert", "target": t} for t in range(6)]
    assert private(state, LEADER)["convertible"] == [0, 1, 2, 3, 4, 5]
    with pytest.raises(IllegalAction, match="nobody to convert"):
        state.apply(0, {"type": "convert", "target": 1})
    with pytest.raises(IllegalAction, match="never searched"):
        state.apply(LEADER, {"type": "convert", "target": LEADER})
    events = act(state, LEADER, {"type": "convert", "target": 3})
    assert texts(events)[0] == "Everyone opens their eyes."
    assert "{3}" not in str(texts(events))
    assert texts(events, 3)[0] == (
        "You are converted: {6} is the cult leader. You now win only with the cult."
    )
    assert state.view(3)["faction"] == "cultist"
    assert state.view(3)["known"] == {"1": "pirate", "6": "cult_leader"}
    assert state.view(LEADER)["known"] == {"3": "cultist"}
    # The other pirate still believes seat 3 is a pirate: nobody else learns anything.
    assert state.view(1)["known"] == {"3": "pirate"}
    assert public(state)["phase"] == "appoint"


def test_searched_flogged_cult_and_eliminated_players_cannot_be_converted():
    state = table(7, deck=["red-telescope", "red-drunk", "red-drunk", "blue-drunk", *UPRISING])
    at(state, "0,2")
    sail(state, 1, 2, "red-telescope", "red-drunk", "red-telescope")  # to -1,3: cabin search
    act(state, 0, {"type": "pick", "target": 4})
    act(state, 0, {"type": "pick", "target": 5})  # the telescope
    act(state, 5, {"type": "telescope", "choice": "keep"})
    state.rituals.append("conversion")
    # From -1,3 a yellow card sails to -1,5.
    sail(state, 3, 5, "yellow-uprising", "red-drunk", "yellow-uprising")
    assert public(state)["phase"] == "convert"
    assert private(state, LEADER)["convertible"] == [0, 1, 2, 3, 5]
    with pytest.raises(IllegalAction, match="never searched"):
        state.apply(LEADER, {"type": "convert", "target": 4})


def test_a_converted_player_wins_only_with_the_cult():
    state = uprising(["conversion"])
    act(state, LEADER, {"type": "convert", "target": 0})
    state.ship = "0,8"  # one yellow card from the Kraken
    sail(state, 3, 4, "yellow-uprising", "red-drunk", "yellow-uprising")
    assert state.result()["winner"] == "cult"
    assert state.result()["winners"] == [0, 6]
    assert state.result()["roles"][0] == "cultist"


def test_the_gun_stash_hands_out_three_guns_in_secret():
    state = uprising(["gun_stash"])
    assert public(state)["phase"] == "stash" and state.waiting_for() == {LEADER}
    options = state.legal(LEADER)
    assert len(options) == 84 and {"type": "stash", "recipients": [2, 2, 5]} in options
    with pytest.raises(IllegalAction, match="exactly 3 guns"):
        state.apply(LEADER, {"type": "stash", "recipients": [2, 5]})
    with pytest.raises(IllegalAction, match="exactly 3 guns"):
        state.apply(LEADER, {"type": "stash", "recipients": [2, 5, 9]})
    events = act(state, LEADER, {"type": "stash", "recipients": [2, 2, 5]})
    assert texts(events)[0] == "Everyone opens their eyes. Guns appear: {2} +2, {5} +1."
    assert texts(events, LEADER)[0] == "You hand out guns to {2}, {2}, {5}."
    assert public(state)["guns"] == [3, 3, 5, 3, 3, 4, 3]
    assert "{6}" not in str(public(state)["log"][-3:])


def test_the_cult_cabin_search_shows_the_team_to_the_leader_only():
    state = uprising(["cult_cabin_search"])
    view = state.view(LEADER)
    assert view["known"] == {"0": "sailor", "1": "pirate", "2": "sailor"}
    note = [e for e in view["log"] if e["to"] == [LEADER]][-1]
    assert (
        note["text"] == "The cult cabin search: {0} is a sailor, {1} is a pirate, {2} is a sailor."
    )
    for seat in (None, 0, 1, 2, 3):
        assert "cult cabin search:" not in str(state.view(seat)["log"])
    assert public(state)["phase"] == "appoint"


def test_no_ritual_left_means_nothing_happens():
    state = uprising(["gun_stash"])
    act(state, LEADER, {"type": "stash", "recipients": [0, 1, 2]})
    state.rituals.clear()
    sail(state, 3, 4, "yellow-uprising", "red-drunk", "yellow-uprising")
    act(state, 0, {"type": "pick", "target": 5})  # 0,2 yellow to -1,3: cabin search first
    assert "Cult uprising, but no rituals are left." in texts(public(state)["log"])
    assert public(state)["phase"] == "appoint"


def test_an_eliminated_leader_performs_no_ritual():
    jump_first = ["blue-drunk", "blue-drunk", "red-telescope", "red-telescope"]
    state = table(7, deck=jump_first + UPRISING, rituals=["conversion"])
    appoint(state, 1, LEADER)
    no_mutiny(state)
    keep(state, 0, "blue-drunk")
    keep(state, 1, "red-telescope")
    act(state, LEADER, {"type": "jump"})  # a jumping leader is no feast for the Kraken
    act(state, 0, {"type": "appoint", "navigator": 2})
    keep(state, 0, "yellow-uprising")
    keep(state, 1, "red-drunk")
    events = act(state, 2, {"type": "steer", "card": "yellow-uprising"})
    assert not state.over and public(state)["eliminated"] == [LEADER]
    assert public(state)["rituals_used"] == ["conversion"]
    assert texts(events)[-3:-1] == [
        "Everyone closes their eyes: the cult leader acts in secret.",
        "Everyone opens their eyes.",
    ]
    assert public(state)["phase"] == "appoint"
