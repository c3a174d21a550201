"""Sealed Bids' `hard` (`tests/plugins/sealedbids.py`): the generic look-ahead, each bid sealed
before its own imagined as people bid (`dealt_unsealed`), not drawn at random."""

from __future__ import annotations

import random

import pytest

from tablegames.bots import get_bot
from tablegames.bots.generic import LookAhead
from tablegames.rules import get_game
from tablegames.testing.strength import thinking_its_every_playout

from .sealedbids import dealt_unsealed


def three_sixes_sealed() -> tuple[object, dict[str, object]]:
    """Four players, the prize a 6: the first three have sealed their 6s; the last to bid sees
    only that they have bid."""
    game = get_game("sealedbids")
    state = game.new(4, 1, target=10, prizes=[6, 1, 2, 3, 4, 5])
    for seat in (0, 1, 2):
        state.apply(seat, {"type": "bid", "card": 6})
    return state, state.view(3)


def test_the_bids_sealed_before_its_own_are_left_for_its_playouts_to_make():
    state, view = three_sixes_sealed()
    assert view["waiting"] == [3]
    world = dealt_unsealed(view, random.Random(1))
    assert world.waiting_for() == {0, 1, 2, 3} and not world.bids.chosen
    assert world.bids_left == state.bids_left and world.prize == 6
    hard = get_bot("sealedbids", "hard", 3, random.Random(1))
    assert isinstance(hard, LookAhead) and hard.deals is dealt_unsealed


@pytest.mark.parametrize("seed", range(2))
def test_hard_asked_last_does_not_bid_into_the_bids_people_make(seed):
    # People bid high for a rich prize: three 6s cancel out, and a 5 takes the prize. The
    # generic `hard` before, drawing the sealed bids at random, bid its 6 on every seed.
    state, view = three_sixes_sealed()
    hard = get_bot("sealedbids", "hard", 3, random.Random(seed))
    with thinking_its_every_playout():
        chosen = hard.choose(view, state.legal(3))
    assert chosen is not None and chosen["card"] != 6, chosen
