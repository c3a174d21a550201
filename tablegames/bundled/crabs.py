"""You've Got Crabs as tablegames registers it (pyproject.toml's entry point ``crabs``)."""

from __future__ import annotations

from ..rules import Checks, Game

GAME = Game(
    name="crabs",
    title="You've Got Crabs",
    min_players=4,
    max_players=10,
    default_players=4,
    blurb="Real-time teams: swap for four of a kind, flash your secret signal, call crabs!",
    factory="tablegames.rules.crabs:CrabsState",
    setups=("hands", "ocean", "draw", "first_side", "deck", "tokens", "pot"),
    chat=False,
    realtime=True,
    # 2: a double crab on the pot's last token is paid in full; 3: signals are picked in a
    # huddle before play and fixed for the game (two at most), no longer changed at any time;
    # 4: calls exactly one second apart make a double crab, and a call within a second of the
    # call that showed the target's four is void (it was judged against the new hand).
    rules_version=4,
    bots_note="normal and hard read signals",
    private_words="cards and signal",
    bots="tablegames.bots.crabs:BOTS",
    screen="tablegames.tui.screens.crabs:SCREEN",
    checks=Checks(
        # Every seat a client: a team's signal is shown only to its partners' terminals.
        leak_table=(4, 4),
        players=4,
        core_players=4,
        # Random players rarely get four of a kind: partners 0 and 1 are dealt theirs.
        deal="tablegames.rules.crabs:deal_with_fours",
        own_key="lay your hand down",
        # (real time: one player at the keyboard, bots in the other seats)
        hurried=(4, 1, {}, (*"asdfjkl", "semicolon", "x", "t", "c")),
    ),
)
