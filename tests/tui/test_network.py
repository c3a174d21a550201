"""Joining a table on a real server over loopback: the waiting room, the deal, a play."""

from __future__ import annotations

import asyncio

from tablegames.net.client import RemoteClient
from tablegames.net.server import Server, ServerConfig
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.connect import ConnectScreen
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.widgets.hand import Hand

from .helpers import STILL, screen_text

DEAL = {"dealer": 1, "hands": [["QH", "7S", "4C"], ["JH", "10D", "2C"]], "upcard": "KH"}


async def wait_for(pilot, condition, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("the app never got there")


async def test_joining_a_server_opens_the_table_and_plays_through_it():
    server = Server(ServerConfig(port=0, bot_pace=STILL))
    server.add_table("crates", 2, options=DEAL, seed=1, fill_with_bots="normal")
    port = await server.start()
    remote = RemoteClient("127.0.0.1", port, "Sara")
    app = TableGamesApp(remote=remote)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CratesScreen))
            assert app.screen.query_one("#hand", Hand).cards == ["QH", "7S", "4C"]
            await pilot.press("enter")
            await wait_for(pilot, lambda: remote.latest.view["top"] == "QH")
            await pilot.pause()
            assert "Sara plays Q♥." in screen_text(app)
            await pilot.press("d")
            assert "It is Bot 2's turn." in screen_text(app)
    finally:
        await remote.close()
        await server.close()


async def test_a_refused_join_says_why():
    server = Server(ServerConfig(port=0, code="SECRET"))
    server.add_table("crates", 2, fill_with_bots="normal")
    port = await server.start()
    app = TableGamesApp(remote=RemoteClient("127.0.0.1", port, "Sara", code="WRONG"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: "Could not join" in screen_text(app))
            assert isinstance(app.screen, ConnectScreen)
            await pilot.press("q")
            await asyncio.sleep(0)
    finally:
        await server.close()
