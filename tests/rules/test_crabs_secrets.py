"""A seat's view of You've Got Crabs never depends on what that seat cannot know.

Hidden: the other players' hands, the draw pile's order, the cards a player draws, and every
other team's signal. Each test builds two tables that differ only in such a secret and checks
that the seat (and a spectator) sees exactly the same thing at both.
"""

from __future__ import annotations

import random
from typing import Any

from tablegames.rules import get_game
from tablegames.rules.crabs import GESTURES, deck_for
from tablegames.testing.playing import settle_clock

from .crabs_tables import KINGS, PLAIN, deal
from .scripts import same_for

crabs = get_game("crabs")


def stacked(players: int, own: list[str], ocean: list[str], hidden: list[str], seed: int = 9):
    """Seat 0 holds `own`; `hidden` fills the other hands, then the draw pile (top first)."""
    hands = [own] + [hidden[4 * i : 4 * i + 4] for i in range(players - 1)]
    draw = hidden[4 * (players - 1) :]
    return crabs.new(players, seed, hands=hands, ocean=ocean, draw=draw, first_side=0)


def public_script(state: Any, rng: random.Random) -> None:
    """Actions whose outcome depends on nothing hidden: seat 0 swaps, people gesture, lay down."""
    now = 0.0
    for _ in range(12):
        now += rng.uniform(0.1, 0.9)
        legal = state.legal(0)
        swaps = [a for a in legal if a["type"] == "swap"]
        if swaps and rng.random() < 0.6:
            state.apply(0, rng.choice(swaps), now)
        else:
            seat = rng.randrange(state.players)
            state.apply(seat, {"type": "gesture", "name": rng.choice(GESTURES)}, now)
    for seat in range(2, state.players):  # the rest of side 0 lays down; side 1 takes over
        if state.sides[seat] == 0:
            state.apply(seat, {"type": "done"}, now + 1)
    state.apply(0, {"type": "done"}, now + 2)


def test_two_deals_differing_only_in_hidden_cards_look_the_same_to_the_seat():
    rng = random.Random(1)
    for trial in range(300):
        players = 4 + trial % 7
        deck = deck_for(players)
        rng.shuffle(deck)
        own, ocean, hidden = deck[:4], deck[4:8], deck[8:]
        other = hidden[:]
        rng.shuffle(other)
        first, second = stacked(players, own, ocean, hidden), stacked(players, own, ocean, other)
        same_for(first, second, (0, None), differ=(1,) if hidden[:4] != other[:4] else ())
        script = random.Random(trial)
        public_script(first, script)
        public_script(second, random.Random(trial))
        assert first.view(0)["active_side"] == 1
        same_for(first, second, (0, None))


def test_the_cards_a_revealed_player_draws_stay_secret():
    hands = (PLAIN[0], KINGS, PLAIN[2], PLAIN[3])
    first = deal(*hands, draw=["jab", "jab", "taxi", "taxi", "ab"], first_side=None, seed=3)
    second = deal(*hands, draw=["ab", "ab", "bunny", "diet", "jab"], first_side=None, seed=3)
    for state in (first, second):
        events = state.apply(0, {"type": "accuse", "target": 1}, now=2.0)
        private = [event for event in events if event["to"] is not None]
        assert [event["to"] for event in private] == [[1]]
        assert "cards" in private[0] and private[0]["cards"] == state.view(1)["hand"]
    same_for(first, second, (None, 0, 2, 3))  # the partner who called it does not see them either
    assert first.view(1)["hand"] == ["jab", "jab", "taxi", "taxi"]
    assert second.view(1)["hand"] == ["ab", "ab", "bunny", "diet"]


def seeds_with_signals(players: int) -> tuple[int, int]:
    """Two seeds giving team 0 the same signal and team 1 a different one."""
    by_signal: dict[str, tuple[int, str]] = {}
    for seed in range(200):
        signals = crabs.new(players, seed, first_side=0).signals
        seen = by_signal.get(signals[0])
        if seen is not None and seen[1] != signals[1]:
            return seen[0], seed
        by_signal.setdefault(signals[0], (seed, signals[1]))
    raise AssertionError("no pair of seeds found")


def test_another_teams_signal_never_reaches_a_seat():
    a, b = seeds_with_signals(4)
    first, second = deal(*PLAIN, seed=a), deal(*PLAIN, seed=b)
    assert first.view(2)["signal"] != second.view(2)["signal"]
    same_for(first, second, (None, 0, 1))


def test_what_another_team_picks_in_the_huddle_never_reaches_a_seat():
    first, second = crabs.new(4, 5), crabs.new(4, 5)  # the same deal, the same dealt signals
    picks = {first: [("nod", "wink"), ("wink", "nod")], second: [("yawn", None), ("yawn", None)]}
    for state, (pick_2, pick_3) in picks.items():
        for seat, (name, also) in ((2, pick_2), (3, pick_3)):
            action = {"type": "signal", "name": name, **({"also": also} if also else {})}
            events = state.apply(seat, action, now=1.0 + seat)
            assert all(e["to"] == [2, 3] for e in events if "signal" in e)
        assert state.view(None)["huddle"]["settled"] == [1]
        for seat in (0, 1):
            state.apply(seat, {"type": "signal", "name": "stretch"}, now=5.0)
        assert state.phase == "swap"
        state.apply(2, {"type": "gesture", "name": "nod"}, now=6.0)  # the signal itself is public
    assert first.view(2)["signals"] == ["wink", "nod"] and second.view(2)["signals"] == ["yawn"]
    same_for(first, second, (None, 0, 1))


def test_logs_and_signals_in_random_play_reach_only_their_seats():
    for seed in range(40):
        players = 4 + seed % 7
        state = crabs.new(players, seed)
        rng = random.Random(seed)
        now = 0.0
        for _ in range(150):
            now, _ = settle_clock(state, now + rng.uniform(0.0, 1.0))
            if state.over:
                break
            seat = rng.choice(sorted(state.waiting_for()))
            if rng.random() < 0.2:
                seat = rng.randrange(players)
            legal = state.legal(seat)  # (nothing while the empty pot waits for another's call)
            if legal:
                state.apply(seat, rng.choice(legal), now)
        for viewer in range(players):
            view = state.view(viewer)
            assert view["signal"] == state.signals[state.team_of[viewer]][0]
            assert view["signals"] == list(state.signals[state.team_of[viewer]])
            assert view["hand"] == state.hands[viewer]
            assert all(e["to"] is None or viewer in e["to"] for e in view["log"])
        spectator = state.view(None)
        assert all(e["to"] is None for e in spectator["log"])
        assert all("signal" not in e for e in spectator["log"])


def test_spectators_see_no_hand_no_signal_and_no_deck_order():
    state = crabs.new(6, seed=3)
    spectator = state.view(None)
    assert spectator["hand"] == [] and spectator["signal"] is None and spectator["team"] is None
    assert set(spectator) == set(state.view(0))  # same keys for everyone
    for seat in [None, *range(6)]:
        view = state.view(seat)
        assert "seed" not in repr(view) and "draw_pile" not in view
        assert view["draw_size"] == len(state.draw_pile)
        assert list(view["ocean"]) == state.ocean
        assert view["hand_sizes"] == [4] * 6
