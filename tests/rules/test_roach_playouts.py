"""Cockroach Poker Royal under thousands of random playouts: every invariant, every game ends."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from tablegames.rules import get_game
from tablegames.rules.roach import ANIMALS, DECK, animal_of

from ..playouts import playout_counts

GAMES = 2000
#: Every round moves a card out of the hands or the penalty pile, so a game has at most 65
#: rounds of at most 1 offer + 4 passes + 1 challenge + 1 lay.
ACTION_LIMIT = 65 * 7


def all_cards(state: Any) -> Counter[str]:
    cards: Counter[str] = Counter(state.penalty)
    for seat in range(state.players):
        cards.update(state.hands[seat])
        cards.update(state.fronts[seat])
    if state.flight is not None:
        cards[state.flight.card] += 1
    return cards


def most_of_one_animal(front: list[str]) -> int:
    counts = Counter(animal_of(card) for card in front if animal_of(card) is not None)
    return max(counts.values(), default=0)


def check_invariants(state: Any) -> None:
    assert all_cards(state) == Counter(DECK), "65 cards, no more, no fewer"
    view = state.view(None)
    in_flight = 1 if view["flight"] is not None else 0
    total = sum(view["hand_sizes"]) + sum(map(len, view["fronts"])) + view["penalty_size"]
    assert total + in_flight == 65
    assert min(view["hand_sizes"]) >= 0 and view["penalty_size"] >= 0
    assert view["penalty_top"] == (state.penalty[0] if state.penalty else None)
    for seat, front in enumerate(state.fronts):
        assert set(view["front_counts"][seat]) == set(ANIMALS)
        if seat != state.loser:
            assert most_of_one_animal(front) < state.lose_at
    if state.over:
        loser = state.loser
        assert loser is not None and view["turn"] is None
        assert most_of_one_animal(state.fronts[loser]) >= state.lose_at or not state.hands[loser]
        assert state.waiting_for() == frozenset()
        return
    assert state.loser is None
    assert state.waiting_for() == frozenset({state.turn}) == frozenset({view["turn"]})
    assert (state.phase == "respond") == (state.flight is not None)
    assert (state.phase == "lay") == (state.pending is not None)
    if state.phase == "offer":
        assert state.hands[state.turn], "the player to offer always holds a card"
    if state.flight is not None:
        flight = state.flight
        assert flight.receiver == state.turn
        held = flight.held_by()  # the offerer, then every receiver: never one twice
        assert len(set(held)) == len(held) == len(flight.chain) + 1
        assert held[-1] == flight.receiver and held[-2] == flight.sender
        # Those who looked, in the order they held it: the offerer always, a passer who looked
        # and (peeked) the receiver, who must now pass it on.
        assert flight.seen_by == [seat for seat in held if seat in flight.seen_by]
        assert flight.seen_by[0] == held[0]
        if state.players == 2:
            assert len(flight.chain) == 1, "two players never pass"
    if state.pending is not None:
        assert state.pending.special in state.hands[state.pending.seat]
        assert len(state.hands[state.pending.seat]) >= 2


def choose(state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal action; half the time the kind (pass or challenge) is drawn first."""
    legal = state.legal(seat)
    assert legal, "a waiting seat always has something to do"
    if rng.random() < 0.5:
        kind = rng.choice(sorted({action["type"] for action in legal}))
        legal = [action for action in legal if action["type"] == kind]
    return rng.choice(legal)


@playout_counts(full=GAMES, quick=GAMES // 8)
def test_random_games_keep_every_invariant_and_end_with_one_loser(games: int) -> None:
    roach = get_game("roach")
    reasons: Counter[str] = Counter()
    passes = lays = unseen = 0
    for index in range(games):
        players = 2 + index % 5
        state = roach.new(players, seed=index)
        rng = random.Random(index)
        check_invariants(state)
        stock = len(state.penalty) + sum(map(len, state.hands))
        for _ in range(ACTION_LIMIT):
            if state.over:
                break
            (seat,) = state.waiting_for()
            action = choose(state, seat, rng)
            passes += action["type"] == "pass"
            unseen += action.get("look") is False
            lays += action["type"] == "lay"
            state.apply(seat, action)
            check_invariants(state)
            if state.phase == "offer":  # a round is over: it moved at least one card out
                now = len(state.penalty) + sum(map(len, state.hands))
                assert now < stock
                stock = now
        assert state.over, f"game {index} did not end"
        result = state.result()
        assert result["loser"] == state.loser
        assert result["winners"] == [s for s in range(players) if s != state.loser]
        assert result["scores"] == [int(s == state.loser) for s in range(players)]
        reasons["empty hand" if "offer" in result["reason"] else "animal"] += 1
    assert reasons["animal"] > games // 2 and reasons["empty hand"] > 0
    assert passes > games and lays > games // 10 and unseen > games // 4
