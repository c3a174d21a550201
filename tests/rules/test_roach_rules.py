"""Cockroach Poker Royal scenarios: stacked tables played card by card against the rules
(`tablegames/rules/texts/roach.md`, and the engine's readings in `rules/roach.py`).

Every test is a little game script. `table(...)` stacks the game: one hand per seat, the penalty
pile top first (its first card face up), face-up cards per seat if any; seat 0 starts unless told.
Cards named nowhere are left out, so the deck is as short as the scene needs.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from tablegames.rules import SetupError, get_game
from tablegames.rules.roach import ANIMALS, DECK, claim_is_true, parse_claim

from .scripts import assert_illegal as _refused
from .scripts import changing_it_is_caught


def assert_illegal(state: Any, seat: Any, action: Any) -> str:
    return _refused(state, seat, action, words=3)


Action = dict[str, Any]
roach = get_game("roach")

ALL_CODES = [*ANIMALS, *(f"royal-{a}" for a in ANIMALS), "joker", "blank"]
CLAIMS = [*ANIMALS, "royal"]
VIEW_KEYS = {
    "hand", "hand_sizes", "fronts", "penalty_top", "penalty_size", "turn", "flight", "log",
    "phase", "players", "seat", "loser",
}  # fmt: skip


# -- setting the table ---------------------------------------------------------------------------
def table(
    *hands: Sequence[str],
    penalty: Sequence[str] = (),
    fronts: Sequence[Sequence[str]] | None = None,
    first: int = 0,
    seed: int = 1,
) -> Any:
    """A stacked game: one hand per seat, the penalty pile top first, optional face-up cards."""
    options: dict[str, Any] = {"hands": [list(h) for h in hands], "penalty": list(penalty)}
    if fronts is not None:
        options["fronts"] = [list(f) for f in fronts]
    return roach.new(players=len(hands), seed=seed, first=first, **options)


def offer(card: str, to: int, claim: str) -> Action:
    return {"type": "offer", "card": card, "to": to, "claim": claim}


def pass_on(to: int, claim: str) -> Action:
    return {"type": "pass", "to": to, "claim": claim}


def say(believe: bool) -> Action:
    return {"type": "challenge", "believe": believe}


def lay(*cards: str) -> Action:
    return {"type": "lay", "cards": list(cards)}


def in_order(action: Action) -> Action:
    """The action with the cards of a lay sorted, since the order they are named in is free."""
    return {**action, "cards": sorted(action["cards"])} if "cards" in action else action


def act(state: Any, seat: int, action: Action) -> list[dict[str, Any]]:
    """Apply an action that must be legal (and listed as legal); returns its events."""
    assert in_order(action) in [in_order(a) for a in state.legal(seat)], action
    events = state.apply(seat, copy.deepcopy(action))
    for event in events:
        assert isinstance(event["text"], str) and "to" in event
    return events


# -- reading the table ---------------------------------------------------------------------------
def public(state: Any) -> dict[str, Any]:
    """What a spectator sees."""
    return state.view(None)


def hand(state: Any, seat: int) -> list[str]:
    return sorted(state.view(seat)["hand"])


def fronts(state: Any) -> list[list[str]]:
    return [sorted(front) for front in public(state)["fronts"]]


def texts(events: list[dict[str, Any]]) -> list[str]:
    return [event["text"] for event in events]


# ================================================================================================
# The deck and the deal
# ================================================================================================
def test_the_deck_has_65_cards_eight_of_each_animal_seven_royals_and_two_specials() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 65
    assert all(counts[animal] == 8 for animal in ANIMALS)
    assert all(counts[f"royal-{animal}"] == 1 for animal in ANIMALS)
    assert counts["joker"] == counts["blank"] == 1
    assert set(counts) == set(ALL_CODES)


@pytest.mark.parametrize(
    ("players", "each", "penalty"),
    [(2, 29, 7), (3, 19, 7), (4, 14, 8), (5, 11, 9), (6, 9, 10)],
)
def test_the_deal_splits_58_cards_evenly_the_first_gets_one_extra_the_rest_go_under_the_pile(
    players: int, each: int, penalty: int
) -> None:
    for first in range(players):
        state = roach.new(players, seed=3, first=first)
        view = public(state)
        extra = (65 - 7) % players > 0
        sizes = [each + (1 if seat == first and extra else 0) for seat in range(players)]
        assert view["hand_sizes"] == sizes
        assert view["penalty_size"] == penalty
        assert view["penalty_top"] == state.penalty[0]
        assert view["turn"] == first and state.waiting_for() == frozenset({first})
        assert view["fronts"] == [[] for _ in range(players)]
        assert view["flight"] is None and view["phase"] == "offer"
        every = [c for h in state.hands for c in h] + state.penalty
        assert Counter(every) == Counter(DECK)


def test_an_explicit_deck_order_forms_the_penalty_pile_then_deals_from_the_first_player() -> None:
    deck = list(DECK)
    deck.reverse()  # blank, joker, royal-ladybug ... on top
    state = roach.new(4, seed=1, deck=deck, first=2)
    assert state.penalty[:7] == deck[:7]
    assert public(state)["penalty_top"] == "blank"
    rest = deck[7:]
    assert Counter(state.hands[2]) == Counter([*rest[0:56:4], rest[56]])
    assert Counter(state.hands[3]) == Counter(rest[1:56:4])
    assert Counter(state.hands[0]) == Counter(rest[3:56:4])
    assert state.penalty[7:] == [rest[57]]  # the last leftover goes under the pile


def test_the_first_player_is_drawn_at_random_from_the_seed() -> None:
    firsts = {public(roach.new(5, seed=seed))["turn"] for seed in range(40)}
    assert firsts == set(range(5))
    assert public(roach.new(5, seed=7)) == public(roach.new(5, seed=7))


def test_a_stacked_table_leaves_out_the_cards_it_does_not_name() -> None:
    state = table(["bat", "fly"], ["mouse"], penalty=["royal-frog", "frog"], first=1)
    view = state.view(1)
    assert view["hand"] == ["mouse"]
    assert view["hand_sizes"] == [2, 1]
    assert view["penalty_top"] == "royal-frog" and view["penalty_size"] == 2
    assert view["turn"] == 1
    assert set(view) >= VIEW_KEYS


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"hands": [["bat"], ["royal-bat", "royal-bat"]]}, "more cards than the deck"),
        ({"hands": [["bat"] * 5, ["bat"] * 4]}, "more cards than the deck"),
        ({"hands": [["bat"], ["toad"]]}, "not a card"),
        ({"hands": [["bat"]]}, "one list of cards per seat"),
        ({"hands": [["bat"], ["fly"]], "deck": list(DECK)}, "not both"),
        ({"penalty": ["bat"]}, "needs hands"),
        ({"deck": list(DECK)[:-1]}, "all 65 cards"),
        ({"first": 2}, "first must be a seat"),
        ({"first": True}, "first must be a seat"),
        ({"hands": [["bat"], ["fly"]], "fronts": [["mouse"] * 5, []]}, "already have lost"),
    ],
)
def test_impossible_setups_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        roach.new(2, seed=1, **options)


# ================================================================================================
# Offering a card
# ================================================================================================
def test_an_offer_slides_a_card_face_down_with_a_claim() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"])
    events = act(state, 0, offer("bat", 2, "fly"))
    assert "{0} slides a card to {2}, claiming fly." in texts(events)
    flight = public(state)["flight"]
    assert flight == {
        "from": 0,
        "to": 2,
        "claim": "fly",
        "claims": [{"from": 0, "to": 2, "claim": "fly"}],
        "seen_by": [0],
        "held_by": [0, 2],
    }
    assert state.view(0)["flight"]["card"] == "bat"
    assert "card" not in state.view(2)["flight"]
    assert public(state)["hand_sizes"] == [1, 1, 1]
    assert public(state)["phase"] == "respond"
    assert state.waiting_for() == frozenset({2})
    assert public(state)["turn"] == 2


def test_every_offer_is_listed_card_by_target_by_claim() -> None:
    state = table(["bat", "bat", "royal-fly", "joker"], ["mouse"], ["frog"])
    offers = state.legal(0)
    assert len(offers) == 3 * 2 * 8  # three different cards, two targets, eight claims
    assert {a["card"] for a in offers} == {"bat", "royal-fly", "joker"}
    assert {a["to"] for a in offers} == {1, 2}
    assert {a["claim"] for a in offers} == set(CLAIMS)
    assert state.legal(1) == [] and state.legal(2) == []


def test_the_listed_actions_are_made_once_and_whoever_changes_one_is_caught_in_the_tests() -> None:
    # `legal` hands out actions made once (each offer, pass and answer): an answer is the
    # engine's own, and the tests (`State.checking`) catch whoever changes an action in one.
    state, other = table(["bat", "fly"], ["mouse"], ["frog"]), table(["bat"], ["mouse"], ["frog"])
    first = state.legal(0)
    assert first[0] is other.legal(0)[0] and first == state.legal(0)
    changing_it_is_caught(first[0], "claim", "cockroach", lambda: other.legal(0))
    assert other.legal(0)[0] == offer("bat", 1, "bat")


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, offer("mouse", 0, "mouse"), "not your turn"),
        (0, offer("mouse", 1, "mouse"), "no mouse card in your hand"),
        (0, offer("unicorn", 1, "bat"), "say which card to offer"),
        (0, {"type": "offer", "card": "bat", "claim": "bat"}, "say which player"),
        (0, offer("bat", 0, "bat"), "cannot offer a card to yourself"),
        (0, offer("bat", 5, "bat"), "no seat 5"),
        (0, offer("bat", True, "bat"), "say which player"),
        (0, offer("bat", 1, "unicorn"), "claim one of: bat, fly"),
        (0, {"type": "offer", "card": "bat", "to": 1}, "claim one of"),
        (0, say(True), "must first offer a card"),
        (0, pass_on(1, "bat"), "must first offer a card"),
        (0, lay("bat"), "must first offer a card"),
    ],
)
def test_illegal_offers_say_why_and_change_nothing(seat: int, action: Any, message: str) -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"])
    assert message in assert_illegal(state, seat, action)


@pytest.mark.parametrize(
    ("said", "claim"),
    [
        ("toad", "frog"),
        ("rat", "mouse"),
        ("stink bug", "ladybug"),
        ("Stink-Bug", "ladybug"),
        ("stinkbug", "ladybug"),
        ("ROYAL", "royal"),
        (" Cockroach ", "cockroach"),
    ],
)
def test_the_printed_games_names_are_accepted_as_claims(said: str, claim: str) -> None:
    assert parse_claim(said) == claim
    state = table(["frog", "fly"], ["mouse", "bat"], ["ladybug"])
    state.apply(0, offer("frog", 1, said))
    assert public(state)["flight"]["claim"] == claim
    state.apply(1, pass_on(2, said))
    assert [link["claim"] for link in public(state)["flight"]["claims"]] == [claim, claim]


# ================================================================================================
# Which claims are true
# ================================================================================================
TRUTH = [
    ("bat", "bat", True),
    ("bat", "fly", False),
    ("bat", "royal", False),
    ("royal-bat", "bat", True),
    ("royal-bat", "fly", False),
    ("royal-bat", "royal", True),
    ("joker", "bat", True),
    ("joker", "fly", True),
    ("joker", "royal", False),
    ("blank", "bat", False),
    ("blank", "fly", False),
    ("blank", "royal", False),
]


def test_the_truth_table_for_every_card_and_every_claim() -> None:
    for card in ALL_CODES:
        for claim in CLAIMS:
            if card == "blank":
                expected = False
            elif card == "joker":
                expected = claim != "royal"
            elif card.startswith("royal-"):
                expected = claim in ("royal", card.removeprefix("royal-"))
            else:
                expected = claim == card
            assert claim_is_true(card, claim) is expected, (card, claim)


@pytest.mark.parametrize("believe", [True, False])
@pytest.mark.parametrize(("card", "claim", "truth"), TRUTH)
def test_a_challenge_reveals_the_card_and_the_right_player_takes_it(
    card: str, claim: str, truth: bool, believe: bool
) -> None:
    state = table([card, "mouse", "mouse"], ["frog", "frog"], penalty=["scorpion", "cockroach"])
    act(state, 0, offer(card, 1, claim))
    events = act(state, 1, say(believe))
    right = believe == truth
    taker = 0 if right else 1
    verdict = "true" if believe else "false"
    reveal = f"The card is {card}: the claim was {'true' if truth else 'false'}. "
    reveal += "{1} was right, so {0} takes it." if right else "{1} was wrong and takes it."
    assert texts(events)[:2] == [f"{{1}} says the claim {claim} is {verdict}.", reveal]
    assert public(state)["flight"] is None
    if card in ("joker", "blank"):
        assert card in hand(state, taker)
        assert public(state)["phase"] == "lay"
        assert state.waiting_for() == frozenset({taker})
    else:
        assert card in fronts(state)[taker]
        assert public(state)["phase"] == "offer"
        assert state.waiting_for() == frozenset({taker})
        pulled = ["scorpion"] if card.startswith("royal-") else []
        assert fronts(state)[taker] == sorted([card, *pulled])
        assert fronts(state)[1 - taker] == []


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (2, say(True), "not your turn"),
        (0, say(True), "not your turn"),
        (1, {"type": "challenge"}, "true or false"),
        (1, {"type": "challenge", "believe": "yes"}, "true or false"),
        (1, {"type": "challenge", "believe": 1}, "true or false"),
        (1, offer("mouse", 2, "bat"), "say true or false, or pass it on"),
        (1, lay("mouse"), "say true or false, or pass it on"),
    ],
)
def test_illegal_answers_say_why_and_change_nothing(seat: int, action: Any, message: str) -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"])
    act(state, 0, offer("bat", 1, "bat"))
    assert message in assert_illegal(state, seat, action)


# ================================================================================================
# Passing: peek, pass on, never back; the last possible receiver must challenge
# ================================================================================================
def test_a_pass_peeks_at_the_card_and_slides_it_on_with_a_new_claim() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    assert {(a["to"], a["claim"]) for a in state.legal(1) if a["type"] == "pass"} == {
        (to, claim) for to in (2, 3) for claim in CLAIMS
    }
    events = act(state, 1, pass_on(3, "royal"))
    private = [e for e in events if e["to"] is not None]
    assert [(e["text"], e["to"]) for e in private] == [("You peek: the card is bat.", [1])]
    assert "{1} peeks and passes the card to {3}, claiming royal." in texts(events)
    flight = public(state)["flight"]
    assert flight["from"] == 1 and flight["to"] == 3 and flight["claim"] == "royal"
    assert flight["claims"] == [
        {"from": 0, "to": 1, "claim": "fly"},
        {"from": 1, "to": 3, "claim": "royal"},
    ]
    assert flight["seen_by"] == [0, 1]
    assert state.view(1)["flight"]["card"] == "bat"
    assert "card" not in state.view(3)["flight"]
    assert state.waiting_for() == frozenset({3})


def test_a_receiver_may_peek_first_and_must_then_pass_on() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    assert {"type": "peek"} in state.legal(1)
    events = act(state, 1, {"type": "peek"})
    assert [(e["text"], e["to"]) for e in events] == [
        ("You peek: the card is bat.", [1]),
        ("{1} peeks at the card.", None),
    ]
    assert state.view(1)["flight"]["card"] == "bat"
    assert "card" not in state.view(2)["flight"] and "card" not in state.view(None)["flight"]
    assert {a["type"] for a in state.legal(1)} == {"pass"}
    assert "now you must pass it on" in assert_illegal(state, 1, say(False))
    assert "already looked" in assert_illegal(state, 1, {"type": "peek"})
    events = act(state, 1, pass_on(2, "bat"))
    assert [e for e in events if e["to"] is not None] == []  # no second private peek
    assert "{1} passes the card to {2}, claiming bat." in texts(events)
    assert public(state)["flight"]["seen_by"] == [0, 1]


def test_the_last_receiver_cannot_peek_since_they_cannot_pass() -> None:
    state = table(["bat", "fly"], ["mouse"])
    act(state, 0, offer("bat", 1, "fly"))
    assert {"type": "peek"} not in state.legal(1)
    assert "cannot be passed" in assert_illegal(state, 1, {"type": "peek"})


def test_a_card_is_never_passed_back_to_anyone_who_has_seen_it() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    act(state, 1, pass_on(2, "fly"))
    assert {a["to"] for a in state.legal(2) if a["type"] == "pass"} == {3}
    assert "already seen this card" in assert_illegal(state, 2, pass_on(0, "fly"))
    assert "already seen this card" in assert_illegal(state, 2, pass_on(1, "fly"))
    assert "cannot pass a card to yourself" in assert_illegal(state, 2, pass_on(2, "fly"))
    assert "claim one of" in assert_illegal(state, 2, pass_on(3, "dragon"))


def test_the_last_player_who_has_not_seen_the_card_must_challenge() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"])
    act(state, 0, offer("bat", 1, "fly"))
    act(state, 1, pass_on(2, "bat"))
    assert state.legal(2) == [say(True), say(False)]
    message = assert_illegal(state, 2, pass_on(0, "bat"))
    assert message == "the card has been with everyone else: you must say true or false"


def blind(to: int, claim: str) -> Action:
    return {"type": "pass", "to": to, "claim": claim, "look": False}


def test_a_receiver_may_pass_the_card_on_without_looking() -> None:
    # The seed: she "may take a quick look at the card" (میتواند یک نگاه سریع به کارت بکند).
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    passes = [a for a in state.legal(1) if a["type"] == "pass"]
    assert {(a["to"], a["claim"]) for a in passes if a.get("look") is False} == {
        (to, claim) for to in (2, 3) for claim in CLAIMS
    }
    events = act(state, 1, blind(2, "royal"))
    assert [e for e in events if e["to"] is not None] == []  # no peek
    assert texts(events) == ["{1} passes the card to {2} without looking, claiming royal."]
    assert events[0]["looked"] is False
    flight = public(state)["flight"]
    assert flight["seen_by"] == [0] and flight["held_by"] == [0, 1, 2]
    assert "card" not in state.view(1)["flight"] and "card" not in state.view(2)["flight"]
    assert state.waiting_for() == frozenset({2})


def test_a_seat_that_passed_without_looking_learns_nothing_of_the_card() -> None:
    tables = [table([card, "fly"], ["mouse"], ["frog"], ["ladybug"]) for card in ("bat", "joker")]
    for state, card in zip(tables, ("bat", "joker"), strict=True):
        act(state, 0, offer(card, 1, "fly"))
        act(state, 1, blind(2, "fly"))
        act(state, 2, pass_on(3, "fly"))  # seat 2 looks
    assert tables[0].view(1) == tables[1].view(1)
    assert tables[0].view(3) == tables[1].view(3) and tables[0].view(None) == tables[1].view(None)
    assert tables[0].view(2) != tables[1].view(2)  # the check can tell the cards apart


def test_a_card_never_goes_back_to_a_player_it_has_been_with_looked_at_or_not() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    act(state, 1, blind(2, "fly"))
    assert {a["to"] for a in state.legal(2) if a["type"] == "pass"} == {3}
    message = "the card has already been with that player: pass it to someone new"
    assert assert_illegal(state, 2, pass_on(1, "fly")) == message
    assert assert_illegal(state, 2, blind(1, "fly")) == message
    act(state, 2, blind(3, "bat"))
    assert state.legal(3) == [say(True), say(False)]  # the last possible receiver judges
    events = act(state, 3, say(True))  # right: the one who slid it to them takes it
    assert "The card is bat: the claim was true. {3} was right, so {2} takes it." in texts(events)
    assert fronts(state) == [[], [], ["bat"], []]


def test_looking_and_then_passing_without_looking_is_refused() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    act(state, 1, {"type": "peek"})
    assert not [a for a in state.legal(1) if a.get("look") is False]
    assert "already looked" in assert_illegal(state, 1, blind(2, "fly"))
    assert "true or false" in assert_illegal(state, 1, {**pass_on(2, "fly"), "look": "no"})
    state.apply(1, {**pass_on(2, "fly"), "look": True})  # saying so is the plain pass
    assert public(state)["flight"]["held_by"] == [0, 1, 2]


def test_after_a_chain_the_last_passer_takes_the_card_when_the_receiver_judges_right() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    act(state, 1, pass_on(2, "bat"))
    act(state, 2, pass_on(3, "bat"))
    events = act(state, 3, say(True))
    assert "The card is bat: the claim was true. {3} was right, so {2} takes it." in texts(events)
    assert fronts(state) == [[], [], ["bat"], []]
    assert public(state)["turn"] == 2  # the player who took the card starts the next round


def test_after_a_chain_a_receiver_who_judges_wrong_takes_the_card() -> None:
    state = table(["bat", "fly"], ["mouse"], ["frog"], ["ladybug"])
    act(state, 0, offer("bat", 1, "fly"))
    act(state, 1, pass_on(3, "fly"))
    act(state, 3, say(True))
    assert fronts(state) == [[], [], [], ["bat"]]
    assert public(state)["turn"] == 3
    assert state.waiting_for() == frozenset({3})


def test_with_two_players_a_card_can_never_be_passed() -> None:
    state = table(["bat", "fly"], ["mouse"])
    act(state, 0, offer("bat", 1, "fly"))
    assert state.legal(1) == [say(True), say(False)]
    message = assert_illegal(state, 1, pass_on(0, "fly"))
    assert message == "with two players a card cannot be passed: say true or false"


# ================================================================================================
# Royal cards and the penalty pile
# ================================================================================================
def test_a_royal_card_laid_out_pulls_the_face_up_penalty_card_too() -> None:
    state = table(["royal-bat", "fly"], ["mouse"], penalty=["scorpion", "frog", "fly"])
    act(state, 0, offer("royal-bat", 1, "royal"))
    events = act(state, 1, say(False))  # wrong: it is royal
    assert fronts(state) == [[], ["royal-bat", "scorpion"]]
    assert "{1} also takes scorpion from the penalty pile." in texts(events)
    assert "The penalty pile shows frog." in texts(events)
    assert public(state)["penalty_top"] == "frog"
    assert public(state)["penalty_size"] == 2


def test_a_royal_card_taken_from_the_penalty_pile_does_not_draw_again() -> None:
    state = table(["royal-bat", "fly"], ["mouse"], penalty=["royal-fly", "frog"])
    act(state, 0, offer("royal-bat", 1, "bat"))
    act(state, 1, say(True))  # right: the offerer takes it back
    assert fronts(state) == [["royal-bat", "royal-fly"], []]
    assert public(state)["penalty_top"] == "frog" and public(state)["penalty_size"] == 1


def test_a_special_card_taken_from_the_penalty_pile_goes_to_the_hand_with_no_effect() -> None:
    state = table(["royal-bat", "fly"], ["mouse"], penalty=["blank", "frog"])
    act(state, 0, offer("royal-bat", 1, "bat"))
    events = act(state, 1, say(False))
    assert "{1} takes the blank from the penalty pile into their hand." in texts(events)
    assert fronts(state) == [[], ["royal-bat"]]
    assert hand(state, 1) == ["blank", "mouse"]
    assert public(state)["phase"] == "offer" and public(state)["turn"] == 1


def test_the_last_penalty_card_empties_the_pile() -> None:
    state = table(["royal-bat", "fly"], ["mouse"], penalty=["frog"])
    act(state, 0, offer("royal-bat", 1, "bat"))
    events = act(state, 1, say(False))
    assert "The penalty pile is now empty." in texts(events)
    assert fronts(state) == [[], ["frog", "royal-bat"]]
    assert public(state)["penalty_top"] is None and public(state)["penalty_size"] == 0


def test_an_empty_penalty_pile_gives_nothing() -> None:
    state = table(["royal-fly", "fly"], ["mouse"])
    act(state, 0, offer("royal-fly", 1, "fly"))
    events = act(state, 1, say(False))
    assert "The penalty pile is empty: there is no penalty card to take." in texts(events)
    assert fronts(state) == [[], ["royal-fly"]]


def test_a_royal_card_counts_as_its_animal_in_front_of_a_player() -> None:
    state = table(
        ["royal-bat", "fly"], ["mouse", "frog"], ["frog"], fronts=[[], ["bat", "bat", "bat"], []]
    )
    act(state, 0, offer("royal-bat", 1, "fly"))
    events = act(state, 1, say(True))
    assert public(state)["front_counts"][1]["bat"] == 4
    assert "{1} has 4 bats in front of them and loses! Everyone else wins." in texts(events)
    assert state.over and state.result()["loser"] == 1


def test_the_pulled_penalty_card_can_make_the_fourth_of_a_kind() -> None:
    state = table(
        ["royal-bat", "fly"],
        ["mouse", "frog"],
        ["frog"],
        penalty=["fly", "mouse"],
        fronts=[[], ["fly", "fly", "royal-fly"], []],
    )
    act(state, 0, offer("royal-bat", 1, "royal"))
    act(state, 1, say(False))
    assert state.over
    assert state.result()["loser"] == 1
    assert state.result()["reason"] == "4 flies in front of them"


# ================================================================================================
# Special cards: into the hand, then lay one of the claim or two others
# ================================================================================================
def joker_taken_by_seat_1(*seat_1_hand: str, claim: str = "bat") -> Any:
    """Seat 0 slides the joker claiming `claim`; seat 1 judges wrong and must take it."""
    state = table(["joker", "fly"], list(seat_1_hand), ["frog"], penalty=["scorpion", "cockroach"])
    act(state, 0, offer("joker", 1, claim))
    act(state, 1, say(claim == "royal"))  # the joker is every animal, but never royal
    return state


def test_taking_a_special_card_opens_the_lay_phase_with_every_choice_listed() -> None:
    state = joker_taken_by_seat_1("bat", "royal-bat", "mouse", "mouse", claim="bat")
    view = public(state)
    assert view["phase"] == "lay"
    assert view["lay"] == {"seat": 1, "claim": "bat", "special": "joker"}
    assert view["log"][-1]["text"] == (
        "{1} takes the joker into their hand and must lay out one bat card or two other cards."
    )
    assert view["fronts"] == [[], [], []]
    assert hand(state, 1) == ["bat", "joker", "mouse", "mouse", "royal-bat"]
    assert state.waiting_for() == frozenset({1})
    choices = sorted({tuple(sorted(a["cards"])) for a in state.legal(1)})
    assert choices == sorted(
        tuple(sorted(cards))
        for cards in [
            ("bat",),
            ("royal-bat",),
            ("bat", "royal-bat"),
            ("bat", "mouse"),
            ("royal-bat", "mouse"),
            ("mouse", "mouse"),
        ]
    )
    # Two cards are listed in either order (a royal card named first pulls the penalty first).
    assert lay("mouse", "bat") in state.legal(1) and lay("bat", "mouse") in state.legal(1)
    assert state.legal(1).count(lay("mouse", "mouse")) == 1


def test_laying_out_one_card_of_the_claim_settles_the_special_card() -> None:
    state = joker_taken_by_seat_1("bat", "mouse", "mouse", claim="bat")
    events = act(state, 1, lay("bat"))
    assert texts(events)[0] == "{1} lays out bat."
    assert fronts(state) == [[], ["bat"], []]
    assert hand(state, 1) == ["joker", "mouse", "mouse"]
    assert public(state)["phase"] == "offer" and public(state)["turn"] == 1
    assert public(state)["lay"] is None


def test_laying_out_a_royal_card_for_the_claim_pulls_the_penalty_card() -> None:
    state = joker_taken_by_seat_1("royal-bat", "mouse", claim="bat")
    act(state, 1, lay("royal-bat"))
    assert fronts(state) == [[], ["royal-bat", "scorpion"], []]
    assert public(state)["penalty_top"] == "cockroach"


def test_a_royal_claim_is_matched_by_any_royal_card() -> None:
    state = joker_taken_by_seat_1("royal-mouse", "bat", "fly", claim="royal")
    singles = [a["cards"] for a in state.legal(1) if len(a["cards"]) == 1]
    assert singles == [["royal-mouse"]]
    act(state, 1, lay("royal-mouse"))
    assert fronts(state) == [[], ["royal-mouse", "scorpion"], []]


def test_instead_any_two_other_cards_may_be_laid_out() -> None:
    state = joker_taken_by_seat_1("bat", "mouse", "frog", claim="bat")
    events = act(state, 1, lay("mouse", "frog"))
    assert texts(events)[0] == "{1} lays out mouse and frog."
    assert fronts(state) == [[], ["frog", "mouse"], []]
    assert hand(state, 1) == ["bat", "joker"]


def test_two_royal_cards_laid_out_each_pull_a_penalty_card() -> None:
    state = joker_taken_by_seat_1("royal-mouse", "royal-frog", "bat", claim="fly")
    act(state, 1, lay("royal-mouse", "royal-frog"))
    assert public(state)["fronts"][1] == ["royal-mouse", "scorpion", "royal-frog", "cockroach"]
    assert public(state)["penalty_size"] == 0


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lay("mouse"), "lay out one bat card, or any two other cards"),
        (lay("mouse", "frog", "fly"), "lay out one bat card, or any two other cards"),
        (lay(), "lay out one bat card, or any two other cards"),
        (lay("joker"), "cannot lay out the joker you just took"),
        (lay("joker", "mouse"), "cannot lay out the joker you just took"),
        (lay("royal-bat"), "only lay out cards from your hand"),
        (lay("frog", "frog"), "only lay out cards from your hand"),
        ({"type": "lay", "cards": "mouse"}, "say which cards to lay out"),
        ({"type": "lay", "cards": ["mouse", 3]}, "say which cards to lay out"),
        (offer("mouse", 0, "bat"), "first lay out one card of the claim or two others"),
        (say(True), "first lay out one card of the claim or two others"),
    ],
)
def test_illegal_lays_say_why_and_change_nothing(action: Any, message: str) -> None:
    state = joker_taken_by_seat_1("bat", "mouse", "frog", "fly", claim="bat")
    assert message in assert_illegal(state, 1, action)
    assert "not your turn" in assert_illegal(state, 0, lay("fly"))


def test_a_player_with_fewer_than_two_other_cards_lays_out_all_of_them() -> None:
    state = joker_taken_by_seat_1("mouse", claim="bat")
    assert public(state)["log"][-1]["text"] == (
        "{1} takes the joker into their hand and must lay out one bat card "
        "or their only other card."
    )
    assert state.legal(1) == [lay("mouse")]
    assert assert_illegal(state, 1, lay()) == "lay out one bat card, or your only other card"
    message = assert_illegal(state, 1, lay("mouse", "joker"))
    assert "cannot lay out the joker you just took" in message
    act(state, 1, lay("mouse"))
    assert fronts(state) == [[], ["mouse"], []]
    assert hand(state, 1) == ["joker"]
    assert public(state)["turn"] == 1  # and the joker is theirs to offer now


def test_the_other_special_card_may_be_laid_out_and_counts_as_no_animal() -> None:
    state = joker_taken_by_seat_1("blank", "mouse", claim="bat")
    assert sorted(tuple(a["cards"]) for a in state.legal(1)) == [
        ("blank", "mouse"),
        ("mouse", "blank"),
    ]
    act(state, 1, lay("mouse", "blank"))
    assert fronts(state) == [[], ["blank", "mouse"], []]
    assert public(state)["front_counts"][1] == {a: (1 if a == "mouse" else 0) for a in ANIMALS}


def test_a_taker_with_no_other_card_lays_the_special_card_out_and_loses_with_an_empty_hand() -> (
    None
):
    # Decided: otherwise a lone special card could circle the table for ever.
    state = table(["blank", "fly"], [], ["frog"])
    act(state, 0, offer("blank", 1, "bat"))
    events = act(state, 1, say(True))  # wrong: the blank is never true
    assert "{1} has no other card, so the blank goes out in front of them." in texts(events)
    assert "{1} has no card left to offer and loses! Everyone else wins." in texts(events)
    assert fronts(state) == [[], ["blank"], []]
    assert state.result() == {
        "loser": 1,
        "winners": [0, 2],
        "scores": [0, 1, 0],
        "reason": "no card left to offer",
        "ended_by": 1,
        "face_up": [0, 1, 0],
    }


def test_the_special_card_just_taken_can_be_offered_in_a_later_round() -> None:
    state = joker_taken_by_seat_1("bat", "mouse", claim="bat")
    act(state, 1, lay("bat"))
    act(state, 1, offer("joker", 2, "frog"))
    act(state, 2, pass_on(0, "frog"))
    act(state, 0, say(True))  # right: the joker is every animal, so seat 2 takes it
    assert public(state)["lay"] == {"seat": 2, "claim": "frog", "special": "joker"}
    assert state.legal(2) == [lay("frog")]


# ================================================================================================
# The end
# ================================================================================================
def test_four_of_one_animal_loses_and_everyone_else_wins() -> None:
    state = table(
        ["mouse", "fly"], ["frog"], ["bat"], fronts=[[], ["mouse", "mouse", "royal-mouse"], []]
    )
    act(state, 0, offer("mouse", 1, "frog"))
    events = act(state, 1, say(True))
    assert "{1} has 4 mice in front of them and loses! Everyone else wins." in texts(events)
    assert state.over
    assert state.result() == {
        "loser": 1,
        "winners": [0, 2],
        "scores": [0, 1, 0],
        "reason": "4 mice in front of them",
        "ended_by": 1,
        "face_up": [0, 4, 0],
    }
    view = public(state)
    assert view["loser"] == 1 and view["phase"] == "over" and view["turn"] is None
    assert state.waiting_for() == frozenset()
    assert all(state.legal(seat) == [] for seat in range(3))
    assert assert_illegal(state, 1, offer("frog", 0, "frog")) == "the game is over"


def test_three_of_a_kind_or_four_mixed_animals_do_not_lose() -> None:
    state = table(["mouse", "fly"], ["frog"], ["bat"], fronts=[[], ["mouse", "mouse"], []])
    act(state, 0, offer("mouse", 1, "frog"))
    act(state, 1, say(True))
    assert not state.over
    assert public(state)["front_counts"][1]["mouse"] == 3


def test_a_player_whose_turn_comes_with_an_empty_hand_loses() -> None:
    state = table(["bat"], ["frog", "fly"], ["mouse"])
    act(state, 0, offer("bat", 1, "bat"))
    events = act(state, 1, say(True))  # right: seat 0 takes back its last card
    assert "{0} has no card left to offer and loses! Everyone else wins." in texts(events)
    assert state.result()["loser"] == 0
    assert fronts(state) == [["bat"], [], []]


def test_an_empty_handed_player_may_still_receive_pass_and_win_a_challenge() -> None:
    state = table(["bat", "fly"], [], ["mouse"])
    act(state, 0, offer("bat", 1, "fly"))
    act(state, 1, pass_on(2, "fly"))
    act(state, 2, say(True))  # wrong: seat 2 takes it
    assert not state.over
    assert public(state)["turn"] == 2
    act(state, 2, offer("mouse", 1, "mouse"))
    act(state, 1, say(False))  # wrong: the empty-handed seat 1 takes it and cannot offer
    assert state.result()["loser"] == 1


def test_a_first_player_without_cards_loses_at_once() -> None:
    state = table([], ["frog"], first=0)
    assert state.over and state.result()["loser"] == 0


def test_with_two_players_four_of_a_kind_is_safe_and_five_loses() -> None:
    state = table(
        ["mouse", "mouse", "fly"], ["frog", "frog"], fronts=[[], ["mouse", "mouse", "mouse"]]
    )
    assert public(state)["lose_at"] == 5
    act(state, 0, offer("mouse", 1, "mouse"))
    act(state, 1, say(False))
    assert not state.over
    assert public(state)["front_counts"][1]["mouse"] == 4
    act(state, 1, offer("frog", 0, "frog"))
    act(state, 0, say(True))  # right: seat 1 takes its own frog
    act(state, 1, offer("frog", 0, "bat"))
    act(state, 0, say(True))  # wrong: the frog goes to seat 0
    act(state, 0, offer("mouse", 1, "fly"))
    act(state, 1, say(True))
    assert state.result()["loser"] == 1
    assert state.result()["reason"] == "5 mice in front of them"


def test_three_players_lose_at_four() -> None:
    assert public(table(["bat"], ["fly"], ["frog"]))["lose_at"] == 4


# ================================================================================================
# A whole game's log, in order
# ================================================================================================
def test_a_short_game_reads_like_a_story() -> None:
    state = table(["royal-bat", "fly"], ["bat", "mouse"], ["frog"], penalty=["frog", "mouse"])
    everything: list[str] = []
    everything += texts(act(state, 0, offer("royal-bat", 1, "royal")))
    everything += texts(act(state, 1, pass_on(2, "bat")))
    everything += texts(act(state, 2, say(True)))
    assert everything == [
        "You slide royal-bat to {1}, claiming royal.",
        "{0} slides a card to {1}, claiming royal.",
        "You peek: the card is royal-bat.",
        "{1} peeks and passes the card to {2}, claiming bat.",
        "{2} says the claim bat is true.",
        "The card is royal-bat: the claim was true. {2} was right, so {1} takes it.",
        "{1} also takes frog from the penalty pile.",
        "The penalty pile shows mouse.",
    ]
    assert [e["text"] for e in public(state)["log"]] == [
        "{0} starts. The penalty pile shows frog.",
        "{0} slides a card to {1}, claiming royal.",
        "{1} peeks and passes the card to {2}, claiming bat.",
        *everything[4:],
    ]
