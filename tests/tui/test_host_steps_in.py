"""The host steps in at a party (issue 48, "At the party"): a guest whose seat the host gives to
a bot is in the lobby with a working session, in every game, and told so where it covers
nothing; a seat the host frees comes back to its player at once, the game going on."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen

from tablegames.net.client import RemoteClient
from tablegames.net.console import HostConsole
from tablegames.net.hosting import HostedTable
from tablegames.net.party import Login
from tablegames.net.proofs import ClientKey
from tablegames.net.server import Server, ServerConfig
from tablegames.rules import GAMES
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.connect import ConnectScreen
from tablegames.tui.screens.crates_round import NEXT_ROUND, RoundSummary
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.lobby import LobbyScreen

from .helpers import screen_text, settle
from .served import sara_at
from .slow_network import SlowProxy

ELI = Login("guest-eli", None, "guest-eli@127.0.0.1", "127.0.0.1")


def deal(server: Server, game: str, owner: RemoteClient | None = None) -> HostedTable:
    """A table of `game` at its fewest players, bots in every seat but the one `owner` took."""
    players = GAMES[game].min_players
    hosted = server.add_table(game, players, fill_with_bots="random")
    server.party.tables.start(hosted)
    return hosted


def at_a_table(app: TableGamesApp) -> bool:
    """True while a table screen is up (a question of the game's may be open over it)."""
    return any(isinstance(screen, GameScreen) for screen in app.screen_stack)


@asynccontextmanager
async def eli_back_at_a_table(
    game: str,
) -> AsyncIterator[tuple[Server, HostedTable, TableGamesApp, Pilot[None]]]:
    """A guest, eli, opened a `game` table in the lobby and dealt it; his line dropped and his
    new session went straight back to his seat (as `ssh` again does). Another table plays, a
    third waits for players. Pop-ups are drawn, as a terminal shows them."""
    server = Server(ServerConfig(port=0, bot_pace=10_000.0))
    port = await server.start()
    deal(server, "crates")  # another table, playing
    server.add_table("roach", 3)  # and one waiting
    first = RemoteClient("127.0.0.1", port, "x", ticket=server.party.doors.ticket_for(ELI))
    await first.greet()
    first.ask.new_table(game, GAMES[game].min_players, bots="random")
    await until(lambda: first.table_code is not None, what="eli's table")
    assert first.table_code is not None
    hosted = server.tables[first.table_code]
    first.ask.start_now()
    await until(lambda: hosted.table is not None, what="the deal")
    await first.close()  # his line drops
    await until(lambda: hosted.seats[0].peer is None, what="the drop")
    again = RemoteClient("127.0.0.1", port, "x", ticket=server.party.doors.ticket_for(ELI))
    app = TableGamesApp(remote=again, lobby=True)
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await until(lambda: at_a_table(app), seconds=10, pilot=pilot)
            yield server, hosted, app, pilot
    finally:
        await again.close()
        await server.close()


def lobby_line(app: TableGamesApp, words: str) -> bool:
    """True if `words` show on the lobby's own line, under its tables and chat (not in a
    pop-up over the tables)."""
    rows = screen_text(app).splitlines()
    chat = next((n for n, row in enumerate(rows) if "Lobby chat" in row), None)
    if chat is None:
        return False  # (not the lobby)
    return any(words in row for row in rows[chat:]) and not any(words in row for row in rows[:chat])


async def sit_at(app: TableGamesApp, pilot: Pilot[None], code: str) -> None:
    """Highlight table `code` in the lobby and press Enter."""
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    for _ in range(len(lobby.tables)):  # (bounded: a table that left the list is not waited on)
        if lobby.tables[lobby.chosen].code == code:
            break
        await pilot.press("down")
    assert lobby.tables[lobby.chosen].code == code, f"table {code} is not in the lobby's list"
    await pilot.press("enter")
    await until(lambda: "Joining" not in screen_text(app), seconds=10, pilot=pilot)
    await settle(pilot)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_guest_whose_seat_went_to_a_bot_sits_down_again_in_the_lobby_without_a_crash(
    game: str,
):
    async with eli_back_at_a_table(game) as (server, hosted, app, pilot):
        console = HostConsole(server.party, say=lambda text: None)
        assert console.run(f"bot {hosted.code} 1") == f"Table {hosted.code}: done."
        await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
        assert not at_a_table(app)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(lambda: len(lobby.tables) == 3, pilot=pilot)
        removed = "The host gave your seat to a bot. You are in the lobby."
        await until(lambda: lobby_line(app, removed), pilot=pilot)
        playing = [table.code for table in lobby.tables if table.started]
        for code in playing:  # Enter at each playing table: his own, and the other
            await sit_at(app, pilot, code)
            assert app.is_running and not app.problems, app.problems
            assert isinstance(app.screen, LobbyScreen)
            if code == hosted.code:  # (not "someone called guest-eli is already at this table")
                said = "The host gave your seat at this table to a bot: you may watch the game"
            else:
                said = "The game has begun: you may watch it"
            await until(lambda s=said: lobby_line(app, s), pilot=pilot)
        (waiting,) = [table.code for table in lobby.tables if not table.started]
        await sit_at(app, pilot, waiting)
        await until(lambda: "Press r when you are ready" in screen_text(app), pilot=pilot)
        assert "gave your seat" not in screen_text(app)  # the lobby's news stayed there


async def test_a_seat_the_host_frees_comes_back_to_its_player_at_once_the_game_going_on(
    monkeypatch: pytest.MonkeyPatch,
):
    said: list[str] = []
    say = ConnectScreen.say
    monkeypatch.setattr(
        ConnectScreen, "say", lambda self, text: (said.append(text), say(self, text))
    )
    async with eli_back_at_a_table("crates") as (server, hosted, app, pilot):
        console = HostConsole(server.party, say=lambda text: None)
        assert console.run(f"free {hosted.code} 1") == f"Table {hosted.code}: done."
        await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
        await until(lambda: lobby_line(app, "until you come back to it"), pilot=pilot)
        assert hosted.table is not None and 0 in hosted.table.bots
        said.clear()
        await sit_at(app, pilot, hosted.code)  # his own seat, by his login
        await until(lambda: at_a_table(app), seconds=10, pilot=pilot)
        assert not any("when you are ready" in line for line in said), said
        assert 0 not in hosted.table.bots and hosted.seats[0].peer is not None


async def test_a_guest_not_ready_at_the_hosts_start_is_told_a_bot_plays_until_they_press_r():
    server = Server(ServerConfig(port=0, bot_pace=10_000.0))
    port = await server.start()
    hosted = server.add_table("crates", 3, {"short": True}, fill_with_bots="normal")
    ann = RemoteClient("127.0.0.1", port, "ann", table=hosted.code)
    await ann.connect()
    ann.ask.ready(True)
    fay = RemoteClient("127.0.0.1", port, "fay", ticket=server.party.doors.ticket_for(ELI))
    app = TableGamesApp(remote=fay, lobby=True)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
            await pilot.press("enter")
            await until(lambda: "Press r when you are ready" in screen_text(app), pilot=pilot)
            said = HostConsole(server.party, say=lambda text: None).run(f"start {hosted.code}")
            assert "a bot plays for guest-eli until they say they are ready" in said, said
            await until(lambda: "a bot plays your seat until you press r" in (
                screen_text(app)), pilot=pilot)  # fmt: skip
            assert hosted.table is not None and 1 in hosted.table.bots
            assert not at_a_table(app)  # the waiting room: nothing moves behind her back
            await pilot.press("r")
            await until(lambda: at_a_table(app), seconds=10, pilot=pilot)
            assert 1 not in hosted.table.bots and not hosted.seats[1].standin
    finally:
        await ann.close()
        await fay.close()
        await server.close()


async def test_back_at_the_table_the_chat_shows_the_tables_lines_not_the_lobbys():
    server = Server(ServerConfig(port=0, bot_pace=10_000.0))
    port = await server.start()
    sara_login = Login("sara", "SHA256:sara", "sara", "127.0.0.1")
    sara = RemoteClient("127.0.0.1", port, "x", ticket=server.party.doors.ticket_for(sara_login))
    tom = RemoteClient("127.0.0.1", port, "tom")
    ann = RemoteClient("127.0.0.1", port, "ann")
    back = RemoteClient("127.0.0.1", port, "x", ticket=server.party.doors.ticket_for(sara_login))
    app = TableGamesApp(remote=back, lobby=True)
    try:
        await sara.greet()
        sara.ask.new_table("crates", 3, bots="normal", options={"short": True})
        await until(lambda: sara.table_code is not None, what="sara's table")
        assert sara.table_code is not None
        hosted = server.tables[sara.table_code]
        await tom.greet()
        tom.ask.join(hosted.code)
        await until(lambda: hosted.seats[1].peer is not None, what="tom seated")
        tom.ask.ready(True)
        sara.ask.start_now()
        await until(lambda: hosted.table is not None, what="the deal")
        tom.ask.chat("good luck, sara")
        await until(lambda: ("tom", "good luck, sara") in sara.chat_lines, what="the line")
        await ann.greet()
        ann.ask.chat("anyone for roach?")  # in the lobby
        await until(lambda: ("ann", "anyone for roach?") in ann.chat_lines, what="ann's line")
        await sara.close()  # her line drops; she logs in again: straight back to her seat
        await until(lambda: hosted.seats[0].peer is None, what="the drop")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: at_a_table(app), seconds=10, pilot=pilot)
            await settle(pilot)
            assert ("tom", "good luck, sara") in back.chat_lines, list(back.chat_lines)
            assert ("ann", "anyone for roach?") not in back.chat_lines
            if isinstance(app.screen, ModalScreen):  # (a turned-up 8 asks her for a suit)
                await pilot.press("escape")  # put aside, as its Back (Esc) says
            await pilot.press("slash")
            await until(lambda: "good luck, sara" in screen_text(app), pilot=pilot)
            assert "anyone for roach?" not in screen_text(app)
    finally:
        for client in (sara, tom, ann, back):
            await client.close()
        await server.close()


async def test_the_suit_question_of_a_new_round_waits_until_the_rounds_scores_are_closed():
    server = Server(ServerConfig(port=0, bot_pace=10_000.0))
    # Seed 17: the first legal move each turn ends round 1 after 16 moves, and round 2 turns
    # up a card that Sara (seat 0) names the suit of.
    hosted = server.add_table("crates", 2, seed=17, fill_with_bots="normal", min_humans=1)
    await server.start()
    async with sara_at(server) as (_, app, pilot):
        await until(lambda: "Press r when you are ready" in screen_text(app), pilot=pilot)
        await pilot.press("r")
        await until(lambda: at_a_table(app), seconds=10, pilot=pilot)
        table = hosted.table
        assert table is not None
        table.bots.clear()  # every move here is the test's
        while table.state.view(0)["last_round"] is None:
            seat = min(table.state.waiting_for())
            table.submit(seat, table.legal(seat)[0])
        assert table.state.view(0)["phase"] == "suit" and table.state.view(0)["turn"] == 0
        await until(lambda: isinstance(app.screen, RoundSummary), seconds=10, pilot=pilot)
        await settle(pilot)
        assert isinstance(app.screen, RoundSummary), app.screen  # nothing opened over it
        assert "pick a suit" not in screen_text(app)
        await pilot.press(NEXT_ROUND)
        await until(lambda: "pick a suit" in screen_text(app), pilot=pilot)


async def test_a_player_who_joined_the_hosts_table_sits_back_down_after_the_host_frees_the_seat():
    """`tablegames join` has no lobby to go to: the player is asked, over the table, whether to
    sit back down (their token proves the seat theirs) or leave; never left at a table that
    says it waits for them while a bot plays."""
    server = Server(ServerConfig(port=0, bot_pace=10_000.0))
    hosted = server.add_table("crates", 2)
    await server.start()
    async with sara_at(server) as (_, app, pilot):
        await until(lambda: "Press r when you are ready" in screen_text(app), pilot=pilot)
        await pilot.press("r")
        await until(lambda: hosted.seats[0].ready, pilot=pilot)
        server.party.tables.start(hosted)  # (the host's `start`: a bot in the other seat)
        await until(lambda: at_a_table(app), seconds=10, pilot=pilot)
        console = HostConsole(server.party, say=lambda text: None)
        assert console.run(f"free {hosted.code} 1") == f"Table {hosted.code}: done."
        await until(lambda: "[s] Sit back down" in screen_text(app), pilot=pilot)
        assert hosted.table is not None and 0 in hosted.table.bots
        assert "The host let a bot play your seat" in screen_text(app)
        await pilot.press("s")
        await until(lambda: hosted.seats[0].peer is not None, seconds=10, pilot=pilot)
        assert 0 not in hosted.table.bots
        await until(lambda: "Sit back down" not in screen_text(app), pilot=pilot)
        assert at_a_table(app) and app.return_code is None and not app.problems


async def test_a_hurried_player_over_a_slow_network_sits_back_down_once():
    """The same over a slow network (a forward the host names, holding bytes 50–300 ms each
    way, with jitter), in a hurry: s twice and Enter right after. The seat comes back to its
    player once, the game asks nothing the player did not see (the second s is not a suit
    named, the Enter no card played), nothing breaks."""
    server = Server(ServerConfig(port=0, bot_pace=10_000.0))
    hosted = server.add_table("crates", 2, seed=4)
    proxy = SlowProxy(await server.start(), seed=4)
    server.config.forwarded_at = (f"127.0.0.1:{await proxy.start()}",)  # (the host names it)
    key = ClientKey(secrets.token_bytes(32))
    remote = RemoteClient("127.0.0.1", proxy.port, "Sara", key=key)
    app = TableGamesApp(remote=remote)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: "Press r when you are ready" in screen_text(app), pilot=pilot)
            await pilot.press("r")
            await until(lambda: hosted.seats[0].ready, pilot=pilot)
            server.party.tables.start(hosted)
            await until(lambda: at_a_table(app), seconds=10, pilot=pilot)
            table = hosted.table
            assert table is not None
            console = HostConsole(server.party, say=lambda text: None)
            assert console.run(f"free {hosted.code} 1") == f"Table {hosted.code}: done."
            await until(lambda: "[s] Sit back down" in screen_text(app), pilot=pilot)
            moves = table.version
            await pilot.press("s", "s", "enter")
            await until(lambda: hosted.seats[0].peer is not None, seconds=10, pilot=pilot)
            await until(lambda: "Sit back down" not in screen_text(app), pilot=pilot)
            assert 0 not in table.bots and table.version == moves  # (the bot made no move)
            assert [seat for seat in hosted.seats if seat.peer is not None] == [hosted.seats[0]]
            await until(lambda: remote.latest is not None and
                        remote.latest.version == table.version, pilot=pilot, held=1)  # fmt: skip
            assert at_a_table(app) and app.return_code is None and not app.problems
    finally:
        await remote.close()
        await proxy.close()
        await server.close()
