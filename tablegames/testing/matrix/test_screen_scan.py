"""Hot-seat, the whole screen: after every step of a game two players share one keyboard with
bots (one player where the game is played alone at a keyboard), nothing on the composited
screen — a dialog and all it dims — shows a player's private text but the keyboard holder's,
and nobody's while a hand-off is due or a round's scores or the game's end are up (see
`screen_scan.py`)."""

from __future__ import annotations

import pytest

from tablegames.rules import get_game

from ..cases import case
from ..screen_scan import ScannedTable, play_scanned

SIZES = [(80, 24), (60, 20)]


def scanned(game_name: str) -> ScannedTable:
    """Two players at the keyboard and a bot (one player, where the game takes one)."""
    own = case(game_name).hurried
    players = own[0] if own is not None else case(game_name).players
    humans = min(2, own[1] if own is not None else players, players - 1)
    options = own[2] if own is not None else get_game(game_name).quick_options()
    return ScannedTable(game_name, max(players, humans + 1), max(1, humans), options)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
async def test_no_private_text_shows_but_the_keyboard_holders(
    game_name: str, size: tuple[int, int]
) -> None:
    """The whole screen shows no private text but the keyboard holder's, and nobody's under a
    hand-off, a round's scores or the end of the game."""
    scan = await play_scanned(scanned(game_name), seed=3, size=size)
    assert scan.findings == [], scan.findings[0]
    assert scan.shared_checked > 0, "no hand-off, round's scores or game's end was reached"
