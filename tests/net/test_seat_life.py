"""A whole party night holds (issue 38): the life of a seat across tables, doors and drops.

In-process: a party server on a free loopback port and party logins (`RemoteClient`s with the
tickets an SSH or browser session would have). Every wait is a bounded loop on a condition.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tablegames.net.client import RemoteClient
from tablegames.net.console import HostConsole
from tablegames.net.hosting import HostedTable
from tablegames.net.messages import Error, Lobby, Seated
from tablegames.net.party import Login
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.table import VirtualClock
from tablegames.testing.harness import until

LOOPBACK = "127.0.0.1"


@contextlib.asynccontextmanager
async def party(
    clock: VirtualClock | None = None, store: Store | None = None, **config: Any
) -> AsyncIterator[tuple[Server, int]]:
    """A party server on a free loopback port, keeping its tables in `store`; with `clock`, its
    clock is that one (the party ticks by itself too, but the test moves the clock on and
    ticks it when it wants)."""
    server = Server(
        ServerConfig(host=LOOPBACK, port=0, bot_pace=0.0, **config),
        store=store,
        clock=clock or time.monotonic,
    )
    port = await server.start()
    try:
        yield server, port
    finally:
        await server.close()


def ticket(server: Server, name: str, key: str | None = None) -> str:
    """The ticket a session of `name` would start with (a key's login; without `key`, a guest
    known by name and address)."""
    holder = name if key else f"{name}@{LOOPBACK}"
    return server.party.doors.ticket_for(Login(name, key, holder, LOOPBACK))


async def log_in(server: Server, port: int, name: str, key: str | None = None) -> RemoteClient:
    """`name` logs into the party (as an SSH session or a browser tab does)."""
    client = RemoteClient(LOOPBACK, port, name, ticket=ticket(server, name, key))
    await client.greet()
    return client


async def open_and_start(client: RemoteClient, server: Server, game: str = "crates") -> HostedTable:
    """`client` opens a table for two (a normal bot in the other seat) and deals at once."""
    options = {"short": True} if game == "crates" else {}
    client.ask.new_table(game, 2, bots="normal", options=options)
    await client._expect(Seated)
    assert client.table_code is not None
    hosted = server.tables[client.table_code]
    client.ask.start_now()
    await until(lambda: hosted.table is not None, what="the deal")
    return hosted


async def when_waiting_for(hosted: HostedTable, seat: int) -> None:
    """Until the game waits for `seat` (the bot plays its turns meanwhile)."""
    assert hosted.table is not None
    table = hosted.table
    await until(lambda: seat in table.state.waiting_for(), what=f"seat {seat}'s turn")


# -- away and taken over ------------------------------------------------------------------------
async def away_for(
    server: Server, clock: VirtualClock, hosted: HostedTable, seat: int, seconds: float
) -> None:
    """Once the party knows the person at `seat` has left, `seconds` pass and the party's
    clock ticks."""
    await until(
        lambda: hosted.seats[seat].away_since is not None, what="the party hearing the seat is away"
    )
    server.party.timekeeper.tick()
    assert not hosted.seats[seat].standin, "a bot stood in before the takeover time"
    clock.advance(seconds)
    server.party.timekeeper.tick()


async def test_a_player_gone_back_to_the_lobby_is_away_and_a_bot_takes_over_after_the_takeover():
    clock = VirtualClock(1000.0)
    async with party(clock, takeover_after=60.0) as (server, port):
        ana = await log_in(server, port, "ana")
        hosted = await open_and_start(ana, server)
        await when_waiting_for(hosted, 0)
        ana.ask.leave()  # `q`, `m`: back to the lobby in the middle of the game
        assert hosted.table is not None
        table, moved = hosted.table, hosted.table.version
        await away_for(server, clock, hosted, 0, 59.0)
        assert table.version == moved and 0 not in table.bots  # not yet: a minute is a minute
        clock.advance(1.0)
        server.party.timekeeper.tick()
        await until(lambda: table.version > moved, what="the table moving on without ana")
        assert 0 in table.bots and hosted.seats[0].human  # a stand-in: the seat is still hers
        await ana.close()


async def test_a_seat_the_host_gives_to_a_bot_moves_the_table_on_within_a_second():
    async with party() as (server, port):  # no takeover: only the host moves this table
        console = HostConsole(server.party)
        for command in ("bot", "free"):
            ana = await log_in(server, port, f"ana{command}")
            hosted = await open_and_start(ana, server)
            await when_waiting_for(hosted, 0)
            ana.ask.leave()
            assert hosted.table is not None
            table, moved = hosted.table, hosted.table.version
            said = console.run(f"{command} {hosted.code} 1")
            assert "done" in said, said
            await until(
                lambda t=table, v=moved: t.version > v, seconds=1.0, what=f"`{command}` moving on"
            )
            await ana.close()


# -- coming back --------------------------------------------------------------------------------
async def test_a_login_that_drops_comes_back_to_the_last_table_it_was_at():
    async with party() as (server, port):
        ana = await log_in(server, port, "ana", key="SHA256:ana")
        crates = await open_and_start(ana, server)
        ana.ask.leave()  # crates -> the lobby -> a new roach table
        await ana._expect(Lobby)
        roach = await open_and_start(ana, server, "roach")
        await ana.close()  # the ssh drops in the middle of the roach game
        await until(lambda: roach.seats[0].peer is None, what="the drop")
        again = RemoteClient(LOOPBACK, port, "ana", ticket=ticket(server, "ana", "SHA256:ana"))
        first = await again.greet()
        assert isinstance(first, Seated) and first.table == roach.code
        assert crates.seats[0].peer is None and crates.seats[0].human  # still hers, still away
        await again.close()


async def test_a_login_that_drops_in_the_lobby_comes_back_to_the_lobby_and_may_sit_back_down():
    async with party() as (server, port):
        ana = await log_in(server, port, "ana", key="SHA256:ana")
        crates = await open_and_start(ana, server)
        ana.ask.leave()
        await ana._expect(Lobby)
        await ana.close()
        again = RemoteClient(LOOPBACK, port, "ana", ticket=ticket(server, "ana", "SHA256:ana"))
        assert isinstance(await again.greet(), Lobby)
        again.ask.join(crates.code)  # Enter on her table in the lobby: her seat, not a new one
        seated = await again._expect(Seated)
        assert seated.seat == 0 and crates.seats[0].peer is not None
        await again.close()


async def test_a_plain_join_back_in_the_lobby_takes_its_held_seat_back_by_its_token():
    async with party() as (server, port):
        sara = RemoteClient(LOOPBACK, port, "sara")
        await sara.greet()
        hosted = await open_and_start(sara, server)
        sara.ask.leave()
        await sara._expect(Lobby)
        sara.ask.join(hosted.code)
        seated = await sara._expect(Seated)
        assert seated.seat == 0 and hosted.seats[0].peer is not None
        await sara.close()


def play_out(hosted: HostedTable) -> None:
    """Play `hosted`'s game to its end at once (every seat's first legal move)."""
    table = hosted.table
    assert table is not None
    table.bots.clear()
    while not table.over:
        seat = min(table.state.waiting_for())
        table.submit(seat, table.legal(seat)[0])


async def test_a_player_who_drops_out_at_the_results_comes_back_to_them_and_the_rematch():
    clock = VirtualClock(1000.0)
    async with party(clock) as (server, port):
        sara = RemoteClient(LOOPBACK, port, "sara")
        await sara.greet()
        hosted = await open_and_start(sara, server)
        play_out(hosted)
        await until(lambda: sara.latest is not None and sara.latest.over, what="the results")
        assert sara._writer is not None
        sara._writer.transport.abort()  # the network drops as she reads them
        await until(lambda: not hosted.peers(), what="the drop")
        clock.advance(server.party.config.finished_grace - 1)
        server.party.timekeeper.tick()
        assert hosted.code in server.tables  # waited for her...
        assert await sara.reconnect()
        assert sara.table_code == hosted.code and sara.latest is not None and sara.latest.over
        sara.ask.rematch()  # ...so the rematch is still hers to ask for
        await until(lambda: sara.table_code not in (None, hosted.code), what="the rematch")
        rematch = server.tables[sara.table_code]
        play_out(rematch)
        await until(lambda: sara.latest is not None and sara.latest.over, what="the results")
        sara._writer.transport.abort()  # and if she never comes back, the table goes
        await until(lambda: not rematch.peers(), what="the drop")
        clock.advance(server.party.config.finished_grace)
        server.party.timekeeper.tick()
        assert rematch.code not in server.tables
        await sara.close()


async def test_a_join_to_a_table_whose_game_has_ended_hears_how_it_ended(tmp_path: Path):
    async with party(store=Store(tmp_path / "party.db")) as (server, port):
        sara = RemoteClient(LOOPBACK, port, "sara")
        await sara.greet()
        hosted = await open_and_start(sara, server)
        play_out(hosted)
        assert hosted.table is not None
        names = [hosted.seats[w].name for w in hosted.table.state.result()["winners"]]
        await until(lambda: sara.latest is not None and sara.latest.over, what="the results")
        sara.ask.leave()  # (the table goes with her: nobody is at it)
        await sara._expect(Lobby)
        assert hosted.code not in server.tables
        sara.ask.join(hosted.code.lower())
        refusal = await sara._expect(Error)
        assert refusal.text == f"the game at table {hosted.code} is over: {' and '.join(names)} won"
        sara.ask.join("ZZZZ")
        assert (await sara._expect(Error)).text == "there is no table ZZZZ"
        await sara.close()


# -- closing tables -----------------------------------------------------------------------------
def codes(client: RemoteClient) -> list[str]:
    """The tables `client`'s lobby lists."""
    return [table.code for table in client.lobby]


async def told_closed(client: RemoteClient) -> str:
    """The sentence `client` was told when its table closed (then it is in the lobby)."""
    async with asyncio.timeout(5):
        while True:
            event = await client.next_event()
            if isinstance(event, Error) and event.code == "table-closed":
                return event.text


async def test_the_owner_closes_a_table_from_the_lobby_and_whoever_watches_is_told():
    async with party() as (server, port):
        ana = await log_in(server, port, "ana")
        bob = await log_in(server, port, "bob")
        hosted = await open_and_start(ana, server)
        ana.ask.leave()
        await ana._expect(Lobby)
        bob.ask.join(hosted.code, spectate=True)
        await bob._expect(Seated)
        bob.ask.close_table(hosted.code)  # not his table
        refusal = await bob._expect(Error)
        assert "only the table's creator" in refusal.text
        ana.ask.close_table(hosted.code)
        assert "ana closed table" in await told_closed(bob)
        await until(lambda: hosted.code not in server.tables, what="the table gone")
        await until(lambda: bob.table_code is None and hosted.code not in codes(bob))
        await ana.close()
        await bob.close()


async def test_the_owner_closes_a_table_from_its_waiting_room():
    async with party() as (server, port):
        ana = await log_in(server, port, "ana")
        bob = await log_in(server, port, "bob")
        ana.ask.new_table("crates", 3, bots="normal")
        await ana._expect(Seated)
        code = ana.table_code
        assert code is not None
        bob.ask.join(code)
        await bob._expect(Seated)
        ana.ask.close_table(code)
        assert "ana closed table" in await told_closed(bob)
        assert "ana closed table" in await told_closed(ana)
        assert code not in server.tables
        await ana.close()
        await bob.close()


async def test_the_host_closes_a_table_with_a_console_command():
    async with party() as (server, port):
        ana = await log_in(server, port, "ana")
        hosted = await open_and_start(ana, server)
        console = HostConsole(server.party)
        assert "close TABLE" in console.run("help")
        said = console.run(f"close {hosted.code}")
        assert "closed" in said, said
        assert "The host closed table" in await told_closed(ana)
        assert hosted.code not in server.tables
        assert "Cannot" in console.run("close NOPE")
        await ana.close()


async def test_a_table_nobody_human_is_at_ends_by_itself_and_leaves_the_lobby():
    clock = VirtualClock(1000.0)
    async with party(clock, takeover_after=60.0, table_idle_limit=600.0) as (server, port):
        ana = await log_in(server, port, "ana")
        bob = await log_in(server, port, "bob")
        left = await open_and_start(ana, server, "roach")
        kept = await open_and_start(bob, server, "roach")  # bob stays at his
        ana.ask.leave()
        await away_for(server, clock, left, 0, 60.0)  # a bot stands in for her
        clock.advance(599.0)
        server.party.timekeeper.tick()
        assert left.code in server.tables  # nobody there for 10 minutes less a second
        clock.advance(1.0)
        server.party.timekeeper.tick()
        assert left.code not in server.tables  # the abandoned table ended
        await until(lambda: left.code not in codes(ana))
        assert kept.code in server.tables
        await ana.close()
        await bob.close()


async def test_a_finished_table_nobody_is_at_leaves_the_lobby():
    clock = VirtualClock(1000.0)
    async with party(clock, takeover_after=60.0) as (server, port):
        ana = await log_in(server, port, "ana")
        hosted = await open_and_start(ana, server)
        ana.ask.leave()  # bots play it out
        await away_for(server, clock, hosted, 0, 60.0)
        assert hosted.table is not None
        table = hosted.table
        await until(lambda: table.over, seconds=60, what="the bots finishing the game")
        clock.advance(server.party.config.finished_grace)  # (nobody came back for the results)
        server.party.timekeeper.tick()
        assert hosted.code not in server.tables
        await until(lambda: hosted.code not in codes(ana), what="the lobby told")
        await ana.close()


# -- words --------------------------------------------------------------------------------------
async def test_a_late_arrival_sees_the_last_lines_of_the_lobby_chat():
    async with party(chat_per_second=100.0, chat_burst=100) as (server, port):
        ana = await log_in(server, port, "ana")
        for n in range(25):
            ana.ask.chat(f"line {n}")
        await until(lambda: len(ana.chat_lines) == 25, what="ana's own lines back")
        bob = await log_in(server, port, "bob")
        await until(lambda: len(bob.chat_lines) == 20, what="the last 20 lines")
        lines = list(bob.chat_lines)
        assert lines[0] == ("ana", "line 5") and lines[-1] == ("ana", "line 24")
        await ana.close()
        await bob.close()


async def test_the_hosts_names_says_here_now_for_someone_connected(tmp_path: Path):
    async with party(store=Store(tmp_path / "names.db")) as (server, port):
        ana = await log_in(server, port, "ana", key="SHA256:ana")
        ana.ask.new_table("crates", 2, bots="normal")
        await ana._expect(Seated)  # sitting down makes the name hers
        console = HostConsole(server.party)
        await until(lambda: "ana" in console.names())
        assert "here now" in console.names(), console.names()
        await ana.close()
        await until(lambda: not server.party.members)
        assert "here now" not in console.names()


async def test_a_restored_games_players_are_away_until_back_and_bots_stand_in_meanwhile(
    tmp_path: Path,
):
    store = Store(tmp_path / "party.db")
    first = Server(ServerConfig(host=LOOPBACK, port=0, bot_pace=0.0), store=store)
    port = await first.start()
    ana = await log_in(first, port, "ana")
    hosted = await open_and_start(ana, first)
    await when_waiting_for(hosted, 0)
    await ana.close()
    await first.close()  # the host stops with ana's turn to come
    clock = VirtualClock(5.0)  # (another process's clock: it starts where it will)
    config = ServerConfig(host=LOOPBACK, port=0, bot_pace=0.0, takeover_after=60.0)
    again = Server(config, store=store, clock=clock)
    (restored,) = again.restore_tables()
    await again.start()
    try:
        assert restored.table is not None
        table, moved = restored.table, restored.table.version
        await away_for(again, clock, restored, 0, 60.0)  # away since the restart
        await until(lambda: table.version > moved, what="the restored table moving on")
        assert restored.seats[0].human and 0 in table.bots  # her seat, a bot meanwhile
    finally:
        await again.close()
