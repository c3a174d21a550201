"""Joining a table on a real server over loopback: the waiting room, the deal, a play."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from tablegames.net.client import RemoteClient
from tablegames.net.launch import parse_address
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.connect import ConnectScreen
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.network import ChatDialog, HostScreen, JoinScreen
from tablegames.tui.widgets.hand import Hand
from tablegames.tui.widgets.notices import NoticeLine

from .helpers import STILL, opened, press, screen_text
from .served import sara_at

DEAL = {"dealer": 1, "hands": [["QH", "7S", "4C"], ["JH", "10D", "2C"]], "upcard": "KH"}


async def dealt_table(**table: Any) -> tuple[Server, int]:
    """A loopback server with one two-seat Crates table dealt as DEAL; the server and its port."""
    server = Server(ServerConfig(port=0, bot_pace=STILL))
    server.add_table("crates", 2, options=DEAL, seed=1, **table)
    return server, await server.start()


async def at_the_table_with(friend: RemoteClient, app: TableGamesApp, pilot) -> None:
    """`friend` sits down and is ready; the app's player does the same, and the deal shows."""
    await friend.connect()
    friend.ask.ready(True)
    await until(lambda: "Press r" in screen_text(app), pilot=pilot)
    await pilot.press("r")
    await until(lambda: isinstance(app.screen, CratesScreen), pilot=pilot)


@asynccontextmanager
async def sara_and_tom() -> AsyncIterator[tuple[RemoteClient, RemoteClient, TableGamesApp, Any]]:
    """Sara's app and Tom's client at a dealt two-seat table, both ready, the deal on Sara's
    screen: (Tom, Sara's client, her app, its pilot); everything closed after."""
    server, port = await dealt_table()
    friend = RemoteClient("127.0.0.1", port, "Tom")
    async with sara_at(server, friend) as (remote, app, pilot):
        await at_the_table_with(friend, app, pilot)
        yield friend, remote, app, pilot


async def test_joining_a_server_opens_the_table_and_plays_through_it():
    server, _ = await dealt_table(fill_with_bots="normal", min_humans=1)
    async with sara_at(server) as (remote, app, pilot):
        await until(lambda: "not ready" in screen_text(app), pilot=pilot)
        assert "Press r when you are ready" in screen_text(app)
        assert "Sara (you)" in screen_text(app)
        await pilot.press("r")
        await until(lambda: isinstance(app.screen, CratesScreen), pilot=pilot)
        assert app.screen.query_one("#hand", Hand).cards == ["7S", "QH", "4C"]
        await pilot.press("enter")
        await until(lambda: remote.latest.view["top"] == "QH", pilot=pilot)
        await pilot.pause()
        assert "Sara plays Q♥." in screen_text(app)
        await pilot.press("d")
        assert "It is Bot 2's turn." in screen_text(app)


async def test_ready_stays_said_when_the_connection_drops_before_the_deal():
    """r says ready and r again takes it back, as the waiting room says; a connection dropped
    before the deal frees the seat, and the one taken anew is ready again as the player left it
    (once the waiting room said "Press r" over a ready it kept itself, and r took it back)."""
    server, _ = await dealt_table()
    async with sara_at(server) as (remote, app, pilot):
        (hosted,) = server.tables.values()
        await until(lambda: "Press r when you are ready" in screen_text(app), pilot=pilot)
        await pilot.press("r")
        await until(lambda: hosted.seats[0].ready, pilot=pilot)
        assert "Ready. Waiting for the others" in screen_text(app)
        await pilot.press("r")
        await until(lambda: not hosted.seats[0].ready, pilot=pilot)
        assert "Press r when you are ready" in screen_text(app)
        await pilot.press("r")
        await until(lambda: hosted.seats[0].ready, pilot=pilot)
        (dropped,) = [seat.peer for seat in hosted.seats if seat.peer is not None]
        assert remote._writer is not None
        remote._writer.transport.abort()  # the network drops before the deal
        await until(
            lambda: any(s.peer not in (None, dropped) and s.ready for s in hosted.seats),
            what="Sara seated anew, ready",
            pilot=pilot,
        )
        await until(lambda: "Ready. Waiting for the others" in screen_text(app), pilot=pilot)
        assert "Press r" not in screen_text(app)


async def test_a_draw_the_server_refuses_leaves_the_turn_as_it_was():
    """A refusal arrives later over the network: the screen had taken the draw for done and
    began the turn afresh at the next key (the pick jumped back, the hint said "Your turn"), so
    a phone tapping a card that fits never saw "Enter plays"."""
    server, port = await dealt_table(fill_with_bots="normal", min_humans=1)
    remote = RemoteClient("127.0.0.1", port, "Sara")
    app = TableGamesApp(remote=remote)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: "not ready" in screen_text(app), pilot=pilot)
            await pilot.press("r")
            await until(lambda: isinstance(app.screen, CratesScreen), pilot=pilot)
            await pilot.press("d")  # Q♥ fits: the server says no
            await until(lambda: "may only draw when nothing fits" in screen_text(app), pilot=pilot)
            await pilot.press("right")
            await until(lambda: "4♣ does not fit" in screen_text(app), pilot=pilot)
            assert app.screen.query_one("#hand", Hand).selected == 2
    finally:
        await remote.close()
        await server.close()


async def test_a_refused_join_says_why():
    server = Server(ServerConfig(port=0, code="SECRET"))
    server.add_table("crates", 2, fill_with_bots="normal", min_humans=1)
    port = await server.start()
    app = TableGamesApp(remote=RemoteClient("127.0.0.1", port, "Sara", code="WRONG"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: "said no" in screen_text(app), pilot=pilot)
            assert isinstance(app.screen, ConnectScreen)
            assert f"The table at 127.0.0.1:{port} said no: wrong" in " ".join(
                screen_text(app).split()
            )
            assert "Ready" not in screen_text(app)  # (the footer offers only what does something)
            await pilot.press("q")
            await asyncio.sleep(0)
    finally:
        await server.close()


async def test_the_menu_hosts_a_table_and_sits_down_at_it():
    async with opened() as (app, pilot):  # the menu
        await pilot.press("h")
        assert isinstance(app.screen, HostScreen)
        app.screen.query_one("#port", Input).value = "0"
        await pilot.press("enter")
        await until(
            lambda: "Friends join with:  tablegames join 127.0.0.1:" in screen_text(app),
            pilot=pilot,
        )
        await until(lambda: "or s to start now" in screen_text(app), pilot=pilot)
        assert "Bot" not in screen_text(app)  # nobody is a bot before the host starts the game
        assert "normal bot if nobody comes" in screen_text(app)
        await pilot.press("r")
        (waiting,) = app.server.tables.values()
        await until(lambda: waiting.seats[0].ready, pilot=pilot)  # (a deal would have come with it)
        assert waiting.table is None  # ready alone does not fill seats with bots
        assert isinstance(app.screen, ConnectScreen)
        await pilot.press("s")
        # The deal may turn up a card whose suit the host names first: a dialog over the table.
        await until(
            lambda: any(isinstance(shown, CratesScreen) for shown in app.screen_stack), pilot=pilot
        )
        (hosted,) = app.server.tables.values()
        assert [seat.bot_level for seat in hosted.seats] == [None, "normal", "normal", "normal"]
        assert Store().load(hosted.store_id).started is not None  # always saved
        await app.server.close()


async def test_join_refuses_a_bad_address_before_connecting():
    async with opened() as (app, pilot):  # the menu
        await pilot.press("j")
        assert isinstance(app.screen, JoinScreen)
        app.screen.query_one("#address", Input).value = "127.0.0.1:notaport"
        await press(pilot, "enter")
        assert "'notaport' is not a port number" in screen_text(app)


def test_addresses_are_read_like_a_player_writes_them():
    assert parse_address("") == ("127.0.0.1", 4747)
    assert parse_address("box.lan") == ("box.lan", 4747)
    assert parse_address("10.0.0.7:5000") == ("10.0.0.7", 5000)
    assert parse_address("[::1]:5000") == ("::1", 5000)
    with pytest.raises(ValueError, match="1 to 65535"):
        parse_address("host:70000")


async def test_chat_goes_to_everyone_at_the_table_as_a_banner():
    async with sara_and_tom() as (friend, _, app, pilot):
        heard: list[str] = []
        friend.listen_notices(lambda kind, text: heard.append(text))
        await pilot.press("slash")
        assert isinstance(app.screen, ChatDialog)
        await pilot.press(*"gg", "enter")
        await until(lambda: heard, pilot=pilot)
        assert "Sara: gg" in heard


def banners(app: TableGamesApp) -> list[str]:
    """The notices the app shows now: the pop-ups, and the lines of the notice line (a table's
    news and chat go there, not over the table)."""
    lines = [str(line.render()) for line in app.screen.query(NoticeLine) if line.display]
    return [str(notice.message) for notice in app._notifications] + "\n".join(lines).splitlines()


async def test_a_dropped_connection_says_so_and_sits_back_down():
    server, _ = await dealt_table(fill_with_bots="normal", min_humans=1)
    async with sara_at(server) as (remote, app, pilot):
        await until(lambda: "Press r" in screen_text(app), pilot=pilot)
        await pilot.press("r")
        await until(lambda: isinstance(app.screen, CratesScreen), pilot=pilot)
        told: list[str] = []  # what the app said of its connection, in order
        tell = app.tell

        def noted(text: str, kind: str = "news", seconds: float = 8.0) -> None:
            if kind == "connection":
                told.append(text)
            tell(text, kind, seconds)

        app.tell = noted  # type: ignore[method-assign]
        for client in list(server.clients):
            client.writer.transport.abort()  # the network drops, not the player
        await until(lambda: "Back at the table." in banners(app), pilot=pilot)
        # (the connection's news in one line: "lost" gave way to "back")
        assert told[-2:] == ["Connection lost: trying to get back...", "Back at the table."]
        assert remote.seat == 0 and remote.latest.view["hand"] == ["QH", "7S", "4C"]


async def test_a_chat_flood_shows_its_last_line_and_the_chat_keeps_the_rest():
    server, port = await dealt_table()
    server.config.chat_burst, server.config.chat_per_second = 100, 100.0
    flooder = RemoteClient("127.0.0.1", port, "ben")
    async with sara_at(server, flooder) as (remote, app, pilot):
        await at_the_table_with(flooder, app, pilot)
        for n in range(40):
            flooder.ask.chat(f"[bold]spam[/bold] {n}")
        await until(lambda: len(remote.chat_lines) == 40, pilot=pilot)
        await pilot.pause(0.2)
        chat = [text for text in banners(app) if "spam" in text]
        # One line over the table, plain text (no markup), saying where the rest is.
        assert chat == ["ben: boldspam/bold 39 (and 39 more: / shows the chat)"], chat
        assert list(app._notifications) == []  # nothing pops up over the table
        await pilot.press("slash")
        assert isinstance(app.screen, ChatDialog)
        assert "ben: boldspam/bold 39" in screen_text(app)


async def test_an_away_player_is_named_over_the_table_with_the_time_away():
    async with sara_and_tom() as (friend, _, app, pilot):
        assert "Away:" not in screen_text(app)
        await friend.close()
        await until(lambda: "Away: Tom, away 0 s" in screen_text(app), pilot=pilot)
        # It counts on (it once stayed at 0 s for a quarter of a minute).
        await until(lambda: re.search(r"away [1-9]\d* s", screen_text(app)), pilot=pilot)


async def test_leaving_a_network_table_says_how_to_take_the_seat_back():
    server, port = await dealt_table()
    friend = RemoteClient("127.0.0.1", port, "Tom")
    async with sara_at(server, friend, name="Sara Lee") as (remote, app, pilot):
        await at_the_table_with(friend, app, pilot)
        await press(pilot, "q")
        await until(lambda: "Your seat is kept while" in screen_text(app), pilot=pilot)
        await press(pilot, "y")
    code = remote.table_code
    assert f"tablegames join 127.0.0.1:{port} --name 'Sara Lee' --table {code}" in app.farewell


async def test_partners_huddle_over_the_network_and_play_begins_with_their_signal():
    from tablegames.tui.screens.crabs import CrabsScreen
    from tablegames.tui.screens.crabs_dialogs import HuddleScreen

    server = Server(ServerConfig(port=0, bot_pace=STILL))
    hosted = server.add_table("crabs", 4, seed=3, fill_with_bots="normal", min_humans=2)
    port = await server.start()
    remote = RemoteClient("127.0.0.1", port, "Sara")
    bea = RemoteClient("127.0.0.1", port, "Bea", table=hosted.code)
    app = TableGamesApp(remote=remote)

    async def follow() -> None:  # Bea's terminal reads whatever comes (bounded by the test)
        while True:
            await bea.next_event()

    reader: asyncio.Task[None] | None = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: "Press r" in screen_text(app), pilot=pilot)
            await bea.connect()
            reader = asyncio.create_task(follow())
            bea.ask.ready(True)
            await pilot.press("r")
            await until(lambda: isinstance(app.screen, HuddleScreen), pilot=pilot)
            assert (remote.seat, bea.seat) == (0, 1)  # partners: team A
            await until(lambda: bea.latest is not None and bea.latest.view["huddle"], pilot=pilot)
            assert bea.submit(bea.seat, {"type": "signal", "name": "yawn"}) is None
            await until(lambda: "Bea: yawn" in screen_text(app), pilot=pilot)
            assert "Your team's pick (*): yawn." in screen_text(app)
            await pilot.press("enter")  # Sara agrees
            await until(lambda: hosted.table.state.phase == "swap", pilot=pilot)
            assert hosted.table.state.signals[0] == ("yawn",)
            await until(lambda: isinstance(app.screen, CrabsScreen), pilot=pilot)
            await until(lambda: "yawn*" in screen_text(app), pilot=pilot)
    finally:
        if reader is not None:
            reader.cancel()
        await bea.close()
        await remote.close()
        await server.close()


@pytest.mark.parametrize("game", ["crates", "roach", "crabs", "kraken"])
async def test_a_phone_held_upright_has_every_footer_key_in_sight(game):
    """About 60 columns (a phone held upright): the footer's keys all fit, Chat too where the
    game has it (crabs has none: its table talk is gestures)."""
    server = Server(ServerConfig(port=0, bot_pace=STILL))
    players = {"crates": 2, "roach": 3, "crabs": 4, "kraken": 5}[game]
    options = {"board": "quick"} if game == "kraken" else {}
    server.add_table(game, players, options=options, fill_with_bots="normal", min_humans=1)
    await server.start()
    async with sara_at(server, size=(61, 40)) as (_, app, pilot):
        await until(lambda: "Press r" in screen_text(app), pilot=pilot)
        await pilot.press("r")
        await until(lambda: any(s.query(FooterKey) for s in app.screen_stack[1:]), pilot=pilot)
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        await pilot.pause()
        keys = list(table.query(FooterKey))
        assert ("chat" in [key.action for key in keys]) == (game != "crabs")
        screen = Region(0, 0, *app.size)
        for key in keys:
            assert screen.contains_region(key.region), (key.description, key.region)
