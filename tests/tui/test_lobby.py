"""The party's lobby over loopback: tables listed, a table opened, a game to its end, a rematch,
back to the lobby; `join` with one open table goes straight to it."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from textual.pilot import Pilot

from tablegames.net.client import RemoteClient
from tablegames.net.hosting import HostedTable
from tablegames.net.messages import SeatNews
from tablegames.net.party import Login
from tablegames.net.server import Server, ServerConfig
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.connect import ConnectScreen
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.lobby import LobbyScreen, NewTableDialog, who_sits
from tablegames.tui.screens.table_form import TableForm

from .helpers import screen_text, settle
from .served import QUICK_CRATES, played_out, sara_at, sit_down_and_start


async def party(tables: int = 2) -> tuple[Server, int]:
    server = Server(ServerConfig(port=0, bot_pace=0.0))
    for _ in range(tables):
        server.add_table("roach", 3)
    return server, await server.start()


@asynccontextmanager
async def in_the_lobby(
    tables: int,
) -> AsyncIterator[tuple[Server, RemoteClient, TableGamesApp, Pilot]]:
    """Sara in the lobby of a party with `tables` roach tables; everything closed after."""
    server, _ = await party(tables)
    async with sara_at(server, lobby=True) as (remote, app, pilot):
        yield server, remote, app, pilot


async def test_the_lobby_lists_the_tables_and_opens_a_new_one_to_play():
    async with in_the_lobby(2) as (server, _, app, pilot):
        await until(lambda: "Cockroach Poker Royal (3)" in screen_text(app), pilot=pilot)
        text = screen_text(app)
        assert "you are Sara" in text and text.count("waiting") == 2 and "3 free" in text
        await pilot.press("n")
        assert isinstance(app.screen, NewTableDialog)
        await pilot.press("right", "down", "left", "left")  # crates..., 2 players
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, ConnectScreen), pilot=pilot)
        await until(lambda: "or s to start now" in screen_text(app), pilot=pilot)
        (made,) = [t for t in server.tables.values() if t.owner_seat == 0]
        assert made.players == 2 and made.seats[0].name == "Sara"
        await pilot.press("s")
        await until(lambda: made.table is not None, pilot=pilot)
        await until(lambda: not isinstance(app.screen, ConnectScreen), pilot=pilot)
        assert made.seats[1].bot_level == "normal"
        await pilot.press("q")  # leave the game...
        await pilot.press("m")
        await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)  # ...to the lobby
        assert made.seats[0].peer is None  # the seat is held for Sara
        await until(lambda: "playing" in screen_text(app), pilot=pilot)


async def test_a_new_tables_form_offers_the_games_own_options():
    async with in_the_lobby(1) as (server, _, app, pilot):
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, NewTableDialog)
        await pilot.press("right")  # Cockroach Poker Royal
        await settle(pilot)
        assert "Loser" in screen_text(app) and "who loses" in screen_text(app)
        await pilot.press("down", "down", "down", "right")  # Loser: most
        await pilot.press("enter")
        await until(lambda: any(t.owner_seat == 0 for t in server.tables.values()), pilot=pilot)
        (made,) = [t for t in server.tables.values() if t.owner_seat == 0]
        assert made.game.name == "roach" and made.options == {"loser": "most"}


@asynccontextmanager
async def at_the_results() -> AsyncIterator[
    tuple[Server, HostedTable, RemoteClient, TableGamesApp, Pilot]
]:
    """Sara, from the lobby, has played a crates game against a bot to its end: the results."""
    server = Server(ServerConfig(port=0, bot_pace=0.0))
    hosted = server.add_table("crates", 2, QUICK_CRATES, fill_with_bots="normal", owner_seat=0)
    await server.start()
    async with sara_at(server, lobby=True) as (remote, app, pilot):
        await sit_down_and_start(app, pilot)
        await played_out(hosted, app, pilot)
        yield server, hosted, remote, app, pilot


async def test_a_finished_party_game_offers_a_rematch_with_the_same_seats(caplog):
    caplog.set_level(logging.INFO, "tablegames")  # (failed once in ~15 full runs: its story)
    async with at_the_results() as (server, hosted, remote, app, pilot):
        assert "Back to the lobby (m)" in screen_text(app)
        await settle(pilot)
        await pilot.press("r")
        await until(lambda: hosted.code not in server.tables, seconds=10, pilot=pilot)
        (rematch,) = server.tables.values()  # the finished table left the lobby
        await until(lambda: rematch.table is not None, seconds=10, pilot=pilot)
        assert rematch.seats[0].name == "Sara" and rematch.seats[1].bot_level == "normal"
        await until(lambda: isinstance(app.screen, CratesScreen), seconds=10, pilot=pilot)
        assert remote.table_code == rematch.code


async def test_a_player_dropped_at_the_results_comes_back_to_them_and_the_rematch():
    async with at_the_results() as (server, hosted, remote, app, pilot):
        dropped = hosted.seats[0].peer
        for client in list(server.clients):
            client.writer.transport.abort()  # the network drops as she reads the results
        await until(lambda: hosted.seats[0].peer not in (None, dropped), pilot=pilot)
        assert remote.table_code == hosted.code and remote.latest is not None
        assert remote.latest.over  # back at the finished table, not in the lobby
        await until(lambda: "Rematch (r)" in screen_text(app), pilot=pilot)
        await settle(pilot)
        await pilot.press("r")
        await until(lambda: remote.table_code not in (None, hosted.code), pilot=pilot)
        await until(lambda: isinstance(app.screen, CratesScreen), seconds=10, pilot=pilot)


async def test_join_without_a_table_goes_straight_to_the_only_open_one():
    server, port = await party(tables=1)
    async with sara_at(server) as (_, app, pilot):
        await until(lambda: "Press r when you are ready" in screen_text(app), pilot=pilot)
        assert isinstance(app.screen, ConnectScreen)
        server.add_table("crates", 2)
        other = RemoteClient("127.0.0.1", port, "Tom")
        other_app = TableGamesApp(remote=other)
        async with other_app.run_test(size=(80, 24)) as other_pilot:
            await until(lambda: isinstance(other_app.screen, LobbyScreen), pilot=other_pilot)
        await other.close()


async def test_a_table_opened_in_the_lobby_goes_when_its_players_leave_before_the_deal():
    async with in_the_lobby(0) as (server, _, app, pilot):
        await pilot.press("n", "enter")
        await until(lambda: "or s to start now" in screen_text(app), pilot=pilot)
        assert len(server.tables) == 1
        await pilot.press("q")  # back to the lobby before anyone else came
        await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
        await until(lambda: not server.tables, pilot=pilot)
        await until(lambda: "No tables yet" in screen_text(app), pilot=pilot)


async def test_news_from_the_lobby_leaves_a_dialog_the_player_has_open():
    async with in_the_lobby(1) as (server, remote, app, pilot):
        await pilot.press("n")
        assert isinstance(app.screen, NewTableDialog)
        server.add_table("crates", 2)  # someone else opens a table meanwhile
        await until(lambda: len(remote.lobby) == 2, pilot=pilot)
        await pilot.pause(0.2)
        assert isinstance(app.screen, NewTableDialog)  # still open, still Sara's
        await pilot.press("escape")
        assert "Crates (2)" in screen_text(app)


async def test_a_new_tables_size_is_the_games_usual_one_when_the_last_does_not_fit():
    async with in_the_lobby(0) as (_, _, app, pilot):
        await pilot.press("n")
        form = app.screen.query_one(TableForm)
        await pilot.press("right")  # roach: 4 players fit (2-6), so 4 it stays
        assert (form.table["game"], form.table["players"]) == ("roach", 4)
        await pilot.press("right", "right")  # kraken starts at 5: its usual 7, not 11
        assert (form.table["game"], form.table["players"]) == ("kraken", 7)


async def test_join_into_a_lobby_whose_only_table_is_playing_shows_the_lobby():
    server = Server(ServerConfig(port=0, bot_pace=1.0))
    hosted = server.add_table("crates", 2, fill_with_bots="normal")
    await server.start()
    server.party.tables.start(hosted)  # two bots, already playing: no seat to offer
    async with sara_at(server, size=(100, 30)) as (_, app, pilot):
        await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
        await until(lambda: "playing" in screen_text(app), pilot=pilot)
        assert "Ready" not in screen_text(app)  # no waiting room with an "r Ready" key
        await pilot.press("w")  # it can be watched from here
        await until(lambda: isinstance(app.screen, CratesScreen), seconds=10, pilot=pilot)


async def test_a_party_session_whose_seat_moved_to_another_login_ends_saying_so():
    server = Server(ServerConfig(port=0, bot_pace=0.0))
    port = await server.start()
    login = Login("ana", "SHA256:ana", "ana", "127.0.0.1")
    first = RemoteClient("127.0.0.1", port, "x", ticket=server.party.doors.ticket_for(login))
    app = TableGamesApp(remote=first, lobby=True)
    second = RemoteClient("127.0.0.1", port, "x", ticket=server.party.doors.ticket_for(login))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
            await pilot.press("n", "enter")
            await until(lambda: "or s to start now" in screen_text(app), pilot=pilot)
            await pilot.press("s")
            await until(
                lambda: any(isinstance(s, CratesScreen) for s in app.screen_stack),
                seconds=10,
                pilot=pilot,
            )  # (the deal may open a question of its own over the table)
            first_seat = server.tables[first.table_code].seats[0]
            await second.greet()  # ana logs in again elsewhere: back at her seat there
            await until(lambda: first_seat.peer is not None and first.ended != "", pilot=pilot)
            await until(lambda: not app.is_running, seconds=10, pilot=pilot)
        assert app.farewell.startswith("You came back to your seat from another login")
    finally:
        await first.close()
        await second.close()
        await server.close()


async def test_a_click_on_a_tables_row_highlights_it_for_a_phone_without_arrow_keys():
    async with in_the_lobby(3) as (_server, _, app, pilot):
        await until(lambda: screen_text(app).count("waiting") == 3, pilot=pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.chosen == 0
        rows = screen_text(app).splitlines()
        third = next(y for y, row in enumerate(rows) if lobby.tables[2].code in row)
        column = rows[third].index("waiting")
        await pilot.click(offset=(column, third))
        await settle(pilot)
        assert lobby.chosen == 2
        assert "▶" in screen_text(app).splitlines()[third]
        await pilot.click(offset=(column, 1))  # the title: nothing changes
        await pilot.click(offset=(column, third - 1))  # the row above: the second table
        await settle(pilot)
        assert lobby.chosen == 1


def test_who_sits_says_ready_only_while_the_table_waits():
    def seat(number: int, name: str = "", taken: bool = True, bot: bool = False,
             ready: bool = False) -> SeatNews:  # fmt: skip
        return SeatNews(seat=number, name=name, taken=taken, connected=taken, bot=bot,
                        ready=ready, owner=False)  # fmt: skip

    seats = [seat(0, "Sara", ready=True), seat(1, "Bot 2", bot=True), seat(2, taken=False)]
    assert who_sits(seats) == "Sara, ready; Bot 2 (bot); 1 free"
    assert who_sits(seats, started=True) == "Sara; Bot 2 (bot); 1 free"
