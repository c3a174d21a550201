"""Snapshots of the Feed the Kraken table, a decision, the hand-off and the end, at 80×24 and
120×40. Every table is stacked and its bots never move by themselves, so each picture is the
same every run."""

from __future__ import annotations

from typing import Any

import pytest

from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.tui.app import TableGamesApp

from .helpers import STILL
from .test_kraken_screen import bots_act, kraken_state, kraken_table, no_mutiny, sail


def under_way() -> LocalClient:
    """Round 2: Ada's red card is in her résumé, the ship off to the west, Sara to mutiny."""
    client = kraken_table(captain=1, deck=["red-drunk", "red-mermaid", "blue-drunk", "red-drunk"])
    sail(client, (1, 3, 2), ("red-mermaid", "red-drunk"), "red-mermaid")
    client.table.submit(1, {"type": "pick", "target": 3})
    bots_act(client)
    return client


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_kraken_table(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(TableGamesApp(under_way()), press=["escape"], terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_kraken_mutiny_decision(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(TableGamesApp(under_way()), terminal_size=size)


def test_kraken_ascii_without_colour(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = TableGamesApp(under_way(), ascii=True)
    assert snap_compare(app, press=["escape"], terminal_size=(80, 24))


def test_kraken_eleven_on_the_long_journey(snap_compare: Any) -> None:
    client = local_table("kraken", 11, seed=9, pace=STILL, names=("Sara",), characters=True)
    assert snap_compare(TableGamesApp(client), press=["escape"], terminal_size=(80, 24))


def test_kraken_hand_off(snap_compare: Any) -> None:
    client = kraken_table(humans=2, captain=2)
    client.table.submit(2, {"type": "appoint", "lieutenant": 3, "navigator": 4})
    assert snap_compare(TableGamesApp(client), terminal_size=(80, 24))


def test_kraken_voyage_over(snap_compare: Any) -> None:
    client = kraken_table(deck=["blue-drunk", "blue-disarmed", "red-drunk", "red-drunk"])
    kraken_state(client).ship = "3,5"
    client.table.submit(0, {"type": "appoint", "lieutenant": 2, "navigator": 4})
    no_mutiny(client)
    client.table.submit(0, {"type": "keep", "card": "blue-drunk"})
    bots_act(client)
    assert snap_compare(TableGamesApp(client), terminal_size=(80, 24))
