"""The bots: each level is stronger than the level below it, one bot of it winning more than
its fair share at a table of the level below, on fixed seeds (`strength.py`).

A check gives each matchup up to a minute of CPU time (`strength.BUDGET`), stopping it once the
level is surely stronger (its interval above the fair share), or the number of games
``--bot-games N`` names (`tablegames check GAME --only bots --games N`: a longer verdict). A
level fails if its share is not above the fair share; its verdict says whether it is surely
stronger (docs/adding-a-game.md says why the share, not the interval, decides). The test suite
leaves them to its slow run (they are `slow`); the check plays them (`strength`).
"""

from __future__ import annotations

import pytest

from tablegames.bots import level_note
from tablegames.rules import get_game

from ..strength import BUDGET, MATCHUPS, levels_differ, matchup

pytestmark = [pytest.mark.slow, pytest.mark.strength]


@pytest.mark.parametrize(("level", "below"), MATCHUPS, ids=[level for level, _ in MATCHUPS])
def test_each_level_wins_more_than_its_share_against_the_level_below(
    game_name: str, level: str, below: str, request: pytest.FixtureRequest
) -> None:
    """Each bot level wins more than its fair share against bots of the level below."""
    if not levels_differ(game_name):
        pytest.skip(level_note(get_game(game_name)) or "every level plays at random")
    games: int | None = request.config.getoption("bot_games")
    played = matchup(game_name, level, below, games=games, seconds=BUDGET)
    request.node.user_properties.append(("figures", f"{game_name}: {played.words()}"))
    more = "" if games else " (a longer verdict: --games N)"
    assert played.stronger, f"{level} is not stronger than {below}: {played.words()}{more}"
