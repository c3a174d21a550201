"""The look-ahead hooks bots use: a state imagined from a captain's view at a pick, and copies."""

from __future__ import annotations

import random

from tablegames.rules import get_game
from tablegames.rules.kraken import KrakenState


def at_a_pick(seed: int) -> tuple[KrakenState, list[str]]:
    """A random game of 7 played (characters off) until a captain must pick someone, and the
    roles as they were dealt."""
    state = get_game("kraken").new(7, seed, characters=False)
    dealt = list(state.factions)
    rng = random.Random(seed)
    while state.phase != "pick":
        assert not state.over, "the game ended before any pick"
        seat = min(state.waiting_for())
        state.apply(seat, rng.choice(state.legal(seat)))
    return state, dealt


def test_a_state_imagined_at_a_pick_offers_the_captain_the_same_choice():
    for seed in range(4):
        state, dealt = at_a_pick(seed)
        captain = state.captain
        view = state.view(captain)
        imagined = KrakenState.imagine(
            view, random.Random(seed), roles=dealt, factions=list(state.factions)
        )
        assert imagined is not None and imagined.quiet
        assert imagined.legal(captain) == state.legal(captain)
        for key in ("ship", "guns", "captain", "resumes", "eliminated", "pick", "round"):
            assert imagined.view(captain)[key] == view[key], key


def test_nothing_is_imagined_where_no_pick_is_asked():
    state = get_game("kraken").new(7, 3, characters=False)
    roles = list(state.factions)
    view = state.view(state.captain)
    assert KrakenState.imagine(view, random.Random(1), roles=roles, factions=roles) is None


def test_a_copy_plays_on_without_touching_the_original():
    state, _ = at_a_pick(1)
    before = state.view(None)
    copied = state.copy(random.Random(5))
    copied.apply(copied.captain, copied.legal(copied.captain)[0])
    assert state.view(None) == before and copied.view(None) != before
