"""Snapshots of the Crates table, the hand-off and the round summary at 80×24 and 120×40."""

from __future__ import annotations

import pytest

from tablegames.tui.app import TableGamesApp

from .helpers import four_player_table, stacked


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_crates_table(snap_compare, size):
    assert snap_compare(TableGamesApp(four_player_table()), terminal_size=size)


def test_crates_table_in_ascii(snap_compare):
    assert snap_compare(TableGamesApp(four_player_table(), ascii=True), terminal_size=(80, 24))


def test_a_dimmed_card_picked(snap_compare):
    app = TableGamesApp(four_player_table())
    assert snap_compare(app, press=["2"], terminal_size=(80, 24))


def test_hand_off(snap_compare):
    client = stacked(
        [["QH", "7S", "4C"], ["JH", "10D", "2C"], ["5S", "6S"]],
        humans=2,
        names=("Sara", "Tom"),
        draw=["AS"],
    )
    assert snap_compare(TableGamesApp(client), press=["s", "enter"], terminal_size=(80, 24))


def test_round_summary(snap_compare):
    client = stacked(
        [["KS"], ["3S", "8D", "QC", "2H"], ["3C", "3D", "AH"]], names=("Sara",), short=True
    )
    assert snap_compare(TableGamesApp(client), press=["enter"], terminal_size=(80, 24))


def test_suit_for_a_nine(snap_compare):
    # The 9C follows the turned-up KC's suit (a 9 is no wild card); hearts sort before clubs.
    client = stacked([["9C", "QH"], ["2D", "4C", "JD"]], upcard="KC", names=("Sara",))
    assert snap_compare(TableGamesApp(client), press=["2", "enter"], terminal_size=(80, 24))
