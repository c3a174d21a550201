"""Hot-seat, the whole screen: after every step of a game two players share one keyboard with
bots (one player where the game is played alone at a keyboard), nothing on the composited
screen — a dialog and all it dims — shows a player's private text but the keyboard holder's,
and nobody's while a hand-off is due or a round's scores or the game's end are up (see
`screen_scan.py`)."""

from __future__ import annotations

import pytest
from textual.binding import Binding

from tablegames.local import local_table
from tablegames.rules import get_game
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.game import table_screen
from tablegames.tui.screens.handoff import HANDOFF_LETTERS
from tablegames.tui.textual_private import key_bindings

from ..cases import case
from ..hurried import HotSeat
from ..screen_scan import ScreenScan, play_scanned
from ..screens import STILL

SIZES = [(80, 24), (60, 20)]
#: Steps of play in the default run (the slow run plays whole games: 1000 at most).
DEFAULT_STEPS = 60


def scanned(game_name: str) -> HotSeat:
    """Two players at the keyboard and a bot (one player, where the game takes one)."""
    own = case(game_name).hurried
    players = own[0] if own is not None else case(game_name).players
    humans = min(2, own[1] if own is not None else players, players - 1)
    options = own[2] if own is not None else get_game(game_name).quick_options()
    return HotSeat(game_name, max(players, humans + 1), max(1, humans), options)


@pytest.mark.parametrize(
    "size",
    [
        pytest.param(SIZES[0], id="80x24"),
        pytest.param(SIZES[1], id="60x20", marks=pytest.mark.slow),
    ],
)  # (60x20 in the slow run, for the default run's length: kraken's has tests of its own there)
async def test_no_private_text_shows_but_the_keyboard_holders(
    game_name: str, size: tuple[int, int]
) -> None:
    """The whole screen shows no private text but the keyboard holder's, and nobody's under a
    hand-off, a round's scores or the end of the game."""
    table = scanned(game_name)
    scan = await play_scanned(table, seed=3, size=size, steps=DEFAULT_STEPS)
    check_scanned(scan, table)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 5, 6])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
async def test_whole_games_show_no_private_text_but_the_keyboard_holders(
    game_name: str, size: tuple[int, int], seed: int
) -> None:
    table = scanned(game_name)
    scan = await play_scanned(table, seed=seed, size=size, steps=1000)
    check_scanned(scan, table)


def check_scanned(scan: ScreenScan, table: HotSeat) -> None:
    """Nothing found, the table in sight all the while (every game is played at 60x20: a
    table too big for it would be scanned under "make the terminal bigger"), and the play
    reached a hand-off or a summary (one player alone at the keyboard has no hand-offs, and may
    not reach the end)."""
    assert scan.findings == [], scan.findings[0]
    assert scan.cramped == 0, f"the table did not fit: covered in {scan.cramped} steps"
    assert scan.shared_checked > 0 or table.humans == 1, "no hand-off or summary was reached"


def test_its_table_binds_no_capital_letter(game_name: str) -> None:
    """Its table binds no capital letter: every player's hand-off key is one, the same in
    every game, so no key of a move opens a hand-off."""
    table = scanned(game_name)
    client = local_table(game_name, table.players, seed=1, pace=STILL, **table.options)
    screen = table_screen(client)
    app_keys = [b.key for b in TableGamesApp.BINDINGS if isinstance(b, Binding)]
    bound = {key.strip() for keys in [*key_bindings(screen), *app_keys] for key in keys.split(",")}
    assert not bound & set(HANDOFF_LETTERS)
