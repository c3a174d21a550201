"""Malformed or untimely Kraken actions raise IllegalAction and leave every view untouched."""

from __future__ import annotations

import random

import pytest

from tablegames.rules import IllegalAction

from .helpers import kraken

JUNK = [None, -1, 99, True, 1.5, "0", [], [1], {"seat": 1}, "red-drunk", "keep"]
TYPES = [
    "appoint", "mutiny", "tie_break", "keep", "redraw", "steer", "jump", "pick", "telescope",
    "convert", "stash", "character", "decline",
]  # fmt: skip
FIELDS = ["lieutenant", "navigator", "guns", "target", "card", "choice", "recipients", "name",
          "targets", "source"]  # fmt: skip


def junk_action(rng: random.Random) -> dict:
    action = {"type": rng.choice(TYPES)}
    for field in rng.sample(FIELDS, rng.randint(0, 3)):
        action[field] = rng.choice(JUNK)
    if action["type"] == "character" and rng.random() < 0.5:
        action["name"] = rng.choice(["gunslinger", "bosun", "Look-out", "captain", "chief cook"])
    return action


def _matches(action: dict, legal: dict) -> bool:
    return all(key in action and action[key] == value for key, value in legal.items())


@pytest.mark.parametrize("players", [5, 7, 11])
def test_junk_never_changes_the_state(players):
    rng = random.Random(players)
    for seed in range(12):
        state = kraken.new(players, seed)
        while not state.over:
            before = [state.view(seat) for seat in [None, *range(players)]]
            for _ in range(6):
                seat, action = rng.randrange(players), junk_action(rng)
                if any(_matches(action, legal) for legal in state.legal(seat)):
                    continue  # a legal action with some extra, ignored fields
                with pytest.raises(IllegalAction):
                    state.apply(seat, action)
            assert [state.view(seat) for seat in [None, *range(players)]] == before
            seat = rng.choice(sorted(state.waiting_for()))
            state.apply(seat, rng.choice(state.legal(seat)))
