"""A refusal comes one way: whether the table is on this machine or over the network, the
client's `submit` only sends, and the table's "no" comes up to the screen as a `Said` refusal,
which puts the same sentence on its status line."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.message import Message

from tablegames.local import local_table
from tablegames.net.client import RemoteClient
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.said import Said
from tablegames.tui.textual_private import running_pump

from .helpers import STILL, press
from .test_network import DEAL, at_the_table_with, dealt_table

#: Sara holds Q♥ 7♠ 4♣ on a turned-up K♥, and it is her turn: Q♥ fits, so she may not draw.
DRAW_REFUSED = "you can play QH: you may only draw when nothing fits"
SAID_REFUSED = "✗ you can play Q♥: you may only draw when nothing fits"


Heard = list[tuple[Message, Any]]


@asynccontextmanager
async def sara_to_play(where: str, heard: Heard) -> AsyncIterator[tuple[Any, Any, Any]]:
    """Sara's app at DEAL's table, her turn, `where` "here" (this machine) or on a loopback
    server; every message the app handles goes in `heard`, with what handled it: (app, pilot,
    Sara's client)."""

    def hook(message: Message) -> None:
        heard.append((message, running_pump()))

    if where == "here":
        client = local_table("crates", 2, seed=1, names=("Sara",), pace=STILL, **DEAL)
        app = TableGamesApp(client)
        async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
            await until(lambda: isinstance(app.screen, CratesScreen), pilot=pilot)
            yield app, pilot, client
        return
    server, port = await dealt_table()
    tom = RemoteClient("127.0.0.1", port, "Tom")
    remote = RemoteClient("127.0.0.1", port, "Sara")
    app = TableGamesApp(remote=remote)
    try:
        async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
            await at_the_table_with(tom, app, pilot)
            yield app, pilot, remote
    finally:
        await tom.close()
        await remote.close()
        await server.close()


def status(app: TableGamesApp) -> str:
    return str(app.screen.query_one("#status").render())


@pytest.mark.parametrize("where", ["here", "network"])
async def test_a_draw_the_table_refuses_comes_up_one_way_and_says_why(where: str) -> None:
    heard: Heard = []

    def refusals() -> list[tuple[str, Any]]:
        return [(said.text, by) for said, by in heard if isinstance(said, Said) and said.refusal]

    async with sara_to_play(where, heard) as (app, pilot, client):
        table = app.screen
        await press(pilot, "d")  # (the screen sends it: only the table knows Q♥ fits)
        await until(lambda: status(app) == SAID_REFUSED, seconds=10, pilot=pilot)
        assert refusals() == [(DRAW_REFUSED, table)]
        # The client only sends; the "no" comes up the same way, whatever the client.
        assert client.submit(table.active_seat, {"type": "draw"}) is None
        await until(lambda: refusals() == [(DRAW_REFUSED, table)] * 2, seconds=10, pilot=pilot)
