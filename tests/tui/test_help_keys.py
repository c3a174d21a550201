"""A table's help is written from its key bindings: every key its footer shows has a line there,
and a key's line says what its binding's tooltip says (issue 50, item 5)."""

from __future__ import annotations

import pytest
from textual.binding import Binding

from tablegames.local import local_table
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crabs import CrabsScreen
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.generic import GenericScreen
from tablegames.tui.screens.help import HelpScreen, key_rows
from tablegames.tui.screens.kraken import KrakenScreen
from tablegames.tui.screens.roach import RoachScreen

from .helpers import press

TABLES = [CratesScreen, RoachScreen, CrabsScreen, KrakenScreen, GenericScreen]


@pytest.mark.parametrize("table", TABLES, ids=lambda table: table.__name__)
def test_every_key_its_footer_shows_has_a_line_in_its_help(table: type[GameScreen]) -> None:
    bindings = [b for b in table.BINDINGS if isinstance(b, Binding)]
    shown = {b.key for b in bindings if b.show}
    assert shown, "a table's footer shows keys"
    assert shown - {b.key for b in bindings if b.tooltip} == set()  # (one line for a key's two)


def test_a_key_is_written_as_a_player_types_it() -> None:
    rows = key_rows(
        [
            Binding("n,full_stop", "step(1)", "Next", tooltip="the next action"),
            Binding("enter", "play", "Play", tooltip="play it"),
            Binding("a", "hand(0)", "Swap", key_display="asdf jkl;", tooltip="pick"),
            Binding("s", "hand(1)", "Hand", show=False),  # (no tooltip: said by its group's)
        ]
    )
    assert rows == [("n or .", "the next action"), ("Enter", "play it"), ("asdf jkl;", "pick")]


async def test_the_help_of_crates_says_its_keys_its_click_and_the_bots_pace() -> None:
    client = local_table("crates", 2, seed=1, pace=1e9)
    app = TableGamesApp(client)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.keys)
        assert keys["d"] == "draw, when nothing in your hand fits"
        assert keys["click"].startswith("pick a card")
        assert keys["space"].startswith("pause the bots") and keys["-"] == "the bots play slower"
        assert keys["q"] == "leave the game" and keys["?"] == "this help"
        assert list(app.screen.keys)[-1] == ("q", "leave the game")  # the table's own keys first


async def test_a_real_time_tables_help_has_no_bots_pace() -> None:
    client = local_table("crabs", 4, seed=3, names=("Sara",), speed=1e-9)
    app = TableGamesApp(client)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        table = next(s for s in app.screen_stack if isinstance(s, CrabsScreen))
        table.action_help()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.keys)
        assert keys["space"] == "lay your hand down (done swapping this turn)"
        assert "-" not in keys
