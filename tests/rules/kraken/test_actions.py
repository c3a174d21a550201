"""Map and card actions, the supply line, goal areas, off-duty signs and elimination."""

from __future__ import annotations

import pytest

from tablegames.rules import IllegalAction

from .helpers import (
    act,
    appoint,
    at,
    keep,
    no_mutiny,
    private,
    public,
    raise_guns,
    sail,
    table,
    texts,
)

FILLER = ["red-drunk", "red-drunk"]


def pick(state, target):
    return act(state, state.captain, {"type": "pick", "target": target})


# -- map actions -----------------------------------------------------------------------------
def test_cabin_search_shows_the_group_to_the_captain_only():
    # From 0,2 a red card sails to -1,3: cabin search.
    state = at(table(7, deck=["red-telescope", *FILLER, "blue-drunk"]), "0,2")
    sail(state, 1, 2, "red-telescope", "red-drunk", "red-telescope")
    view = public(state)
    assert view["ship"] == "-1,3" and view["phase"] == "pick" and view["pick"] == "cabin_search"
    assert state.waiting_for() == {0}
    with pytest.raises(IllegalAction, match="only the captain"):
        state.apply(3, {"type": "pick", "target": 4})
    with pytest.raises(IllegalAction, match="another player"):
        state.apply(0, {"type": "pick", "target": 0})
    events = pick(state, 6)
    assert "{0} searches {6}'s cabin." in texts(events)
    assert texts(events, 0)[1] == "{6} is in the cult."  # the group, not the rank
    assert state.view(0)["known"] == {"6": "cult"}
    assert state.view(6)["known"] == {} and state.view(3)["known"] == {"1": "pirate"}
    assert public(state)["unconvertible"] == [6]
    # Then the card's own action: a telescope for a player of the captain's choice.
    assert public(state)["pick"] == "telescope"


def test_flogging_reveals_a_faction_the_player_does_not_belong_to():
    roles = ["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"]
    seen = {seat: set() for seat in (3, 4, 6)}
    for seed in range(40):
        # Long journey: from 0,6 a red card sails to -1,7, flogging.
        state = table(7, board="long", roles=roles, seed=seed, deck=["red-drunk"] * 4)
        at(state, "0,6")
        sail(state, 1, 2, "red-drunk", "red-drunk", "red-drunk")
        assert public(state)["pick"] == "flogging"
        target = (3, 4, 6)[seed % 3]
        events = pick(state, target)
        shown = public(state)["not_a"][target]
        assert len(shown) == 1 and f"{{{target}}} is flogged: not a {shown[0]}." in texts(events)
        seen[target].add(shown[0])
        assert target in public(state)["unconvertible"]
    assert seen == {3: {"sailor", "cult"}, 4: {"pirate", "cult"}, 6: {"sailor", "pirate"}}


def test_off_with_the_tongue_no_captaincy_and_no_command_after_a_mutiny():
    # Long journey: from -1,5 a blue card sails to 0,6, off with the tongue.
    state = at(table(7, board="long", deck=["blue-disarmed", *FILLER, "red-mermaid"]), "-1,5")
    sail(state, 1, 2, "blue-disarmed", "red-drunk", "blue-disarmed")
    assert public(state)["pick"] == "off_with_the_tongue"
    events = pick(state, 3)
    assert "Off with {3}'s tongue! They may no longer speak or be captain." in texts(events)
    assert public(state)["tongueless"] == [3]
    # The tongueless player's guns count towards the mutiny but not for the captaincy.
    appoint(state, 4, 5)
    raise_guns(state, {3: 3, 5: 1})
    view = public(state)
    assert view["captain"] == 5 and view["guns"][3] == 0


def test_guns_raised_only_by_a_tongueless_player_put_nobody_in_command():
    # The seed: "whoever revealed the most guns becomes the new captain", and off with the
    # tongue: "... and does not become captain". Nobody else raised a gun, so nobody rose
    # against the captain: the mutiny fails and every gun goes back.
    state = at(table(7, board="long", deck=["blue-disarmed", *FILLER, "red-mermaid"]), "-1,5")
    sail(state, 1, 2, "blue-disarmed", "red-drunk", "blue-disarmed")
    pick(state, 3)  # off with seat 3's tongue
    appoint(state, 4, 5)
    raise_guns(state, {3: 3})
    view = public(state)
    assert "The fists open: {1} 0, {2} 0, {3} 3, {4} 0, {5} 0, {6} 0." in texts(view["log"])
    assert (
        "The mutiny fails (nobody who may take command raised a gun); everyone keeps their guns."
        in texts(view["log"])
    )
    assert view["captain"] == 0 and view["guns"][3] == 3 and view["phase"] == "navigation"


def test_a_drunk_captain_skips_tongueless_and_eliminated_players():
    state = at(table(7, board="long", deck=["blue-drunk", *FILLER, "red-mermaid"]), "-1,5")
    sail(state, 1, 2, "blue-drunk", "red-drunk", "blue-drunk")
    pick(state, 1)  # seat 1 loses their tongue; then the drunk card passes the captaincy
    assert public(state)["captain"] == 2


def test_feeding_the_kraken_eliminates_without_revealing():
    # Quick journey: from 0,6 a red card sails to -1,7, feed the kraken.
    state = at(table(7, deck=["red-drunk", *FILLER, "red-mermaid"]), "0,6")
    sail(state, 1, 2, "red-drunk", "red-drunk", "red-drunk")
    assert public(state)["pick"] == "feed_the_kraken"
    events = pick(state, 3)
    view = public(state)
    assert "{3} is fed to the Kraken." in texts(events) and view["eliminated"] == [3]
    assert not state.over and view["roles"] is None
    # Then the drunk card: the captaincy passes to seat 1 (fewest résumé cards, clockwise).
    assert view["captain"] == 1
    # The eliminated take no part: not appointed, not asked to mutiny.
    assert all(3 not in (a["lieutenant"], a["navigator"]) for a in state.legal(1))
    appoint(state, 4, 5)
    assert 3 not in state.waiting_for() and state.waiting_for() == {0, 2, 4, 5, 6}


def test_feeding_the_cult_leader_wins_for_the_cult_at_once():
    state = at(table(11, deck=["red-mermaid", *FILLER, "red-drunk"]), "0,8")  # long board
    sail(state, 1, 2, "red-mermaid", "red-drunk", "red-mermaid")
    assert public(state)["ship"] == "-1,9" and public(state)["pick"] == "feed_the_kraken"
    events = pick(state, 10)
    assert state.over and "It was the cult leader: the cult wins!" in texts(events)
    result = state.result()
    assert result["winner"] == "cult" and result["winners"] == [9, 10]  # the cultist too
    assert result["reason"] == "cult_leader_fed" and result["scores"][9:] == [1, 1]
    assert state.view(None)["roles"][10] == "cult_leader"
    assert state.legal(0) == [] and state.waiting_for() == frozenset()


# -- goals -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("space", "card", "winner", "winners"),
    [
        ("3,5", "blue-drunk", "sailor", [0, 2, 4, 5]),
        ("-3,5", "red-drunk", "pirate", [1, 3]),
        ("0,8", "yellow-uprising", "cult", [6]),
    ],
)
def test_entering_a_goal_area_ends_the_game(space, card, winner, winners):
    state = at(table(7, deck=[card, *FILLER, "red-mermaid"]), space)
    sail(state, 1, 2, card, "red-drunk", card)
    result = state.result()
    assert result["winner"] == winner and result["winners"] == winners
    assert result["scores"] == [1 if seat in winners else 0 for seat in range(7)]
    # The card's action is not resolved: the game ended the moment the ship arrived.
    assert public(state)["captain"] == 0 and public(state)["phase"] == "over"


def test_an_eliminated_player_still_wins_with_their_faction():
    state = at(table(7, deck=["blue-drunk", *FILLER, "red-mermaid", "blue-disarmed", *FILLER,
                              "red-telescope"]), "3,5")  # fmt: skip
    appoint(state, 1, 2)
    no_mutiny(state)
    keep(state, 0, "blue-drunk")
    keep(state, 1, "red-mermaid")
    act(state, 2, {"type": "jump"})  # seat 2, a sailor
    act(state, 0, {"type": "appoint", "navigator": 4})
    keep(state, 0, "blue-disarmed")
    keep(state, 1, "red-telescope")
    act(state, 4, {"type": "steer", "card": "blue-disarmed"})
    assert state.result()["winners"] == [0, 2, 4, 5]


# -- card actions ----------------------------------------------------------------------------
def test_mermaid_shows_the_last_three_discards_to_the_chosen_player_only():
    deck = ["red-mermaid", "blue-drunk", "yellow-uprising", "blue-disarmed"]
    state = table(7, deck=deck)
    sail(state, 1, 2, "red-mermaid", "blue-disarmed", "red-mermaid")
    assert public(state)["pick"] == "mermaid"
    events = pick(state, 4)
    assert "{4} visits the mermaid and sees the last discarded cards." in texts(events)
    seen = private(state, 4)["peeks"][-1]
    assert seen["source"] == "mermaid"
    assert sorted(seen["cards"]) == ["blue-disarmed", "blue-drunk", "yellow-uprising"]
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["private"].get("peeks", []) == []
    for seat in (None, 2, 3):  # seat 1 drew the uprising, seat 0 the drunk
        assert "yellow-uprising" not in str(state.view(seat)["log"])


def test_telescope_peek_then_keep_or_discard():
    deck = ["red-telescope", *FILLER, "blue-drunk", "yellow-uprising"]
    for choice, top_after in (("keep", "yellow-uprising"), ("discard", None)):
        state = table(7, deck=deck)
        sail(state, 1, 2, "red-telescope", "red-drunk", "red-telescope")
        pick(state, 5)
        view = state.view(5)
        assert view["phase"] == "peek" and state.waiting_for() == {5}
        assert view["private"]["peek"] == "yellow-uprising"
        assert state.view(4)["private"]["peek"] is None
        with pytest.raises(IllegalAction, match="only the player looking"):
            state.apply(4, {"type": "telescope", "choice": "keep"})
        with pytest.raises(IllegalAction, match="'keep'"):
            state.apply(5, {"type": "telescope", "choice": "burn"})
        act(state, 5, {"type": "telescope", "choice": choice})
        assert (state.draw_pile[-1] == "yellow-uprising") == (top_after is not None)
        assert public(state)["phase"] == "appoint"
        assert private(state, 5)["peeks"] == [
            {"source": "telescope", "cards": ["yellow-uprising"], "choice": choice}
        ]


@pytest.mark.parametrize("card", ["red-mermaid", "red-telescope"])
def test_the_captain_may_not_send_themself_to_the_mermaid_or_hand_themself_the_telescope(card):
    # The seed: the captain «یک نفر را انتخاب میکند» ("chooses someone") who then sees the cards
    # and "may tell the truth or lie": another player, as for every pick.
    state = table(7, deck=[card, *FILLER, "blue-drunk", "yellow-uprising"])
    sail(state, 1, 2, card, "red-drunk", card)
    assert public(state)["pick"] == card.removeprefix("red-")
    assert {"type": "pick", "target": 0} not in state.legal(0)
    assert [a["target"] for a in state.legal(0)] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(IllegalAction, match="pick another player who is still on board"):
        state.apply(0, {"type": "pick", "target": 0})
    assert public(state)["pick"] == card.removeprefix("red-")


def test_armed_and_disarmed_change_the_navigators_guns():
    state = table(8, deck=["red-armed", *FILLER, "blue-disarmed"])  # long journey has armed
    sail(state, 1, 2, "red-armed", "red-drunk", "red-armed")
    assert public(state)["guns"][2] == 4
    state = table(7, deck=["blue-disarmed", *FILLER, "red-mermaid"])
    appoint(state, 1, 2)
    raise_guns(state, {2: 2})
    keep(state, 0, "blue-disarmed")
    keep(state, 1, "red-drunk")
    act(state, 2, {"type": "steer", "card": "blue-disarmed"})
    assert public(state)["guns"][2] == 2


def test_disarmed_never_takes_a_navigator_below_zero():
    state = table(7, deck=["blue-disarmed", *FILLER, "red-mermaid"])
    appoint(state, 1, 2)
    raise_guns(state, {4: 3, 5: 3})
    act(state, 0, {"type": "tie_break", "target": 5})
    assert public(state)["captain"] == 4 and public(state)["guns"][5] == 0
    sail(state, 1, 5, "blue-disarmed", "red-drunk", "blue-disarmed")
    assert public(state)["guns"][5] == 0


# -- supply line and off duty ----------------------------------------------------------------
def test_crossing_the_supply_line_refills_guns_to_three():
    state = at(table(7, board="long", deck=["blue-disarmed", *FILLER, "red-mermaid"]), "0,6")
    appoint(state, 1, 2)
    raise_guns(state, {3: 3})  # seat 3 takes command with no guns left
    appoint(state, 4, 5)
    no_mutiny(state)
    state.guns[0] = 5  # more than three stay as they are
    keep(state, 3, "blue-disarmed")
    keep(state, 4, "red-drunk")
    events = act(state, 5, {"type": "steer", "card": "blue-disarmed"})
    assert "The ship crosses the supply line: everyone refills to 3." in texts(events)
    assert public(state)["ship"] == "1,7"
    assert public(state)["guns"] == [5, 3, 3, 3, 3, 3, 3]
    pick(state, 1)  # flogging first, then the card: the navigator is disarmed
    assert public(state)["guns"] == [5, 3, 3, 3, 3, 2, 3]


@pytest.mark.parametrize(
    ("players", "offices"),
    [(5, ["navigator"]), (6, ["navigator"]), (7, ["lieutenant", "navigator"]),
     (8, ["lieutenant", "navigator"]), (9, ["captain", "lieutenant", "navigator"]),
     (11, ["captain", "lieutenant", "navigator"])],
)  # fmt: skip
def test_off_duty_signs_after_a_successful_navigation(players, offices):
    state = table(players, deck=["blue-disarmed", *FILLER, "red-mermaid"] + ["red-drunk"] * 2)
    sail(state, 1, 2, "blue-disarmed", "red-drunk", "blue-disarmed")
    seats = {"captain": 0, "lieutenant": 1, "navigator": 2}
    assert public(state)["off_duty"] == sorted(seats[o] for o in offices)
    # A captain's own sign has no effect: seat 0 still appoints.
    assert state.waiting_for() == {0}


def test_signs_are_taken_back_and_handed_out_anew():
    deck = [*("blue-disarmed", *FILLER, "red-mermaid"), *("blue-disarmed", *FILLER, "red-mermaid")]
    state = table(7, deck=deck)
    sail(state, 1, 2, "blue-disarmed", "red-drunk", "blue-disarmed")
    assert public(state)["off_duty"] == [1, 2]
    sail(state, 3, 4, "blue-disarmed", "red-drunk", "blue-disarmed")
    assert public(state)["off_duty"] == [3, 4]


def test_a_mutiny_does_not_hand_out_signs():
    state = table(7, deck=["blue-disarmed", *FILLER, "red-mermaid"])
    appoint(state, 1, 2)
    raise_guns(state, {5: 3})
    assert public(state)["off_duty"] == []
