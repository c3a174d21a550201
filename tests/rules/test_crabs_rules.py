"""You've Got Crabs scenarios: stacked tables played action by action against the rules
(`tablegames/rules/texts/crabs.md`, and the engine's readings in `rules/crabs.py`).

Every test is a little game script. `deal(...)` stacks the table (one hand per seat, the ocean,
the draw pile top first); cards named nowhere are out of the game. With four players team 0 is
seats 0 and 1, team 1 is seats 2 and 3; seats 0 and 2 sit on side 0, which swaps first unless a
test says otherwise. Every action carries its timestamp `now`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tablegames.rules import SetupError, get_game
from tablegames.rules.crabs import CLOCK_GRAIN

from .crabs_tables import KINGS, OCEAN, PLAIN, deal
from .scripts import assert_illegal

Action = dict[str, Any]
crabs = get_game("crabs")

REFILL = ("jab", "taxi", "ab", "bunny", "jab", "taxi", "ab", "bunny")


def swap(hand: str, ocean: str) -> Action:
    return {"type": "swap", "hand": hand, "ocean": ocean}


def done() -> Action:
    return {"type": "done"}


def want_swap(yes: bool) -> Action:
    return {"type": "want_swap", "yes": yes}


def accuse(target: Any) -> Action:
    return {"type": "accuse", "target": target}


def gesture(name: str) -> Action:
    return {"type": "gesture", "name": name}


def signal(name: str) -> Action:
    return {"type": "signal", "name": name}


def take(*sources: Any) -> Action:
    return {"type": "double_take", "sources": list(sources)}


def refused(state: Any, seat: Any, action: Any, now: float = 0.0) -> str:
    """Apply an action that must be refused; the state must not change. Returns the sentence."""
    return assert_illegal(state, seat, action, now, words=1)


def texts(events: list[dict[str, Any]]) -> list[str]:
    return [event["text"] for event in events]


def public_log(state: Any) -> list[str]:
    return [event["text"] for event in state.view(None)["log"]]


# -- teams, sides and setup ----------------------------------------------------------------------
def test_seats_make_teams_and_every_team_sits_on_both_sides():
    expected = {
        4: ([[0, 1], [2, 3]], [0, 1, 0, 1]),
        5: ([[0, 1], [2, 3, 4]], [0, 1, 0, 1, 1]),
        7: ([[0, 1], [2, 3], [4, 5, 6]], [0, 1, 0, 1, 0, 1, 1]),
        10: ([[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]], [0, 1] * 5),
    }
    for players, (teams, sides) in expected.items():
        view = crabs.new(players, seed=3).view(0)
        assert (view["teams"], view["sides"]) == (teams, sides)
    for players in range(4, 11):
        view = crabs.new(players, seed=3).view(None)
        for team in view["teams"]:
            assert {view["sides"][seat] for seat in team} == {0, 1}


def test_with_an_odd_count_the_smaller_side_zero_starts():
    for players in (5, 7, 9):
        for seed in range(5):
            view = crabs.new(players, seed).view(None)
            assert view["active_side"] == view["marker"] == 0
            assert view["sides"].count(0) < view["sides"].count(1)
    with pytest.raises(SetupError, match="side 0 has fewer and starts"):
        crabs.new(5, seed=1, first_side=1)


def test_with_an_even_count_first_side_or_the_seed_decides():
    assert crabs.new(6, seed=1, first_side=1).view(None)["active_side"] == 1
    assert crabs.new(6, seed=1, first_side=0).view(None)["active_side"] == 0
    assert {crabs.new(4, seed).view(None)["active_side"] for seed in range(20)} == {0, 1}
    with pytest.raises(SetupError, match="first_side must be 0 or 1"):
        crabs.new(4, seed=1, first_side=2)


def test_everyone_gets_two_tokens_and_eight_form_the_pot():
    state = crabs.new(4, seed=1)
    assert state.view(None)["tokens"] == [2, 2, 2, 2]
    assert state.view(None)["pot"] == 8
    assert state.unused == 29 - 16
    assert crabs.new(10, seed=1).view(None)["tokens"] == [2] * 10


def test_with_an_odd_count_the_team_of_three_gets_one_token_each_and_the_rest_three():
    assert crabs.new(5, seed=1).view(None)["tokens"] == [3, 3, 1, 1, 1]
    state = crabs.new(9, seed=1)
    assert state.view(None)["tokens"] == [3] * 6 + [1] * 3
    assert sum(state.tokens) + state.pot == 29 and state.unused == 0


@pytest.mark.parametrize("players", range(4, 11))
def test_two_or_three_teams_play_without_crabaloupe_and_crabrador_retriever(players):
    state = crabs.new(players, seed=players)
    view = state.view(0)
    in_play = [c for hand in state.hands for c in hand] + state.ocean + state.draw_pile
    assert len(in_play) == 4 * players + 4 + view["draw_size"]
    counts = Counter(in_play)
    if players <= 7:  # 2 or 3 teams
        assert len(in_play) == 66
        assert "cantaloupe" not in counts and "retriever" not in counts
        assert "cantaloupe" not in view["kinds"] and "retriever" not in view["kinds"]
    else:
        assert len(in_play) == 78
    assert set(counts.values()) == {6}
    assert all(len(hand) == 4 for hand in state.hands) and len(view["ocean"]) == 4


def test_a_small_game_cannot_be_stacked_with_a_removed_kind():
    hands = [list(hand) for hand in PLAIN]
    hands[0][0] = "cantaloupe"
    with pytest.raises(SetupError, match="'cantaloupe' is not a crab in this game"):
        deal(*hands)
    assert deal(*PLAIN, *PLAIN[:4], ocean=("cantaloupe",) * 4).hands[4] == list(PLAIN[0])


def test_a_setup_naming_a_kind_more_than_six_times_is_refused():
    with pytest.raises(SetupError, match="7 King Crabs; there are 6"):
        deal(KINGS, PLAIN[1], PLAIN[2], PLAIN[3], ocean=("king", "king", "king", "jab"))


def test_a_deck_order_is_dealt_one_card_at_a_time_round_the_table_then_the_ocean():
    order = [kind for kind in crabs.new(4, 1).view(None)["kinds"] for _ in range(6)]
    order = order[1::2] + order[::2]  # any full 66-card order
    state = crabs.new(4, seed=1, deck=order)
    assert state.view(2)["hand"] == [order[2], order[6], order[10], order[14]]
    assert state.view(2)["ocean"] == order[16:20]
    assert state.view(2)["draw_size"] == 46
    assert state.draw_pile[-1] == order[20]  # the next card drawn
    with pytest.raises(SetupError, match="each of the 66 cards"):
        crabs.new(4, seed=1, deck=order[:-1])


# -- swapping ------------------------------------------------------------------------------------
def test_a_swap_trades_a_hand_card_for_an_ocean_card_in_public():
    state = deal(*PLAIN)
    events = state.apply(0, swap("kebab", "jab"), now=1.5)
    assert texts(events) == ["{0} swaps a Shish Crabob for the Jab Crab."]
    assert events[0]["to"] is None and events[0]["time"] == 1.5
    assert state.view(0)["hand"] == ["crabbi", "crabbi", "jab", "diet"]
    assert state.view(3)["ocean"] == ["kebab", "taxi", "ab", "bunny"]
    assert state.view(3)["swapped_this_turn"] is True
    assert state.view(3)["hand_sizes"] == [4, 4, 4, 4]


def test_both_players_of_the_active_side_swap_as_often_as_they_like():
    state = deal(*PLAIN)
    state.apply(0, swap("kebab", "jab"), now=1.0)
    state.apply(2, swap("diet", "taxi"), now=1.1)
    state.apply(0, swap("diet", "ab"), now=1.2)
    state.apply(0, swap("jab", "bunny"), now=1.3)
    assert state.view(0)["hand"] == ["crabbi", "crabbi", "bunny", "ab"]
    assert state.view(2)["hand"] == ["kebab", "kebab", "taxi", "magic"]
    assert state.view(None)["ocean"] == ["kebab", "diet", "diet", "jab"]


def test_only_the_side_the_marker_points_to_may_swap():
    state = deal(*PLAIN)
    assert refused(state, 1, swap("magic", "jab")) == "it is side 0's turn to swap, not yours"
    assert not [a for a in state.legal(1) if a["type"] in ("swap", "done")]


def test_a_swap_must_name_cards_that_are_there():
    state = deal(*PLAIN)
    assert refused(state, 0, swap("king", "jab")) == "you hold no King Crab"
    assert refused(state, 0, swap("diet", "king")) == "there is no King Crab in the ocean"
    assert refused(state, 0, swap("diet", 7)).startswith("name a card from your hand")
    assert refused(state, 0, {"type": "swap"}).startswith("name a card from your hand")
    state.apply(0, swap("diet", "jab"), now=1.0)
    assert refused(state, 0, swap("jab", "taxi") | {"hand": "retriever"}).startswith("name a card")
    assert refused(state, 2, swap("diet", "diet")) == (
        "swapping a Low Crab Diet for a Low Crab Diet changes nothing"
    )


def test_two_swaps_race_for_one_ocean_card_and_the_first_to_arrive_wins():
    state = deal(*PLAIN)
    state.apply(2, swap("magic", "taxi"), now=3.00)
    # Seat 0 saw the Taxi Crab too, but its swap arrives 20 ms later.
    sentence = refused(state, 0, swap("kebab", "taxi"), now=3.02)
    assert sentence == "too late: the Taxi Crab was taken from the ocean first"
    assert state.view(2)["hand"] == ["kebab", "kebab", "diet", "taxi"]
    state.apply(0, swap("kebab", "magic"), now=3.05)  # it takes the card seat 2 put in instead
    assert state.view(0)["hand"] == ["crabbi", "crabbi", "magic", "diet"]


def test_when_every_player_of_the_side_is_done_the_marker_flips():
    state = deal(*PLAIN)
    state.apply(0, swap("kebab", "jab"), now=1.0)
    assert texts(state.apply(0, done(), now=2.0)) == ["{0} lays their hand down."]
    assert state.waiting_for() == {2}
    assert refused(state, 0, done()) == "you have already laid your hand down"
    events = state.apply(2, done(), now=2.5)
    assert texts(events)[-1] == "The marker turns to side 1."
    view = state.view(None)
    assert (view["active_side"], view["done"], view["swapped_this_turn"]) == (1, [], False)
    assert state.waiting_for() == {1, 3}
    assert refused(state, 0, swap("jab", "taxi")) == "it is side 1's turn to swap, not yours"


def test_a_done_player_picks_their_hand_back_up_with_another_swap():
    state = deal(*PLAIN)
    state.apply(0, done(), now=1.0)
    assert {"type": "done"} not in state.legal(0)
    assert swap("kebab", "jab") in state.legal(0)  # swapping is still allowed
    events = state.apply(0, swap("kebab", "jab"), now=1.5)
    assert texts(events) == [
        "{0} swaps a Shish Crabob for the Jab Crab and picks their hand back up."
    ]
    assert state.view(None)["done"] == [] and state.waiting_for() == {0, 2}


def test_a_side_that_made_no_swap_asks_the_other_side_and_a_yes_flips_the_marker():
    state = deal(*PLAIN)
    state.apply(0, done(), now=1.0)
    events = state.apply(2, done(), now=1.2)
    assert texts(events)[-1] == "Side 0 made no swap: does anyone on side 1 want to swap?"
    view = state.view(None)
    assert (view["phase"], view["asked"], view["marker"]) == ("asking", [1, 3], 0)
    assert state.waiting_for() == {1, 3}
    wait = "wait: the other side is being asked whether anyone wants to swap"
    assert refused(state, 0, swap("kebab", "jab")) == wait
    assert refused(state, 1, swap("magic", "jab")) == wait
    assert refused(state, 0, want_swap(True)) == "nobody is asking you whether you want to swap"
    assert refused(state, 3, {"type": "want_swap"}).startswith("answer whether you want to swap")
    state.apply(3, want_swap(False), now=2.0)
    assert state.waiting_for() == {1}
    events = state.apply(1, want_swap(True), now=2.5)
    assert texts(events) == ["{1} wants to swap.", "The marker turns to side 1."]
    view = state.view(None)
    assert (view["phase"], view["asked"], view["marker"]) == ("swap", [], 1)
    assert view["ocean"] == list(OCEAN)  # the ocean stays
    state.apply(1, swap("magic", "jab"), now=3.0)


def test_when_nobody_wants_to_swap_the_ocean_is_refreshed_and_the_same_side_plays_again():
    state = deal(*PLAIN, draw=["king", "king", "crabbi", "diet", "taxi"])
    state.apply(0, done(), now=1.0)
    state.apply(2, done(), now=1.2)
    state.apply(1, want_swap(False), now=2.0)
    events = state.apply(3, want_swap(False), now=2.1)
    assert texts(events) == [
        "{3} does not want to swap.",
        "Nobody wants to swap: the ocean is discarded and refilled with King Crab, King Crab, "
        "Crabbi, Low Crab Diet.",
        "Side 0 swaps again.",
    ]
    view = state.view(None)
    assert view["ocean"] == ["king", "king", "crabbi", "diet"]
    assert (view["draw_size"], view["discard_size"]) == (1, 4)
    assert (view["phase"], view["marker"], view["done"]) == ("swap", 0, [])
    assert state.waiting_for() == {0, 2}


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile():
    state = deal(*PLAIN, draw=["king", "king"])
    state.apply(0, done(), now=1.0)
    state.apply(2, done(), now=1.1)
    state.apply(1, want_swap(False), now=1.2)
    events = state.apply(3, want_swap(False), now=1.3)
    assert "The discard pile is shuffled into a new draw pile." in texts(events)
    view = state.view(None)
    assert view["ocean"][:2] == ["king", "king"]
    assert set(view["ocean"][2:]) <= set(OCEAN)  # two of the discarded ocean cards came back
    assert (view["draw_size"], view["discard_size"]) == (2, 0)
    every = [c for hand in state.hands for c in hand] + state.ocean + state.draw_pile
    assert Counter(every) == Counter([c for hand in PLAIN for c in hand] + [*OCEAN, "king", "king"])


# -- accusations ---------------------------------------------------------------------------------
def test_a_right_teammate_call_takes_a_token_from_the_pot_and_renews_the_hand():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL)
    events = state.apply(0, accuse(1), now=4.0)
    assert texts(events) == [
        "{0} calls “You've got crabs!” on {1}: right! {1} shows four King Crabs. "
        "{0} takes a token from the pot.",
        "{1} discards the four and draws four new cards.",
        "You draw Jab Crab, Taxi Crab, Ab Crab, Bunny Crabbit.",
    ]
    assert events[0]["cards"] == list(KINGS) and events[0]["correct"] is True
    assert [event["to"] for event in events] == [None, None, [1]]
    view = state.view(1)
    assert view["tokens"] == [3, 2, 2, 2] and view["pot"] == 7
    assert view["hand"] == ["jab", "taxi", "ab", "bunny"]
    assert (view["draw_size"], view["discard_size"]) == (4, 4)
    assert "You draw" not in repr(state.view(0)["log"])  # the new cards are the target's alone


def test_a_wrong_teammate_call_returns_a_token_from_the_caller_to_the_pot():
    state = deal(*PLAIN)
    events = state.apply(0, accuse(1), now=1.0)
    assert texts(events) == [
        "{0} calls “You've got crabs!” on {1}: wrong! {0} returns a token to the pot."
    ]
    assert state.view(None)["tokens"] == [1, 2, 2, 2] and state.view(None)["pot"] == 9
    assert state.view(1)["hand"] == list(PLAIN[1])  # the target keeps their cards


def test_a_wrong_teammate_call_by_a_broke_caller_costs_the_partner_a_token():
    state = deal(*PLAIN, tokens=[0, 2, 2, 2])
    state.apply(0, accuse(1), now=1.0)
    assert state.view(None)["tokens"] == [0, 1, 2, 2] and state.view(None)["pot"] == 9


def test_a_wrong_teammate_call_by_a_team_without_tokens_costs_nothing():
    state = deal(*PLAIN, tokens=[0, 0, 2, 2])
    events = state.apply(1, accuse(0), now=1.0)
    assert texts(events) == [
        "{1} calls “You've got crabs!” on {0}: wrong, but the team has no token to lose."
    ]
    assert state.view(None)["tokens"] == [0, 0, 2, 2] and state.view(None)["pot"] == 8


def test_a_right_opponent_call_takes_a_token_from_the_target():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL)
    events = state.apply(2, accuse(1), now=1.0)
    assert texts(events)[0] == (
        "{2} calls “You've got crabs!” on {1}: right! {1} shows four King Crabs. "
        "{1} gives {2} a token."
    )
    assert state.view(None)["tokens"] == [2, 1, 3, 2] and state.view(None)["pot"] == 8
    assert state.view(1)["hand"] == ["jab", "taxi", "ab", "bunny"]


def test_a_right_opponent_call_on_a_broke_target_takes_the_partners_token():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, tokens=[2, 0, 2, 2])
    state.apply(3, accuse(1), now=1.0)  # any time: side 1 is not swapping
    assert state.view(None)["tokens"] == [1, 0, 2, 3]


def test_a_right_opponent_call_on_a_broke_team_is_paid_from_the_pot():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, tokens=[0, 0, 2, 2])
    events = state.apply(2, accuse(1), now=1.0)
    assert texts(events)[0].endswith("The team has no token, so {2} takes one from the pot.")
    assert state.view(None)["tokens"] == [0, 0, 3, 2] and state.view(None)["pot"] == 7


def test_a_wrong_opponent_call_pays_the_target_a_token():
    state = deal(*PLAIN)
    events = state.apply(2, accuse(1), now=1.0)
    assert texts(events) == ["{2} calls “You've got crabs!” on {1}: wrong! {2} gives {1} a token."]
    assert state.view(None)["tokens"] == [2, 3, 1, 2] and state.view(None)["pot"] == 8
    assert state.view(1)["hand"] == list(PLAIN[1])


def test_a_wrong_opponent_call_by_a_broke_caller_is_paid_by_the_partner_then_the_pot():
    state = deal(*PLAIN, tokens=[2, 2, 0, 2])
    state.apply(2, accuse(1), now=1.0)
    assert state.view(None)["tokens"] == [2, 3, 0, 1]
    state = deal(*PLAIN, tokens=[2, 2, 0, 0])
    events = state.apply(2, accuse(1), now=1.0)
    assert texts(events)[0].endswith("The team has no token, so {1} takes one from the pot.")
    assert state.view(None)["tokens"] == [2, 3, 0, 0] and state.view(None)["pot"] == 7


def test_in_a_team_of_three_the_teammate_with_the_most_tokens_pays():
    state = deal(*PLAIN[:2], KINGS, *PLAIN[2:], draw=REFILL, tokens=[3, 3, 0, 1, 2])
    state.apply(0, accuse(2), now=1.0)  # seat 2 has the crab but no token
    assert state.view(None)["tokens"] == [4, 3, 0, 1, 1]  # seat 4 is the richest teammate
    state = deal(*PLAIN[:2], KINGS, *PLAIN[2:], draw=REFILL, tokens=[3, 3, 0, 2, 2])
    state.apply(0, accuse(2), now=1.0)
    assert state.view(None)["tokens"] == [4, 3, 0, 1, 2]  # a tie: the lower seat pays


def test_anyone_may_accuse_at_any_moment_but_not_themselves():
    state = deal(*PLAIN)
    state.apply(0, done(), now=1.0)
    state.apply(2, done(), now=1.1)  # side 1 is being asked
    state.apply(1, accuse(2), now=1.2)  # an idle player of the asked side
    state.apply(0, accuse(3), now=1.3)  # a done player
    assert refused(state, 0, accuse(0)) == "you cannot accuse yourself"
    assert refused(state, 0, accuse(9)) == "there is no seat 9 at this table"
    assert refused(state, 0, accuse("everyone")) == "say whom you accuse, by seat number"
    assert refused(state, 0, accuse(True)) == "say whom you accuse, by seat number"
    assert state.waiting_for() == {1, 3}  # accusing never makes anybody wait


def test_the_two_same_side_members_of_a_team_of_three_may_not_accuse_each_other():
    state = deal(*PLAIN, ("king",) * 4, draw=REFILL)
    assert state.view(None)["sides"] == [0, 1, 0, 1, 1]
    beside = "you may not accuse the teammate sitting beside you on your side"
    assert refused(state, 3, accuse(4)) == beside
    assert refused(state, 4, accuse(3)) == beside
    assert accuse(4) not in state.legal(3) and accuse(3) not in state.legal(4)
    assert [a["target"] for a in state.legal(4) if a["type"] == "accuse"] == [0, 1, 2]
    state.apply(2, accuse(4), now=1.0)  # the third member across the table may
    assert state.view(None)["tokens"] == [3, 3, 2, 1, 1] and state.view(None)["pot"] == 7


# -- a call on a four already called ------------------------------------------------------------
LATE = "{2} calls “You've got crabs!” on {1}, but {0} called that four first: the call is void."


def test_a_call_on_a_four_called_a_moment_earlier_is_void_and_changes_nothing():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL)
    state.apply(0, accuse(1), now=10.0)  # right: seat 1 shows the Kings and draws four new cards
    before = (state.view(None)["tokens"], state.view(None)["pot"], state.view(1)["hand"])
    events = state.apply(2, accuse(1), now=10.4)  # about the Kings, not the new hand
    assert texts(events) == [LATE]
    assert events[0]["kind"] == "void_call" and events[0]["to"] is None
    assert (events[0]["accuser"], events[0]["target"], events[0]["first"]) == (2, 1, 0)
    assert "correct" not in events[0]
    assert (state.view(None)["tokens"], state.view(None)["pot"], state.view(1)["hand"]) == before


@pytest.mark.parametrize("apart, void", [(0.999, True), (1.0, True), (1.001, False)])
def test_a_call_at_most_one_second_after_the_four_was_called_is_void(apart, void):
    # The seed counts calls at most one second apart as made at once (the double crab).
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL)
    state.apply(0, accuse(1), now=10.0)
    events = state.apply(2, accuse(1), now=10.0 + apart)
    if void:
        assert texts(events) == [LATE] and state.view(None)["tokens"] == [3, 2, 2, 2]
    else:  # judged against the new hand: wrong, and seat 2 pays seat 1
        assert texts(events) == [
            "{2} calls “You've got crabs!” on {1}: wrong! {2} gives {1} a token."
        ]
        assert state.view(None)["tokens"] == [3, 3, 1, 2]


def test_a_late_call_is_void_even_when_the_new_hand_is_four_of_a_kind_or_the_caller_a_partner():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=(*MAGIC, *REFILL))
    state.apply(2, accuse(1), now=10.0)  # an opponent steals the Kings; seat 1 draws four magic
    assert state.view(1)["hand"] == list(MAGIC)
    events = state.apply(0, accuse(1), now=10.5)  # the partner, too late for the Kings
    assert texts(events) == [LATE.replace("{2}", "{x}").replace("{0}", "{2}").replace("{x}", "{0}")]
    assert state.view(None)["tokens"] == [2, 1, 3, 2] and state.view(1)["hand"] == list(MAGIC)
    events = state.apply(0, accuse(1), now=11.5)  # later: a call on the new four, and right
    assert texts(events)[0].startswith("{0} calls “You've got crabs!” on {1}: right!")


# -- the double crab -----------------------------------------------------------------------------
MAGIC = ("magic",) * 4
DOUBLE_HANDS = (KINGS, MAGIC, PLAIN[2], ("cabernet", "cabernet", "crabbi", "diet"))


def test_partners_catching_each_other_within_a_second_make_a_double_crab():
    state = deal(*DOUBLE_HANDS, draw=REFILL)
    state.apply(0, accuse(1), now=10.0)
    assert state.view(None)["tokens"] == [3, 2, 2, 2] and state.view(None)["pot"] == 7
    events = state.apply(1, accuse(0), now=10.9)
    assert texts(events)[0] == (
        "{1} calls “You've got crabs!” on {0}: right! {0} shows four King Crabs. Double crab! "
        "{0} puts the first call's token back in the pot. The team takes 3 tokens from "
        "opponents and/or the pot."
    )
    view = state.view(None)
    assert view["tokens"] == [2, 2, 2, 2] and view["pot"] == 8
    assert view["double_take"] == [{"team": 0, "tokens": 3, "callers": [0, 1]}]
    assert state.waiting_for() == {0, 1, 2}  # the team must choose; side 0 still swaps
    assert take("pot", 2, 3) in state.legal(1) and take(2, 2, 3) in state.legal(0)
    assert not [a for a in state.legal(2) if a["type"] == "double_take"]
    # Sources named in any order are taken as `legal` lists them: the pot first, then seats.
    events = state.apply(1, take(3, "pot", 2), now=12.0)
    assert texts(events) == [
        "{1}'s team collects the double crab: 3 tokens from the pot, {2}, {3}."
    ]
    view = state.view(None)
    assert view["tokens"] == [4, 3, 1, 1] and view["pot"] == 7
    assert view["double_take"] == [] and state.waiting_for() == {0, 2}


def test_a_double_take_must_name_sources_the_team_may_take_from():
    state = deal(*DOUBLE_HANDS, draw=REFILL)
    assert refused(state, 0, take("pot", 2, 3)) == "your team has no double crab to collect"
    state.apply(0, accuse(1), now=10.0)
    state.apply(1, accuse(0), now=10.5)
    wording = "name 3 sources, one per token: 'pot' or an opponent's seat number"
    assert refused(state, 0, take("pot")) == wording
    assert refused(state, 0, {"type": "double_take", "sources": "pot"}) == wording
    assert refused(state, 0, take("pot", 1, 2)) == "1 is not the pot or an opponent's seat"
    assert refused(state, 0, take("pot", 7, 2)) == "7 is not the pot or an opponent's seat"
    assert refused(state, 0, take(2, 2, 2)) == "seat 2 holds only 2 tokens"
    assert refused(state, 2, take("pot", "pot", "pot")) == "your team has no double crab to collect"
    state.apply(0, take("pot", "pot", "pot"), now=11.0)
    assert state.view(None)["tokens"] == [4, 3, 2, 2] and state.view(None)["pot"] == 5


def test_partners_catching_each_other_more_than_a_second_apart_score_one_each():
    state = deal(*DOUBLE_HANDS, draw=REFILL)
    state.apply(0, accuse(1), now=10.0)
    events = state.apply(1, accuse(0), now=11.01)
    assert "Double crab" not in texts(events)[0]
    view = state.view(None)
    assert view["tokens"] == [3, 3, 2, 2] and view["pot"] == 6 and view["double_take"] == []


@pytest.mark.parametrize("apart, double", [(0.999, True), (1.0, True), (1.001, False)])
def test_calls_at_most_one_second_apart_make_a_double_crab_one_second_included(apart, double):
    # The seed: the two calls "must be at most 1 second apart" (نهایتاً در فاصله 1 ثانیه ای).
    state = deal(*DOUBLE_HANDS, draw=REFILL)
    state.apply(0, accuse(1), now=10.0)
    events = state.apply(1, accuse(0), now=10.0 + apart)
    assert ("Double crab!" in texts(events)[0]) is double
    view = state.view(None)
    if double:
        assert view["double_take"] == [{"team": 0, "tokens": 3, "callers": [0, 1]}]
        assert view["tokens"] == [2, 2, 2, 2] and view["pot"] == 8
    else:  # two single calls: a pot token each
        assert view["double_take"] == [] and view["tokens"] == [3, 3, 2, 2] and view["pot"] == 6


def test_a_call_on_a_third_player_in_between_does_not_spoil_the_double_crab():
    state = deal(*DOUBLE_HANDS, draw=REFILL)
    state.apply(0, accuse(1), now=10.0)
    state.apply(2, accuse(3), now=10.2)  # team 1 gets it wrong meanwhile
    state.apply(1, accuse(0), now=10.6)
    assert state.view(None)["double_take"] == [{"team": 0, "tokens": 3, "callers": [0, 1]}]


def test_a_team_that_spent_the_first_token_is_owed_two():
    state = deal(*DOUBLE_HANDS, draw=REFILL, tokens=[0, 0, 2, 2])
    state.apply(0, accuse(1), now=1.0)  # right: seat 0 takes the pot token
    state.apply(0, accuse(2), now=1.2)  # wrong: seat 0 pays it to seat 2
    events = state.apply(1, accuse(0), now=1.5)
    assert "The team takes 2 tokens" in texts(events)[0]
    assert state.view(None)["double_take"] == [{"team": 0, "tokens": 2, "callers": [0, 1]}]
    state.apply(0, take(2, 2), now=2.0)
    assert state.view(None)["tokens"] == [1, 1, 1, 2]


def test_a_team_of_three_gets_no_double_crab():
    state = deal(*PLAIN[:2], KINGS, MAGIC, PLAIN[2], draw=REFILL)
    state.apply(2, accuse(3), now=1.0)
    events = state.apply(3, accuse(2), now=1.5)
    assert "Double crab" not in texts(events)[0]
    view = state.view(None)
    assert view["tokens"] == [3, 3, 2, 2, 1] and view["pot"] == 6 and view["double_take"] == []


def test_a_pending_double_crab_is_paid_from_opponents_when_the_pot_runs_dry():
    no_magic = ("cabernet", "cabernet", "crabbi", "diet")
    hands = (KINGS, MAGIC, PLAIN[2], no_magic, PLAIN[0], PLAIN[1])
    state = deal(*hands, draw=REFILL, tokens=[2, 2, 0, 0, 2, 2], pot=2)
    state.apply(0, accuse(1), now=1.0)
    state.apply(1, accuse(0), now=1.4)  # the first token goes back: the pot holds 2 again
    assert state.view(None)["double_take"] == [{"team": 0, "tokens": 3, "callers": [0, 1]}]
    # More than a second later (sooner, the calls would be about the fours shown: void).
    state.apply(2, accuse(0), now=2.6)  # wrong, and team 1 is broke: the pot pays seat 0
    events = state.apply(3, accuse(1), now=2.7)  # the same: the pot's last token
    assert texts(events)[-1] == "The pot is empty: the game ends once the double crab is collected."
    assert not state.over and state.view(None)["phase"] == "closing"
    assert state.deadline() is None and state.waiting_for() == {0, 1}
    assert state.view(None)["double_take"] == [{"team": 0, "tokens": 3, "callers": [0, 1]}]
    assert take(4, 4, 5) in state.legal(1) and take("pot", 4, 5) not in state.legal(1)
    assert state.legal(4) == []
    closing = "the pot is empty: the game ends once the double crab is collected"
    assert refused(state, 4, gesture("wink"), now=3.0) == closing
    assert refused(state, 4, accuse(1), now=3.0) == closing
    assert refused(state, 0, take("pot", 4, 5), now=3.0) == "the pot holds only 0 tokens"
    events = state.apply(0, take(4, 4, 5), now=4.0)
    assert texts(events) == [
        "{0}'s team collects the double crab: 3 tokens from {4}, {4}, {5}.",
        "Game over: {0} and {1} win with 9 tokens.",
    ]
    assert state.over and state.result()["team_tokens"] == [9, 0, 1]
    assert state.view(None)["tokens"] == [5, 4, 0, 0, 0, 1]


# -- the end -------------------------------------------------------------------------------------
TIME = {"type": "time"}


def closes(called_at: float) -> float:
    """When the double-crab window of a correct call at `called_at` has closed: the second
    after it, its last instant included, is the window."""
    return called_at + 1.0 + CLOCK_GRAIN


def test_a_partner_call_on_the_last_token_keeps_the_game_open_for_one_second():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, pot=1)
    events = state.apply(0, accuse(1), now=5.0)
    assert texts(events)[-1] == (
        "The pot is empty: the game ends when the double-crab window closes."
    )
    assert not state.over and state.deadline() == closes(5.0)
    view = state.view(2)
    assert view["phase"] == "closing" and view["window_closes"] == closes(5.0) and view["pot"] == 0
    assert state.waiting_for() == frozenset()  # nobody's move is needed: the clock decides
    assert state.legal(1) == [accuse(0)]  # only the partner's answering call
    assert state.legal(0) == [] and state.legal(2) == [] and state.legal(3) == []
    closing = "the pot is empty: the game ends when the double-crab window closes"
    assert refused(state, 2, gesture("wink"), now=5.5) == closing
    assert refused(state, 3, accuse(0), now=5.5) == closing
    assert refused(state, 0, swap("kebab", "jab"), now=5.5) == closing
    assert refused(state, 1, accuse(2), now=5.5) == closing


def test_time_before_the_deadline_is_refused_and_changes_nothing():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, pot=1)
    assert refused(state, 2, TIME, now=100.0) == "nothing is waiting on the clock"
    state.apply(0, accuse(1), now=5.0)
    assert refused(state, 2, TIME, now=5.999) == "nothing is waiting on the clock"
    assert refused(state, 2, TIME, now=6.0) == "nothing is waiting on the clock"  # one second
    assert TIME not in state.legal(2) and not state.over


def test_a_partner_call_after_the_window_waits_for_the_clock_and_then_the_game_is_over():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, pot=1)
    state.apply(0, accuse(1), now=5.0)
    assert refused(state, 1, accuse(0), now=6.001).startswith("time is up: the double-crab window")
    assert refused(state, 2, gesture("wink"), now=6.5).startswith("time is up")
    events = state.apply(3, TIME, now=6.001)  # the table applies it, for any seat
    assert texts(events) == [
        "{1} made no double-crab call on {0} within the second: the window closes.",
        "Game over: {0} and {1} win with 5 tokens.",
    ]
    assert state.over and state.deadline() is None and state.view(0)["window_closes"] is None
    assert state.waiting_for() == frozenset() and state.legal(1) == []
    assert state.result() == {
        "team_tokens": [5, 4],
        "winning_team": 0,
        "winners": [0, 1],
        "scores": [5, 5, 4, 4],
        "tiebreak": False,
        "teams": [[0, 1], [2, 3]],
    }
    assert state.view(3)["winners"] == [0, 1] and state.view(3)["phase"] == "over"
    assert refused(state, 1, accuse(0), now=6.1) == "the game is over"
    assert refused(state, 1, TIME, now=7.0) == "the game is over"


def test_the_partners_call_in_time_on_the_last_token_is_paid_in_full_from_opponents():
    state = deal(*DOUBLE_HANDS, draw=REFILL, pot=1)
    state.apply(0, accuse(1), now=10.0)  # the pot's last token
    assert state.view(None)["tokens"] == [3, 2, 2, 2] and state.deadline() == closes(10.0)
    events = state.apply(1, accuse(0), now=10.6)
    assert texts(events)[0] == (
        "{1} calls “You've got crabs!” on {0}: right! {0} shows four King Crabs. Double crab! "
        "The first call's token stays with the team. The team takes 2 tokens from opponents."
    )
    assert not state.over and state.deadline() is None
    view = state.view(None)
    assert view["pot"] == 0 and view["tokens"] == [3, 2, 2, 2]
    assert view["double_take"] == [{"team": 0, "tokens": 2, "callers": [1, 0]}]
    assert state.waiting_for() == {0, 1}
    assert [a["sources"] for a in state.legal(0) if a["type"] == "double_take"] == [
        [2, 2],
        [2, 3],
        [3, 3],
    ]
    assert refused(state, 1, take("pot", 2), now=11.5) == "the pot holds only 0 tokens"
    assert refused(state, 1, take(2, 3, 3), now=11.5).startswith("name 2 sources")
    events = state.apply(1, take(2, 3), now=12.0)  # the team chooses, as always
    assert texts(events) == [
        "{1}'s team collects the double crab: 2 tokens from {2}, {3}.",
        "Game over: {0} and {1} win with 7 tokens.",
    ]
    assert state.over and state.view(None)["tokens"] == [4, 3, 1, 1]
    assert state.result()["team_tokens"] == [7, 2]  # 3 tokens in all for the pair


def test_the_partners_call_exactly_one_second_after_the_last_token_is_still_a_double_crab():
    state = deal(*DOUBLE_HANDS, draw=REFILL, pot=1)
    state.apply(0, accuse(1), now=10.0)  # the pot's last token
    events = state.apply(1, accuse(0), now=11.0)
    assert "Double crab!" in texts(events)[0]
    assert state.view(None)["double_take"] == [{"team": 0, "tokens": 2, "callers": [1, 0]}]


def test_a_wrong_partner_call_in_the_window_costs_nothing_and_ends_the_game():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, pot=1)
    state.apply(0, accuse(1), now=5.0)
    events = state.apply(1, accuse(0), now=5.5)  # seat 0 holds no four of a kind
    assert texts(events) == [
        "{1} calls “You've got crabs!” on {0}: wrong, but the pot is empty: nothing is paid.",
        "Game over: {0} and {1} win with 5 tokens.",
    ]
    assert state.over and state.view(None)["tokens"] == [3, 2, 2, 2]


def test_a_window_still_open_when_another_team_empties_the_pot_holds_the_game_too():
    no_magic = ("cabernet", "cabernet", "crabbi", "diet")
    state = deal(PLAIN[0], KINGS, no_magic, MAGIC, draw=REFILL, pot=2)
    state.apply(2, accuse(3), now=4.5)  # team 1, right: its window runs to 5.5
    state.apply(0, accuse(1), now=5.0)  # team 0 takes the last token: its window runs to 6.0
    assert state.deadline() == closes(4.5)
    assert state.legal(3) == [accuse(2)] and state.legal(1) == [accuse(0)]
    events = state.apply(0, TIME, now=5.7)
    assert texts(events) == [
        "{3} made no double-crab call on {2} within the second: the window closes."
    ]
    assert not state.over and state.deadline() == closes(5.0) and state.legal(3) == []
    events = state.apply(0, TIME, now=6.001)
    assert texts(events)[-2:] == [  # 5 tokens each: the tie-break rules still hold
        "The pot is empty and team 0 and team 1 tie with 5 tokens: they play on, and the first "
        "to gain a token wins.",
        "Side 0 swaps again.",
    ]
    assert state.view(None)["tiebreak"] == [0, 1] and state.deadline() is None


def test_a_team_of_three_on_the_last_token_ends_the_game_at_once():
    state = deal(PLAIN[0], PLAIN[1], KINGS, MAGIC, PLAIN[2], draw=REFILL, pot=1)
    events = state.apply(3, accuse(2), now=1.0)  # right, but no double crab for a team of 3
    assert texts(events)[-1] == "Game over: {0} and {1} win with 6 tokens."
    assert state.over and state.deadline() is None
    assert state.result()["team_tokens"] == [6, 4]


def test_an_opponent_call_on_the_last_token_ends_the_game_at_once():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, tokens=[0, 0, 2, 2], pot=1)
    events = state.apply(2, accuse(1), now=1.0)  # right, and team 0 is broke: the pot pays
    assert texts(events)[-1] == "Game over: {2} and {3} win with 5 tokens."
    assert state.over and state.deadline() is None


def test_taking_the_last_token_from_the_pot_does_not_make_a_team_win():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, tokens=[1, 1, 3, 3], pot=1)
    state.apply(0, accuse(1), now=5.0)
    state.apply(0, TIME, now=6.001)
    assert state.result()["winners"] == [2, 3]
    assert state.result()["team_tokens"] == [3, 6]


def test_tied_teams_play_on_and_the_first_to_gain_a_token_wins():
    state = deal(PLAIN[0], KINGS, PLAIN[2], PLAIN[3], draw=REFILL, tokens=[2, 1, 2, 2], pot=1)
    state.apply(0, accuse(1), now=5.0)  # 4 tokens each and the pot is empty
    events = state.apply(2, TIME, now=6.001)  # no double crab came
    assert texts(events)[-2:] == [
        "The pot is empty and team 0 and team 1 tie with 4 tokens: they play on, and the first "
        "to gain a token wins.",
        "Side 0 swaps again.",
    ]
    assert not state.over and state.view(None)["tiebreak"] == [0, 1]
    assert state.waiting_for() == {0, 2} and state.deadline() is None
    state.apply(0, swap("kebab", "jab"), now=7.0)  # play goes on as usual
    state.apply(1, accuse(0), now=7.5)  # wrong: team 0 returns a token to the pot
    assert not state.over and state.view(None)["pot"] == 1
    state.apply(3, accuse(0), now=8.0)  # wrong: team 1 pays seat 0, a gain for team 0
    assert state.over
    assert state.result()["winners"] == [0, 1] and state.result()["tiebreak"] is True
    assert state.result()["team_tokens"] == [4, 3]


def test_a_double_crab_on_the_last_token_that_makes_a_tie_starts_the_tie_break():
    state = deal(*DOUBLE_HANDS, draw=REFILL, tokens=[1, 1, 4, 3], pot=1)
    state.apply(0, accuse(1), now=1.0)
    state.apply(1, accuse(0), now=1.5)
    events = state.apply(0, take(2, 2), now=2.0)
    assert texts(events)[-2] == (
        "The pot is empty and team 0 and team 1 tie with 5 tokens: they play on, and the first "
        "to gain a token wins."
    )
    assert not state.over and state.view(None)["tiebreak"] == [0, 1]


def test_only_the_tied_teams_play_on_and_a_right_teammate_call_wins_with_an_empty_pot():
    no_magic = ("cabernet", "cabernet", "crabbi", "diet")
    hands = (PLAIN[0], MAGIC, PLAIN[2], KINGS, PLAIN[1], no_magic)
    state = deal(*hands, draw=REFILL, tokens=[2, 2, 2, 1, 2, 1], pot=1)
    state.apply(2, accuse(3), now=1.0)  # team 1 reaches 4 and ties with team 0; team 2 has 3
    state.apply(0, TIME, now=2.001)
    assert not state.over and state.view(None)["tiebreak"] == [0, 1]
    out = "your team is out of the tie-break"
    assert refused(state, 4, swap("cappuccino", "jab"), now=2.1) == out
    assert refused(state, 4, accuse(0), now=2.1) == out
    assert refused(state, 0, accuse(4), now=2.1) == "that player's team is out of the tie-break"
    assert {a["type"] for a in state.legal(4)} == {"gesture"}
    assert state.waiting_for() == {0, 2}  # seat 4 sits on side 0 but is out
    state.apply(4, gesture("yawn"), now=2.5)  # team 2 may still gesture
    state.apply(0, done(), now=3.0)
    state.apply(2, done(), now=3.1)
    assert state.view(None)["asked"] == [1, 3]  # seat 5 is not asked
    events = state.apply(0, accuse(1), now=3.2)  # a right call with an empty pot
    assert texts(events)[0].endswith("shows four Abracrabdabras. That is a gain for the team.")
    assert state.over and state.result()["winners"] == [0, 1]
    assert state.result()["team_tokens"] == [4, 4, 3]  # no token moved: the call was the gain
    assert state.deadline() is None  # a tie-break's call opens no window


# -- gestures and signals ------------------------------------------------------------------------
def test_gestures_are_public_and_timed_and_never_make_anyone_wait():
    state = deal(*PLAIN)
    events = state.apply(3, gesture("wink"), now=4.25)
    assert texts(events) == ["{3} winks."] and events[0]["to"] is None
    state.apply(0, gesture("tap_table"), now=4.5)
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["gestures"] == [
            {"seat": 3, "name": "wink", "time": 4.25},
            {"seat": 0, "name": "tap_table", "time": 4.5},
        ]
    assert public_log(state)[-2:] == ["{3} winks.", "{0} taps the table."]
    assert state.waiting_for() == {0, 2}
    assert [a["name"] for a in state.legal(1) if a["type"] == "gesture"] == list(
        state.view(1)["gesture_names"]
    )
    assert refused(state, 1, gesture("shout")).startswith("choose a gesture: wink, tap_table")
    for name in ([], {"wink": 1}):  # what a peer sent may be any plain value (it raised)
        assert refused(state, 1, {"type": "gesture", "name": name}).startswith("choose a gesture")


def test_a_stacked_game_starts_in_play_with_each_teams_dealt_signal_fixed():
    state = deal(*PLAIN)
    assert state.phase == "swap" and state.view(0)["huddle"] is None
    mine, theirs = state.view(0)["signal"], state.view(2)["signal"]
    assert state.view(1)["signal"] == mine and state.view(3)["signal"] == theirs
    assert state.view(0)["signals"] == [mine] and state.view(None)["signals"] == []
    assert mine != theirs and state.view(None)["signal"] is None
    new = next(name for name in state.view(2)["gesture_names"] if name not in (mine, theirs))
    assert refused(state, 3, signal(new)) == (
        "your team's signal was picked in the huddle before play: it cannot change now"
    )
    assert not any(a["type"] == "signal" for s in range(4) for a in state.legal(s))
    assert state.waiting_for() == {0, 2}


def test_legal_actions_stay_small():
    state = deal(*PLAIN)
    kinds = Counter(action["type"] for action in state.legal(0))
    assert kinds == {"swap": 12, "done": 1, "accuse": 3, "gesture": 10}
    assert Counter(action["type"] for action in state.legal(1)) == {"accuse": 3, "gesture": 10}
