"""Roach bots: legal moves only, strength in fixed-seed batches, no peeking, and sound habits."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from tablegames.bots import get_bot
from tablegames.bots.roach import BOTS, NORMAL, Reading, Thinker
from tablegames.rules import get_game
from tablegames.rules.roach import claim_is_true

roach = get_game("roach")
LEVELS = ("random", "normal", "hard")


def play(levels: list[str], seed: int) -> Any:
    """One bot-only game, checking every action is legal and no bot touches its view."""
    state = roach.new(len(levels), seed)
    bots = [BOTS[level](seat, random.Random(seed * 10 + seat)) for seat, level in enumerate(levels)]
    while not state.over:
        (seat,) = state.waiting_for()
        view, legal = state.view(seat), state.legal(seat)
        before = copy.deepcopy(view)
        action = bots[seat].choose(view, legal)
        assert action in legal, f"{levels[seat]} chose {action}"
        assert view == before, "a bot must not change the view it is shown"
        state.apply(seat, action)
    return state


def loser_level(levels: list[str], seed: int) -> str:
    return levels[play(levels, seed).result()["loser"]]


def one_against(hero: str, others: str, seed: int, players: int = 4) -> bool:
    """True if the one `hero` bot (its seat turning with the seed) loses against `others`."""
    seat = seed % players
    levels = [others] * players
    levels[seat] = hero
    return play(levels, seed).result()["loser"] == seat


def test_every_level_plays_only_legal_actions_with_any_number_of_players():
    for seed in range(30):
        players = 2 + seed % 5
        levels = [LEVELS[(seed + seat) % 3] for seat in range(players)]
        assert play(levels, seed).over


def test_the_registry_hands_out_each_level():
    for level in LEVELS:
        bot = get_bot("roach", level, 2, random.Random(1))
        assert isinstance(bot, BOTS[level])


def test_normal_loses_far_less_than_its_share_against_random():
    losses = sum(one_against("normal", "random", seed) for seed in range(40))
    assert losses <= 4  # a fair share would be 10


def test_hard_loses_far_less_than_its_share_against_normal():
    losses = sum(one_against("hard", "normal", seed) for seed in range(24))
    assert losses <= 2  # a fair share would be 6


def test_the_same_seed_gives_the_same_game():
    levels = ["hard", "normal", "random", "normal"]
    first, second = play(levels, 7), play(levels, 7)
    assert first.view(None) == second.view(None)


# -- no peeking ----------------------------------------------------------------------------------
SEAT0 = ["bat", "fly", "fly", "mouse", "royal-frog"]


def two_tables(first: int) -> tuple[Any, Any]:
    """Two tables alike for seat 0 but for what it cannot see: the others' cards, the pile."""
    hands_a = [SEAT0, ["bat", "frog", "scorpion"], ["ladybug", "cockroach", "joker"], ["fly"] * 3]
    hands_b = [SEAT0, ["scorpion", "mouse", "blank"], ["frog", "fly", "bat"], ["ladybug"] * 3]
    penalty_a = ["cockroach", "royal-bat", "mouse"]
    penalty_b = ["cockroach", "frog", "royal-mouse"]
    fronts = [["bat"], ["mouse", "mouse"], [], ["frog"]]
    a = roach.new(4, seed=5, hands=hands_a, penalty=penalty_a, fronts=fronts, first=first)
    b = roach.new(4, seed=6, hands=hands_b, penalty=penalty_b, fronts=fronts, first=first)
    return a, b


def decisions(state: Any, level: str, seeds: range) -> list[dict[str, Any]]:
    return [
        BOTS[level](0, random.Random(seed)).choose(state.view(0), state.legal(0)) for seed in seeds
    ]


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_decides_the_same_when_only_what_it_cannot_see_differs(level):
    a, b = two_tables(first=0)
    assert a.hands != b.hands and a.penalty != b.penalty
    assert decisions(a, level, range(5)) == decisions(b, level, range(5))

    # A card slid to seat 0: a bat on one table, a blank on the other, both claimed "scorpion".
    a, b = two_tables(first=1)
    a.apply(1, {"type": "offer", "card": "bat", "to": 0, "claim": "scorpion"})
    b.apply(1, {"type": "offer", "card": "blank", "to": 0, "claim": "scorpion"})
    assert a.view(0) == b.view(0)
    assert decisions(a, level, range(5)) == decisions(b, level, range(5))


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_answers_a_card_passed_on_without_looking(level):
    # 0 offers to 1, who passes it to 2 unseen: it may go on to 3 only, never back to 1.
    state = scene([[], [], [], []], first=0)
    state.apply(0, {"type": "offer", "card": "bat", "to": 1, "claim": "fly"})
    state.apply(1, {"type": "pass", "to": 2, "claim": "fly", "look": False})
    assert state.view(2)["flight"]["held_by"] == [0, 1, 2]
    passes = 0
    for seed in range(40):
        action = BOTS[level](2, random.Random(seed)).choose(state.view(2), state.legal(2))
        assert action in state.legal(2)
        if action["type"] == "pass":
            passes += 1
            assert action["to"] == 3
            if level != "random":
                assert action.get("look", True)  # a thinking bot looks as it passes
    assert passes


# -- habits ---------------------------------------------------------------------------------------
def scene(
    fronts: list[list[str]],
    first: int,
    hands: list[list[str]] | None = None,
    penalty: tuple[str, ...] = ("bat", "fly"),
) -> Any:
    hands = hands or [
        ["bat", "mouse", "mouse", "frog", "ladybug", "scorpion"],
        ["fly", "fly", "frog", "cockroach", "royal-bat", "ladybug"],
        ["bat", "cockroach", "scorpion", "scorpion", "frog", "ladybug"],
        ["fly", "mouse", "cockroach", "frog", "ladybug", "royal-ladybug"],
    ]
    return roach.new(4, seed=1, hands=hands, penalty=list(penalty), fronts=fronts, first=first)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_bot_with_three_bats_never_doubts_a_bat(level):
    # (With a bat on top of the penalty pile any royal card would be as deadly: see below.)
    state = scene([["bat", "bat", "bat"], [], [], []], first=1, penalty=("frog", "fly"))
    state.apply(1, {"type": "offer", "card": "fly", "to": 0, "claim": "bat"})
    answers = decisions(state, level, range(40))
    assert {"type": "challenge", "believe": False} not in answers


def test_with_a_deadly_penalty_card_hard_does_not_believe_a_bluff_that_may_be_royal():
    # A royal card pulls the bat on the pile: believing "bat" about any other royal would lose,
    # and a sender who knows it would like nothing better than to send one.
    state = scene([["bat", "bat", "bat"], [], [], []], first=1, penalty=("bat", "fly"))
    state.apply(1, {"type": "offer", "card": "fly", "to": 0, "claim": "bat"})
    answers = decisions(state, "hard", range(40))
    assert {"type": "challenge", "believe": True} not in answers


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_bot_sends_cards_to_the_player_closest_to_losing(level):
    pairs = ["mouse", "mouse", "frog", "frog", "ladybug", "ladybug"]
    state = scene([[], [], pairs, []], first=0)
    offers = decisions(state, level, range(40))
    thirds = [offer for offer in offers if offer["to"] == 2 and offer["card"] in pairs]
    assert len(thirds) >= 24  # a third of a kind for the most loaded player


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_claims_vary_so_a_card_cannot_be_read_from_them(level):
    state = scene([[], [], [], []], first=0)
    offers = decisions(state, level, range(60))
    claims = Counter(offer["claim"] for offer in offers)
    truths = Counter(claim_is_true(offer["card"], offer["claim"]) for offer in offers)
    assert len(claims) >= 4
    assert truths[True] >= 6 and truths[False] >= 6


def test_after_taking_the_joker_a_bot_lays_out_what_hurts_it_least():
    hands = [["bat", "fly", "mouse", "frog"], ["joker"], ["ladybug"], ["cockroach"]]
    state = scene([["fly", "fly"], [], [], []], first=1, hands=hands)
    state.apply(1, {"type": "offer", "card": "joker", "to": 0, "claim": "royal"})
    state.apply(0, {"type": "challenge", "believe": True})  # "royal" is false: seat 0 takes it
    assert state.view(0)["phase"] == "lay"
    for level in ("normal", "hard"):
        for action in decisions(state, level, range(10)):
            assert "fly" not in action["cards"]  # a third fly, when any other two will do


def test_the_log_tells_who_took_a_special_card_and_how_often_claims_were_true():
    hands = [["bat", "fly"], ["joker", "mouse", "frog"], ["bat", "frog"]]
    state = roach.new(3, seed=1, hands=hands, penalty=["scorpion"], first=1)
    state.apply(1, {"type": "offer", "card": "mouse", "to": 2, "claim": "mouse"})
    state.apply(2, {"type": "challenge", "believe": True})  # true: seat 1 takes its own mouse
    reading = Reading.of(state.view(0))
    assert reading.records[1].told_truth == 1 and reading.records[1].claims_shown == 1
    assert reading.records[2].said_true == 1
    assert reading.holders == {}

    hands = [["bat", "fly"], ["mouse", "frog", "fly"], ["joker", "frog"]]
    state = roach.new(3, seed=1, hands=hands, penalty=["scorpion"], first=2)
    state.apply(2, {"type": "offer", "card": "joker", "to": 1, "claim": "royal"})
    state.apply(1, {"type": "challenge", "believe": True})  # false: seat 1 takes the joker
    state.apply(1, {"type": "lay", "cards": ["mouse", "frog"]})
    reading = Reading.of(state.view(0))
    assert reading.holders == {"joker": 1}
    assert reading.pool["joker"] == 0  # it is in seat 1's hand, not anywhere

    # When seat 1 then slides a card, it is the joker one time in two (seat 1 held two cards).
    state.apply(1, {"type": "offer", "card": "fly", "to": 0, "claim": "bat"})
    odds = Reading.of(state.view(0)).prior(1, public=False)
    assert odds["joker"] == pytest.approx(0.5)
    thinker = Thinker(state.view(0), NORMAL, random.Random(1))
    assert sum(thinker.my_odds(1, 0, "bat").values()) == pytest.approx(1.0)


def test_normal_tells_the_truth_to_a_player_who_always_says_false():
    # Seat 1 has said "false" to twelve cards (every claim was in fact true). A normal bot
    # sliding it a card then mostly tells the truth (it will take the card), and a little more
    # often than to a player with no record; the offers stay mixed.
    state = scene([[], [], [], []], first=0)
    doubter = state.view(0)
    for _ in range(12):
        doubter["log"] += [
            {"kind": "offer", "to": None, "sender": 2, "receiver": 1, "claim": "bat"},
            {"kind": "judge", "to": None, "seat": 1, "believe": False},
            {"kind": "reveal", "to": None, "card": "bat", "truth": True, "taker": 1},
        ]
    legal = [action for action in state.legal(0) if action["to"] == 1]

    def truthful(view: dict[str, Any]) -> int:
        offers = [Thinker(view, NORMAL, random.Random(n)).offer(legal) for n in range(200)]
        return sum(claim_is_true(offer["card"], offer["claim"]) for offer in offers)

    told = truthful(doubter)
    assert 120 <= told < 200
    assert told > truthful(state.view(0))
