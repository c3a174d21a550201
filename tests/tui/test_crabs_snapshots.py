"""Snapshots of the crabs table at 80×24 and 120×40, in ASCII, and of the team's signal screen."""

from __future__ import annotations

import pytest

from tablegames.local import local_table
from tablegames.tui.app import TableGamesApp

from .test_crabs_screen import FROZEN, crabs_table


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_crabs_table(snap_compare, size):
    app = TableGamesApp(crabs_table())
    assert snap_compare(app, press=["enter", "s"], terminal_size=size)


def test_crabs_table_in_ascii(snap_compare):
    app = TableGamesApp(crabs_table(first_side=1), ascii=True)
    assert snap_compare(app, press=["enter", "x", "escape"], terminal_size=(80, 24))


def test_crabs_signal_screen(snap_compare):
    assert snap_compare(TableGamesApp(crabs_table()), terminal_size=(80, 24))


def test_crabs_ten_players(snap_compare):
    client = local_table("crabs", 10, seed=3, names=("Sara",), speed=FROZEN, first_side=1)
    assert snap_compare(TableGamesApp(client), press=["enter"], terminal_size=(80, 24))
