"""Feed the Kraken as tablegames registers it (pyproject.toml's entry point ``kraken``)."""

from __future__ import annotations

from ..rules import Checks, Game, Option

GAME = Game(
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
    bots="tablegames.bots.kraken:BOTS",
    screen="tablegames.tui.screens.kraken:SCREEN",
    talk="tablegames.rules.kraken.talk",
    checks=Checks(
        # Six players deal the cult in; five is the smallest table.
        leak_table=(6, 4),
        players=5,
        core_players=5,
        own_key="use your character card",
        may_end_without_winners=True,  # a faction nobody is left in wins nobody
        hurried=(5, 5, {"board": "quick"}, tuple("ct")),
    ),
)
