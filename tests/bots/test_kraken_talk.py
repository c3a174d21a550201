"""Feed the Kraken bots talk like their side and listen with a memory for lies: over many games
sailors tell the truth more often than pirates and the cult, sailors' accusations land on
non-sailors more often, and a caught lie costs a player the bots' trust."""

from __future__ import annotations

import random
from collections import Counter

from tablegames.bots import get_bot
from tablegames.bots.kraken import NormalBot
from tablegames.bots.kraken.hearing import Listener
from tablegames.rules import get_game
from tablegames.table import Table

from ..rules.kraken.helpers import sail, table

GAMES = 24


def played(players: int, seed: int) -> Table:
    rng = random.Random(seed)
    bots = {seat: get_bot("kraken", "normal", seat, rng) for seat in range(players)}
    game = Table(
        get_game("kraken"), players, [f"P{n}" for n in range(players)], seed=seed, bots=bots
    )
    game.run_bots(5000)
    assert game.over
    return game


def test_sailors_claims_are_truer_than_pirates_and_their_accusations_land_better():
    honest: dict[str, Counter[bool]] = {"sailor": Counter(), "pirate": Counter(), "cult": Counter()}
    aimed: dict[str, Counter[bool]] = {"sailor": Counter(), "pirate": Counter()}
    talked = 0
    for n in range(GAMES):
        game = played(7, seed=100 + n)
        roles = game.state.view(None)["roles"]
        talked += len(game.talk)
        for seat, bot in game.bots.items():
            assert isinstance(bot, NormalBot)
            for claim, truthful, side in bot.talker.said:
                if truthful is not None:
                    honest[side][truthful] += 1
                if claim["kind"] == "role" and claim["target"] != seat and side in aimed:
                    aimed[side][roles[claim["target"]] != "sailor"] += 1

    def rate(tally: Counter[bool]) -> float:
        return tally[True] / max(1, sum(tally.values()))

    assert talked > GAMES * 10  # they do talk
    assert sum(honest["pirate"].values()) >= 20 and sum(honest["sailor"].values()) >= 40
    assert rate(honest["sailor"]) >= 0.9
    assert rate(honest["sailor"]) > rate(honest["pirate"]) + 0.1
    assert rate(honest["sailor"]) > rate(honest["cult"])
    assert rate(aimed["sailor"]) > rate(aimed["pirate"])


def test_a_navigator_whose_claim_the_revealed_card_gives_the_lie_loses_trust():
    state = table(7, deck=["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"])
    sail(state, 1, 2, "blue-drunk", "yellow-uprising", "blue-drunk")
    view = state.view(5)
    talk = [
        {
            "n": 0,
            "after": 9,
            "line": len(view["log"]),
            "seat": 2,
            "claim": {"kind": "handed", "nav": 1, "cards": ["red", "yellow"]},  # no blue: a lie
            "text": "",
        }
    ]
    listener = Listener(5)
    factors = listener.hear({**view, "talk": talk})
    assert listener.records[2].lies == 1
    assert factors[2][0] < 0.5 < factors[2][1]  # less likely a sailor
    bot = NormalBot(5, random.Random(1))
    before = bot.think(view).side_odds(2)["sailor"]
    after = bot.think({**view, "talk": talk}).side_odds(2)["sailor"]
    assert after < before


def test_the_captain_who_was_handed_the_lie_knows_who_told_it():
    state = table(7, deck=["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"])
    # The navigator steers the lieutenant's card: the captain knows it.
    sail(state, 1, 2, "blue-drunk", "yellow-uprising", "yellow-uprising")
    line = len([e for e in state.view(None)["log"] if e["to"] is None])
    lie = {
        "kind": "passed",
        "nav": 1,
        "office": "lieutenant",
        "drew": ["blue", "red"],
        "passed": "blue",
    }
    talk = [{"n": 0, "after": 9, "line": line, "seat": 1, "claim": lie, "text": ""}]
    captain = Listener(0)
    captain.hear({**state.view(0), "talk": talk})
    assert captain.records[1].lies == 1  # the revealed yellow was not the captain's
    bystander = Listener(5)
    bystander.hear({**state.view(5), "talk": talk})
    assert bystander.records.get(1) is None or bystander.records[1].lies == 0
