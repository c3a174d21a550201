"""Words that stay true through a party night (issue 38): the lobby's status after a return,
the away clock counting on, a watcher's quit question."""

from __future__ import annotations

import re

from tablegames.net.client import RemoteClient
from tablegames.net.hosting import HostedTable
from tablegames.net.server import Server, ServerConfig
from tablegames.testing.harness import until
from tablegames.tui.screens.connect import ConnectScreen
from tablegames.tui.screens.dialogs import QuitDialog
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.lobby import LobbyScreen

from .helpers import screen_text, settle
from .served import sara_at


async def test_the_lobby_says_nothing_of_joining_once_back_from_a_table():
    server = Server(ServerConfig(port=0, bot_pace=0.0))
    server.add_table("roach", 3)
    await server.start()
    async with sara_at(server, lobby=True) as (_, app, pilot):
        await until(lambda: "waiting" in screen_text(app), pilot=pilot)
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, ConnectScreen), pilot=pilot)
        await until(lambda: "Press r" in screen_text(app), pilot=pilot)
        await pilot.press("q")  # the waiting room's way back
        await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
        await settle(pilot)
        assert "Joining table" not in screen_text(app), screen_text(app)


def away_seconds(text: str) -> int | None:
    found = re.search(r"away (\d+) s", text)
    return int(found.group(1)) if found else None


async def tom_at_a_table(bot_pace: float) -> tuple[Server, HostedTable, RemoteClient]:
    """A started server with a short crates table Tom sits at, ready; a bot takes the other
    seat, so the game is under way: the server, the table and Tom's client."""
    server = Server(ServerConfig(port=0, bot_pace=bot_pace))
    hosted = server.add_table("crates", 2, {"short": True}, fill_with_bots="normal", min_humans=1)
    port = await server.start()
    tom = RemoteClient("127.0.0.1", port, "Tom", table=hosted.code)
    await tom.connect()
    tom.ask.ready(True)
    return server, hosted, tom


async def test_the_lobby_counts_a_players_time_away_on_from_when_it_was_told():
    server, hosted, tom = await tom_at_a_table(bot_pace=0.0)
    async with sara_at(server, tom, lobby=True) as (_, app, pilot):
        await until(lambda: hosted.table is not None, pilot=pilot)
        await tom.close()  # Tom drops: away from now on, told to the lobby once
        await until(lambda: away_seconds(screen_text(app)) is not None, pilot=pilot)
        first = away_seconds(screen_text(app))
        assert first is not None
        await until(lambda: (away_seconds(screen_text(app)) or 0) >= first + 2, pilot=pilot)


async def test_a_watchers_quit_question_does_not_promise_a_seat():
    server, _, tom = await tom_at_a_table(bot_pace=10_000.0)
    async with sara_at(server, tom, lobby=True) as (_, app, pilot):
        await until(lambda: "playing" in screen_text(app), pilot=pilot)
        await pilot.press("w")
        await until(lambda: isinstance(app.screen, GameScreen), seconds=10, pilot=pilot)
        await settle(pilot)
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, QuitDialog), pilot=pilot)
        text = screen_text(app)
        assert "seat is kept" not in text and "Stop watching" in text, text
        assert "Keep watching (n)" in text


async def test_the_creator_closes_a_table_with_x_twice_and_is_back_in_the_lobby_told_why():
    server = Server(ServerConfig(port=0, bot_pace=0.0))
    await server.start()
    async with sara_at(server, lobby=True) as (_, app, pilot):
        await pilot.press("n", "enter")  # a new table, as the form offers it
        await until(lambda: "or s to start now" in screen_text(app), pilot=pilot)
        (code,) = server.tables
        await pilot.press("x")
        await until(lambda: "Press x again" in screen_text(app), pilot=pilot)
        assert code in server.tables  # not yet
        await pilot.press("x")
        await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
        await until(lambda: f"Sara closed table {code}" in screen_text(app), pilot=pilot)
        assert not server.tables
