"""Snapshots of the roach table, its prompts, the hand-off and the result, at 80×24 and 120×40.

Every table is stacked and its bots never move (a huge pace), so each picture is the same every run.
"""

from __future__ import annotations

import pytest

from tablegames.drivers import LocalClient
from tablegames.tui.app import TableGamesApp

from .test_roach_screen import offer, roach_table

HANDS = [
    ["bat", "royal-fly", "cockroach", "cockroach", "frog", "scorpion", "ladybug", "blank"],
    ["royal-bat", "fly", "frog", "mouse", "scorpion", "scorpion"],
    ["bat", "cockroach", "frog", "ladybug", "ladybug", "royal-ladybug"],
    ["fly", "fly", "mouse", "scorpion", "royal-scorpion", "joker"],
]
FRONTS = [
    ["bat", "fly", "fly"],
    ["mouse", "mouse", "royal-mouse", "frog"],
    ["scorpion"],
    ["ladybug", "cockroach", "cockroach", "cockroach"],
]

PENALTY = ("frog", "bat", "fly")


def stacked(**options) -> LocalClient:
    """The hands and face-up cards above; Sara starts unless told."""
    return roach_table(HANDS, penalty=PENALTY, fronts=FRONTS, **options)


def mid_game(humans: int = 1) -> LocalClient:
    """Ada slid her royal bat to Bruno as a bat; Bruno peeked and passed it to Sara as royal."""
    names = ("Sara", "Tom")[:humans]
    client = stacked(first=1, humans=humans, names=names)
    client.table.submit(1, offer("royal-bat", 2, "bat"))
    client.table.submit(2, {"type": "pass", "to": 0, "claim": "royal"})
    return client


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_claim_to_answer(snap_compare, size):
    assert snap_compare(TableGamesApp(mid_game()), terminal_size=size)


def test_ascii_without_colour(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = TableGamesApp(mid_game(), ascii=True)
    assert snap_compare(app, terminal_size=(80, 24))


def test_choosing_a_claim(snap_compare):
    client = stacked()
    assert snap_compare(TableGamesApp(client), press=["2", "enter", "2"], terminal_size=(80, 24))


def test_laying_out_after_taking_the_joker(snap_compare):
    client = stacked(first=3)
    client.table.submit(3, offer("joker", 0, "royal"))
    client.table.submit(0, {"type": "challenge", "believe": True})
    assert snap_compare(TableGamesApp(client), press=["1", "enter"], terminal_size=(80, 24))


def test_hand_off(snap_compare):
    client = stacked(first=1, humans=2, names=("Sara", "Tom"))
    client.table.submit(1, offer("royal-bat", 0, "bat"))
    assert snap_compare(TableGamesApp(client), terminal_size=(80, 24))


def test_the_loser_is_named(snap_compare):
    client = stacked()
    client.table.submit(0, offer("frog", 1, "mouse"))
    client.table.submit(1, {"type": "challenge", "believe": False})
    client.table.submit(0, offer("cockroach", 3, "fly"))
    client.table.submit(3, {"type": "challenge", "believe": True})
    assert snap_compare(TableGamesApp(client), terminal_size=(80, 24))
