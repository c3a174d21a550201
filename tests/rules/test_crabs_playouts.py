"""You've Got Crabs under thousands of random playouts: cards and tokens conserved, games end.

The players act in random order with random timestamps that creep forward (so some pairs of
calls fall inside the one-second double-crab window), and the clock is settled before each move
as the table does (a window the empty pot waits for closes by itself). They mostly act at
random, sometimes swap greedily towards four of a kind and often call out a player who really
holds one, so that every accusation outcome, the double crab, the ocean refresh, the reshuffle,
the empty pot waiting for a double crab and the tie-break all happen many times.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from tablegames.rules import get_game
from tablegames.rules.crabs import TOTAL_TOKENS, deck_for, is_crab
from tablegames.testing.playing import settle_clock

from ..playouts import playout_counts

GAMES = 2000
ACTION_LIMIT = 5_000
#: Log sentences that show each rule was exercised many times.
MARKS = (
    "right!",
    "wrong!",
    "no token to lose",
    "The team has no token",
    "Double crab",
    "collects the double crab",
    "refilled",
    "shuffled",
    "tie with",
    "the game ends when the double-crab window closes",
    "the window closes",
    "The first call's token stays with the team",
    "wrong, but the pot is empty",
    "the call is void",
    "settles on its signal",
    "ran out of time and keeps",
)
REQUIRED = frozenset({"swap", "done", "want_swap", "double_take", "signal"})

crabs = get_game("crabs")


def new_game(index: int, rng: random.Random) -> Any:
    """Small pots and mostly few tokens, so games are short; every fourth game starts with
    partners 0 and 1 both holding four of a kind."""
    players = (4, 4, 5, 6, 7, 4, 5, 8, 9, 10)[index % 10]
    options: dict[str, Any] = {"pot": rng.randint(1, 3)}
    if index % 5:
        options["tokens"] = [rng.randint(0, 1) for _ in range(players)]
    if index % 4:
        return crabs.new(players, seed=index, **options)
    deck = deck_for(players)
    rng.shuffle(deck)
    for kind in ("king", "magic"):
        for _ in range(4):
            deck.remove(kind)
    hands = [["king"] * 4, ["magic"] * 4] + [deck[4 * i : 4 * i + 4] for i in range(players - 2)]
    rest = deck[4 * (players - 2) :]
    return crabs.new(players, index, hands=hands, ocean=rest[:4], draw=rest[4:], **options)


def choose(state: Any, rng: random.Random, lazy: bool) -> tuple[int, dict[str, Any]]:
    """A seat and an action: a call on a real crab, a guess, a greedy swap, or anything legal.

    At a `lazy` table the players mostly lay their hands down and refuse to swap, so sides end
    their turns without swaps and the ocean is refreshed again and again.
    """
    crabs_held = [s for s in range(state.players) if is_crab(state.hands[s])]
    if crabs_held and rng.random() < 0.5:
        target = rng.choice(crabs_held)
        callers = [
            s
            for s in range(state.players)
            if {"type": "accuse", "target": target} in state.legal(s)
        ]
        if callers:
            team = [s for s in callers if state.team_of[s] == state.team_of[target]]
            caller = rng.choice(team if team and rng.random() < 0.7 else callers)
            return caller, {"type": "accuse", "target": target}
    if rng.random() < 0.1:  # a wild guess, mostly at an opponent
        seat = rng.randrange(state.players)
        calls = [a for a in state.legal(seat) if a["type"] == "accuse"]
        opponents = [a for a in calls if state.team_of[a["target"]] != state.team_of[seat]]
        if calls:
            return seat, rng.choice(opponents if opponents and rng.random() < 0.9 else calls)
    seat = rng.choice(sorted(state.waiting_for()))
    legal = state.legal(seat)
    if lazy and rng.random() < 0.9:
        for quiet in ({"type": "done"}, {"type": "want_swap", "yes": False}):
            if quiet in legal:
                return seat, quiet
    swaps = [a for a in legal if a["type"] == "swap"]
    if swaps and rng.random() < 0.5:
        counts = Counter(state.hands[seat])
        return seat, max(
            swaps, key=lambda a: (counts[a["ocean"]] - counts[a["hand"]], rng.random())
        )
    required = [a for a in legal if a["type"] in REQUIRED]
    if required and rng.random() < 0.6:
        return seat, rng.choice(required)
    return seat, rng.choice(legal)


def check_invariants(state: Any, cards: Counter[str], tokens_in_play: int) -> None:
    every = [c for hand in state.hands for c in hand] + state.ocean
    assert Counter(every + state.draw_pile + state.discard_pile) == cards
    assert all(len(hand) == 4 for hand in state.hands) and len(state.ocean) == 4
    assert min(state.tokens) >= 0 and state.pot >= 0 and state.unused >= 0
    assert sum(state.tokens) + state.pot == tokens_in_play
    assert sum(state.tokens) + state.pot + state.unused == TOTAL_TOKENS
    waiting = state.waiting_for()
    if state.over:
        assert not waiting and state.result()["winners"]
        assert state.result()["scores"] == [
            state.result()["team_tokens"][state.team_of[s]] for s in range(state.players)
        ]
        return
    assert waiting or state.deadline() is not None, "someone, or the clock, must be awaited"
    # (each seat's legal actions, asked once: most of a playout's time went into asking again)
    kinds = [{a["type"] for a in state.legal(seat)} for seat in range(state.players)]
    for seat in waiting:
        assert REQUIRED & kinds[seat]
    assert all(1 <= len(signals) <= 2 for signals in state.signals)
    if state.phase == "huddle":  # only signals are picked, and only by huddling teams
        assert set().union(*kinds) <= {"signal"}
        return
    assert not any("signal" in seat_kinds for seat_kinds in kinds)
    assert state.pot > 0 or state.tiebreak or state.phase == "closing"
    if state.phase == "closing":  # the empty pot waits only for a double crab
        assert state.pot == 0 and (state.deadline() is not None or state.double_owed)
        assert set().union(*kinds) <= {"accuse", "double_take"}
    assert (state.phase == "asking") == bool(state.asked)
    assert all(state.sides[s] == state.marker for s in state.done)
    assert all(state.sides[s] != state.marker for s in state.asked)
    for team in state.double_owed:
        assert len(state.teams[team]) == 2 and not state.tiebreak


@playout_counts(full=GAMES, quick=GAMES // 8)
def test_random_games_keep_every_invariant(games: int):
    seen: Counter[str] = Counter()
    for index in range(games):
        rng = random.Random(index)
        state = new_game(index, rng)
        cards = Counter([c for hand in state.hands for c in hand] + state.ocean + state.draw_pile)
        tokens_in_play = sum(state.tokens) + state.pot
        now = 0.0
        lazy = index % 3 == 0
        for _ in range(ACTION_LIMIT):
            if state.over:
                break
            now += rng.uniform(0.0, 0.7)
            due = state.deadline()
            if due is not None and now < due and rng.random() < 0.5:
                # The empty pot waits out a window: the partner may still call in it.
                seat = rng.choice([s for s in range(state.players) if state.legal(s)])
                events = state.apply(seat, rng.choice(state.legal(seat)), now)
            else:
                now, events = settle_clock(state, now)  # as the table does: the clock first
                if not state.over:
                    seat, action = choose(state, rng, lazy)
                    events += state.apply(seat, action, now)
            for event in events:
                for mark in MARKS:
                    seen[mark] += mark in event["text"]
            check_invariants(state, cards, tokens_in_play)
        assert state.over, f"game {index} did not end"
        seen["tiebreak won"] += state.result()["tiebreak"]
    for mark in (*MARKS, "tiebreak won"):
        assert seen[mark] > 20 * games // GAMES, (mark, seen)
