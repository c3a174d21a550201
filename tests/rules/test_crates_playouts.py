"""Crates under thousands of random playouts: cards conserved, sizes sane, every game ends."""

from __future__ import annotations

import random

from tablegames.rules import get_game
from tablegames.rules.cards import DECK

from ..playouts import playout_counts

GAMES = 2000
ACTION_LIMIT = 20_000


def check_invariants(state) -> None:
    sizes = [len(hand) for hand in state.hands]
    assert len(state.draw_pile) + len(state.discard_pile) + sum(sizes) == 52
    assert state.discard_pile, "the discard pile always has a top card"
    assert state.crank >= 0
    if state.crank:
        assert state.discard_pile[-1][:-1] in ("A", "2")
    assert state.direction in (1, -1)
    for seat in state.announced | state.must_announce:
        assert sizes[seat] == 1
    assert not state.announced & state.must_announce
    if not state.over:
        assert sizes[state.turn] > 0, "the player to act always holds cards"
        assert state.waiting_for() == frozenset({state.turn})


def check_plays_fit(state, legal) -> None:
    """Every listed play fits as the spec says: on a crank an ace or 2, else suit, rank or an 8.

    Worked out from card codes here, not from the engine's tables (a 9 is no wild card).
    """
    top = state.discard_pile[-1]
    for action in legal:
        if action["type"] != "play":
            continue
        card = action["card"]
        if state.crank:
            assert card[:-1] in ("A", "2"), (card, top)
        else:
            fits = card[:-1] in (top[:-1], "8") or card[-1] == state.suit
            assert fits, f"{card} listed on {top} with {state.suit} to follow"
        assert ("suit" in action) == (card[:-1] in ("8", "9")), action


@playout_counts(full=GAMES, quick=GAMES // 8)
def test_random_games_keep_every_invariant(games: int):
    crates = get_game("crates")
    rounds_seen = 0
    for index in range(games):
        players = 2 + index % 4
        state = crates.new(players, seed=index, short=index % 10 != 0)
        rng = random.Random(index)
        last_round = state.round_index
        for _ in range(ACTION_LIMIT):
            if state.over:
                break
            seat = state.turn
            legal = state.legal(seat)
            check_plays_fit(state, legal)
            # Mostly turn actions; now and then someone calls out or announces.
            extras = [a for s in range(players) for a in state.legal(s) if a["type"] == "dope"]
            if extras and rng.random() < 0.3:
                action = rng.choice(extras)
                seat = next(s for s in range(players) if action in state.legal(s))
            else:
                action = rng.choice(legal)
            state.apply(seat, action)
            check_invariants(state)
            if state.round_index != last_round and not state.over:
                last_round = state.round_index
                every = [c for h in state.hands for c in h] + state.draw_pile + state.discard_pile
                assert sorted(every) == sorted(DECK)
        assert state.over, f"game {index} did not end"
        rounds_seen += state.result()["rounds"]
        assert len(state.result()["scores"]) == players
    assert rounds_seen > games * 8
