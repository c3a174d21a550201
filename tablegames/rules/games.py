"""The games that come with tablegames, as the registry holds them: names, player counts,
options and where each one's engine lives (an import string). Their own bots and screens are
named from above (`bots/own.py`, `tui/catalogue.py`): the rules name nothing above them.

Declared apart from the engines so that knowing the games costs no engine: `tablegames --help`,
`list` and the menu read these, and a game's engine is imported when a game of it starts
(`Game.new`). Each engine's module docstring says its rules.
"""

from __future__ import annotations

from .core import Game, Option

#: Roach's losing rules (the `loser` option): four of one animal, or the most face-up cards.
FOUR, MOST = "four", "most"

CRATES = Game(
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
    rules_version=2,  # 2: a 9 is no longer wild (see the module docstring)
    private_words="cards",
)


ROACH = Game(
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
            FOUR,
            "who loses: four of one animal, or the most face-up cards",
            (FOUR, MOST),
            label="Loser",
        ),
    ),
    setups=("hands", "penalty", "first", "deck", "fronts"),
    private_words="cards",
)


CRABS = Game(
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
)


KRAKEN = Game(
    name="kraken",
    title="Feed the Kraken",
    min_players=5,
    max_players=11,
    default_players=7,
    blurb="Sailors, pirates and a cult steer one ship: mutiny, navigate, feed the Kraken.",
    factory="tablegames.rules.kraken.game:KrakenState",
    options=(
        # None: the board for the player count (long from 8 players; 7 may choose).
        Option("board", str, None, "quick for 5-7 players, long for 7-11", ("quick", "long")),
        Option("characters", bool, True, "deal character cards"),
    ),
    setups=("roles", "deck", "dealt_characters", "captain", "rituals"),
    # 2: a cabin search shows the group (cult), no longer the rank (cult_leader, cultist);
    # 3: only a mutineer who raised a gun may take command (no longer a tie among empty fists).
    rules_version=3,
    private_words="role and cards",
)
