"""Cockroach Poker Royal as tablegames registers it (pyproject.toml's entry point ``roach``)."""

from __future__ import annotations

from ..rules import Checks, Game, Option

GAME = Game(
    name="roach",
    title="Cockroach Poker Royal",
    min_players=2,
    max_players=6,
    default_players=4,
    blurb="Pass bugs face down, lie about them, and don't collect four of a kind.",
    factory="tablegames.rules.roach:RoachState",
    options=(
        Option(
            "loser",
            str,
            "four",  # the engine's FOUR and MOST (not imported: knowing a game costs no engine)
            "who loses: four of one animal, or the most face-up cards",
            ("four", "most"),
            label="Loser",
        ),
    ),
    setups=("hands", "penalty", "first", "deck", "fronts"),
    private_words="cards",
    bots="tablegames.bots.roach:BOTS",
    screen="tablegames.tui.screens.roach:SCREEN",
    checks=Checks(
        leak_table=(4, 3),
        players=3,
        core_players=3,
        own_key="pass the card on, looking at it first or not",
        hurried=(3, 3, {}, tuple("tfpl")),
    ),
)
