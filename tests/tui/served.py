"""Sara's app at a loopback server, at its table or in its lobby, for the TUI tests over the
network: waiting for what the app shows, and a party game played out fast."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from textual.pilot import Pilot

from tablegames.net.client import RemoteClient
from tablegames.net.hosting import HostedTable
from tablegames.net.proofs import ClientKey
from tablegames.net.server import Server
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.lobby import LobbyScreen

from .helpers import screen_text

#: A short two-seat crates game its owner (seat 0) wins at once, with Q♥ on K♥.
QUICK_CRATES = {"dealer": 1, "hands": [["QH"], ["JH", "10D"]], "upcard": "KH", "short": True}


@asynccontextmanager
async def sara_at(
    server: Server,
    *others: RemoteClient,
    name: str = "Sara",
    lobby: bool = False,
    size: tuple[int, int] | None = None,
    key: ClientKey | None = None,
) -> AsyncIterator[tuple[RemoteClient, TableGamesApp, Pilot[None]]]:
    """`name`'s app at `server` (started already): at its table, or in its lobby (once shown),
    on a terminal of `size` (80×24 at a table, 100×30 in the lobby), proving `key` as `join`
    does if given; her client, the app and its pilot. Her client, the `others` and the server
    are closed after."""
    assert server.port is not None, "start the server first"
    remote = RemoteClient("127.0.0.1", server.port, name, key=key)
    app = TableGamesApp(remote=remote, lobby=lobby)
    try:
        async with app.run_test(size=size or ((100, 30) if lobby else (80, 24))) as pilot:
            if lobby:
                await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
            yield remote, app, pilot
    finally:
        for other in others:
            await other.close()
        await remote.close()
        await server.close()


async def sit_down_and_start(app: TableGamesApp, pilot: Pilot[None]) -> None:
    """In the lobby: Enter sits Sara down at the table highlighted (one she owns), and s starts
    its game; returns once its table screen shows."""
    await pilot.press("enter")
    await until(lambda: "or s to start now" in screen_text(app), pilot=pilot)
    await pilot.press("s")
    await until(lambda: isinstance(app.screen, GameScreen), seconds=10, pilot=pilot)


async def played_out(hosted: HostedTable, app: TableGamesApp, pilot: Pilot[None]) -> None:
    """Play `hosted`'s game to its end here, fast (its bots' moves made here, and each person's
    first legal move made as if from their connection), then close each round's summary (n)
    until the game's end shows."""
    table = hosted.table
    assert table is not None, "the game has not begun"
    while not table.over:  # (no pause: the server's bot driver waits meanwhile)
        move = table.bot_move()
        if move is not None:
            table.submit(*move)
            continue
        seat = min(table.state.waiting_for())
        peer = hosted.seats[seat].peer
        assert peer is not None, f"nobody plays seat {seat + 1}"
        hosted.act(peer, table.version, table.legal(seat)[0])
    for _ in range(40):
        if "Rematch (r)" in screen_text(app):
            return
        await pilot.press("n")
        await pilot.pause(0.1)
