"""Mutinies: secret simultaneous guns, thresholds, the new captain, tie-breaks, lost guns."""

from __future__ import annotations

import pytest

from tablegames.rules import IllegalAction

from .helpers import act, appoint, public, raise_guns, sail, table, texts


def mutiny(state, seat, guns):
    return act(state, seat, {"type": "mutiny", "guns": guns})


def test_every_other_seat_chooses_in_secret_until_all_are_in():
    state = table(7)
    appoint(state, 1, 2)
    assert public(state)["phase"] == "mutiny"
    assert state.waiting_for() == {1, 2, 3, 4, 5, 6}
    with pytest.raises(IllegalAction, match="no part"):
        state.apply(0, {"type": "mutiny", "guns": 1})  # the captain does not mutiny
    events = mutiny(state, 3, 2)
    assert texts(events) == ["{3} has chosen."]
    assert texts(events, 3) == ["You raise 2 guns.", "{3} has chosen."]
    assert state.waiting_for() == {1, 2, 4, 5, 6}
    with pytest.raises(IllegalAction, match="already closed"):
        state.apply(3, {"type": "mutiny", "guns": 0})
    with pytest.raises(IllegalAction, match="from 0 to 3"):
        state.apply(4, {"type": "mutiny", "guns": 4})
    with pytest.raises(IllegalAction, match="how many"):
        state.apply(4, {"type": "mutiny", "guns": "all"})
    for seat in (None, 0, 4):
        view = state.view(seat)
        assert view["mutiny"]["ready"] == [3] and view["mutiny"]["raised"] is None
        assert view["guns"] == [3] * 7  # what is in a fist stays hidden
        assert view["private"].get("mutiny_guns") is None
    assert state.view(3)["private"]["mutiny_guns"] == 2
    assert [a["guns"] for a in state.legal(4)] == [0, 1, 2, 3]


def test_a_failed_mutiny_gives_every_gun_back_and_navigation_follows():
    state = table(7)
    appoint(state, 1, 2)
    raise_guns(state, {3: 2})
    view = public(state)
    assert "The fists open: {1} 0, {2} 0, {3} 2, {4} 0, {5} 0, {6} 0." in texts(view["log"])
    assert "The mutiny fails (2 of 3 guns); everyone keeps their guns." in texts(view["log"])
    assert view["guns"] == [3] * 7 and view["captain"] == 0
    assert view["phase"] == "navigation" and state.waiting_for() == {0, 1}


def test_a_successful_mutiny_crowns_the_most_guns_and_discards_them_all():
    state = table(7, captain=0)
    appoint(state, 1, 2)
    raise_guns(state, {3: 2, 4: 1})
    view = public(state)
    assert "The mutiny succeeds with 3 guns (3 needed)!" in texts(view["log"])
    assert "{3} takes command from {0}; 3 raised guns are lost." in texts(view["log"])
    assert view["captain"] == 3 and view["guns"] == [3, 3, 3, 1, 2, 3, 3]
    # The round starts over: the new captain appoints a new team; nothing was drawn.
    assert view["phase"] == "appoint" and state.waiting_for() == {3}
    assert view["lieutenant"] is None and view["navigator"] is None
    assert view["deck_size"] == 19 and view["resumes"] == [[]] * 7


def test_a_tie_is_broken_by_the_old_captain_one_player_at_a_time():
    state = table(7)
    appoint(state, 1, 2)
    raise_guns(state, {3: 2, 4: 2, 5: 2})
    view = public(state)
    assert view["phase"] == "tie_break" and state.waiting_for() == {0}
    assert view["mutiny"]["tied"] == [3, 4, 5]
    assert state.legal(0) == [{"type": "tie_break", "target": t} for t in (3, 4, 5)]
    with pytest.raises(IllegalAction, match="old captain"):
        state.apply(3, {"type": "tie_break", "target": 4})
    with pytest.raises(IllegalAction, match="not among the tied"):
        state.apply(0, {"type": "tie_break", "target": 1})
    act(state, 0, {"type": "tie_break", "target": 4})
    assert public(state)["mutiny"]["tied"] == [3, 5] and public(state)["phase"] == "tie_break"
    act(state, 0, {"type": "tie_break", "target": 3})
    view = public(state)
    assert view["captain"] == 5 and view["guns"] == [3, 3, 3, 1, 1, 1, 3]
    assert view["phase"] == "appoint"


@pytest.mark.parametrize(
    ("players", "needed"), [(5, 3), (6, 3), (7, 3), (8, 4), (9, 4), (10, 5), (11, 5)]
)
def test_mutiny_thresholds(players, needed):
    state = table(players)
    appoint(state, 1, 2)
    assert public(state)["mutiny"]["threshold"] == needed
    raise_guns(state, {3: min(3, needed - 1), 4: max(0, needed - 4)})
    assert public(state)["captain"] == 0 and public(state)["phase"] == "navigation"
    state = table(players)
    appoint(state, 1, 2)
    raise_guns(state, {3: 3, 4: needed - 3})
    assert public(state)["captain"] == 3


def test_off_duty_players_may_mutiny_and_become_captain():
    state = table(7, deck=["blue-disarmed", "red-drunk", "blue-disarmed", "red-drunk"])
    sail(state, 1, 2, "blue-disarmed", "blue-disarmed", "blue-disarmed")
    assert public(state)["off_duty"] == [1, 2]
    appoint(state, 3, 4)
    raise_guns(state, {1: 3})
    assert public(state)["captain"] == 1


def test_players_without_guns_are_not_waited_for():
    state = table(7)
    appoint(state, 1, 2)
    raise_guns(state, {4: 3, 5: 3})
    act(state, 0, {"type": "tie_break", "target": 5})
    assert public(state)["captain"] == 4 and public(state)["guns"][4:6] == [0, 0]
    appoint(state, 1, 2)
    assert state.waiting_for() == {0, 1, 2, 3, 6}  # seat 5 has nothing to raise
    assert public(state)["mutiny"]["ready"] == [5]
