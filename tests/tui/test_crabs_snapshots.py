"""Snapshots of the crabs table at 80×24 and 120×40, in ASCII, and of the huddle before play."""

from __future__ import annotations

from typing import Any

import pytest

from tablegames.local import local_table
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crabs_dialogs import HuddleScreen
from tablegames.tui.screens.crabs_presenter import CrabsPresenter

from .test_crabs_screen import FROZEN, crabs_table, huddling, view


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_crabs_table(snap_compare, size):
    app = TableGamesApp(crabs_table())
    assert snap_compare(app, press=["enter", "s"], terminal_size=size)


def test_crabs_table_in_ascii(snap_compare):
    app = TableGamesApp(crabs_table(first_side=1), ascii=True)
    assert snap_compare(app, press=["enter", "x", "escape"], terminal_size=(80, 24))


def test_crabs_huddle_screen(snap_compare, monkeypatch):
    monkeypatch.setattr(CrabsPresenter, "huddle_left", lambda self, view: 42.0)  # a still clock
    client = huddling()
    app = TableGamesApp(client)

    async def bots_picked(pilot: Any) -> None:
        await until(lambda: isinstance(app.screen, HuddleScreen), pilot=pilot)
        await until(lambda: view(client, 1)["huddle"]["picks"]["1"] is not None, pilot=pilot)

    assert snap_compare(app, press=["3", "9"], run_before=bots_picked, terminal_size=(80, 24))


def test_crabs_ten_players(snap_compare):
    client = local_table("crabs", 10, seed=3, names=("Sara",), speed=FROZEN, first_side=1)
    app = TableGamesApp(client)

    async def after_the_huddle(pilot: Any) -> None:
        await until(lambda: isinstance(app.screen, HuddleScreen), pilot=pilot)
        await until(lambda: client.table.state.waiting_for() == {0}, pilot=pilot)  # the bots agreed
        await pilot.press("enter")  # Sara keeps the team's pick
        await until(lambda: view(client)["phase"] == "swap", pilot=pilot)

    assert snap_compare(app, run_before=after_the_huddle, terminal_size=(80, 24))
