"""Feed the Kraken under a thousand random playouts: invariants hold, every game ends, replays."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from tablegames.rules.kraken import KrakenState
from tablegames.rules.kraken.cards import deck_cards, ritual_cards

from ...playouts import playout_counts
from .helpers import kraken

PLAYER_COUNTS = (5, 7, 11, 6, 8, 9, 10)
GAMES = 1050
#: Generous: at most 11 navigations, a bounded number of successful mutinies (every one burns
#: guns) and jumps (every one removes a player), each a few dozen actions.
ACTION_LIMIT = 3000


def setup(index: int) -> tuple[int, int, dict[str, Any]]:
    players = PLAYER_COUNTS[index % 3] if index % 4 else PLAYER_COUNTS[index % 7]
    options: dict[str, Any] = {"characters": index % 5 != 0}
    if players == 7 and index % 2:
        options["board"] = "long"
    return players, index, options


def cards_in_play(state: KrakenState) -> Counter[str]:
    held = [card for hand in state.hands.values() for card in hand]
    kept = [card for seat, card in state.kept.items() if seat not in state.hands]
    return (
        Counter(state.draw_pile)
        + Counter(state.discard_pile)
        + Counter(held)
        + Counter(kept if not state.logbook else [])
        + Counter(state.logbook)
    )


def check(state: KrakenState, before: list[list[str]]) -> None:
    players = state.players
    assert min(state.guns) >= 0, "guns never negative"
    # Exactly one captain, on board and able to speak.
    assert isinstance(state.captain, int) and 0 <= state.captain < players
    assert state.captain not in state.eliminated and state.captain not in state.tongueless
    assert state.factions.count("cult_leader") == 1
    resumes = [card for resume in state.resumes for card in resume]
    deck = Counter(deck_cards(state.board.name))
    assert cards_in_play(state) + Counter(resumes) == deck, "navigation cards are conserved"
    for seat in range(players):
        assert state.resumes[seat][: len(before[seat])] == before[seat], "résumés only grow"
    assert Counter(state.rituals + state.rituals_used) == Counter(ritual_cards())
    assert state.off_duty <= set(state.living())
    view = state.view(None)
    assert view["captain"] == state.captain and len(view["guns"]) == players
    if state.over:
        assert state.waiting_for() == frozenset() and state.legal(0) == []
        result = state.result()
        assert result["winner"] in ("sailor", "pirate", "cult")
        sides = {"cult_leader": "cult", "cultist": "cult"}
        members = [s for s, f in enumerate(state.factions) if sides.get(f, f) == result["winner"]]
        # Nobody wins when every member of the winning faction was converted to the cult.
        assert result["winners"] == members
        assert result["scores"] == [int(seat in members) for seat in range(players)]
        return
    waiting = state.waiting_for()
    assert waiting, "somebody must always be able to move"
    assert not waiting & state.eliminated
    for seat in waiting:
        assert state.legal(seat), (state.phase, seat)
    for seat in range(players):
        assert set(state.view(seat)["waiting"]) <= waiting


def playout(players: int, seed: int, options: dict[str, Any], checks: bool = True):
    state = kraken.new(players, seed, **options)
    assert isinstance(state, KrakenState)
    rng = random.Random(seed)
    log = []
    for _ in range(ACTION_LIMIT):
        if state.over:
            return state, log
        before = [list(resume) for resume in state.resumes]
        seat = rng.choice(sorted(state.waiting_for()))
        action = rng.choice(state.legal(seat))
        state.apply(seat, action, float(len(log)))
        log.append((seat, action, float(len(log))))
        if checks:
            check(state, before)
    raise AssertionError(f"{players} players, seed {seed}: no end after {ACTION_LIMIT} actions")


@playout_counts(full=GAMES, quick=GAMES // 6)
def test_random_games_keep_every_invariant_and_end(games: int):
    outcomes: Counter[str] = Counter()
    lengths = []
    for index in range(games):
        players, seed, options = setup(index)
        state, log = playout(players, seed, options)
        outcomes[state.result()["reason"]] += 1
        lengths.append(len(log))
    # Every way to end a game happens somewhere in a thousand random ones.
    endings = {"bluewater_bay", "crimson_cove", "kraken", "cult_leader_fed"}
    assert set(outcomes) == endings if games == GAMES else set(outcomes) <= endings
    assert max(lengths) < ACTION_LIMIT


def test_replay_reaches_the_same_state():
    for index in range(0, 60, 7):
        players, seed, options = setup(index)
        state, log = playout(players, seed, options, checks=False)
        again = kraken.replay(players, seed, options, log)
        for seat in [None, *range(players)]:
            assert again.view(seat) == state.view(seat)
        assert again.result() == state.result()
