"""Crates as tablegames registers it (pyproject.toml's entry point ``crates``)."""

from __future__ import annotations

from ..rules import Checks, Game, Option

GAME = Game(
    name="crates",
    title="Crates",
    min_players=2,
    max_players=5,
    default_players=4,
    blurb="A Crazy Eights variant: shed your hand, crank the 2s, shout Crates! at one card.",
    factory="tablegames.rules.crates:CratesState",
    options=(
        Option("short", bool, False, "8 rounds instead of 15", label="Short game", quick=True),
    ),
    setups=("dealer", "hands", "upcard", "draw", "deck"),
    rules_version=2,  # 2: a 9 is no longer wild (see the engine's docstring)
    private_words="cards",
    bots="tablegames.bots.crates:BOTS",
    screen="tablegames.tui.screens.crates:SCREEN",
    # 8 rounds are plenty; two players keep the stateful server test's games short.
    checks=Checks(
        leak_table=(3, 2),
        players=3,
        core_players=2,
        own_key="draw, when nothing in your hand fits",
        hurried=(3, 3, {"short": True}, tuple("dcxhsd")),
    ),
)
