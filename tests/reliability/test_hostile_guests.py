"""A hostile guest on the join port cannot take the party down or lock friends out (issue 28):
tables per person, tables that wait for ever, names that are not theirs, a code pass that an
address held back still honours; and what a group hits on an ordinary night (rematches with
spectators, a finished table's away list, a server gone silent).

Everything talks to loopback only; counts go to `bench/reliability.py`'s scoreboard.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from tablegames.names import name_key
from tablegames.net.client import RemoteClient
from tablegames.net.client_protocol import ConnectionLost
from tablegames.net.guard import AttemptLimiter
from tablegames.net.messages import Error, Lobby, Seated, Welcome
from tablegames.net.party import Login
from tablegames.net.protocol import PROTOCOL_VERSION, server_side
from tablegames.store import Store
from tablegames.table import VirtualClock
from tablegames.testing.harness import LOOPBACK, RawPeer, read_until_closed, running_server
from tablegames.testing.metrics import record
from tablegames.testing.scanner import split_frames

from .servers import server_with

CODE = "7KQM-XH4P-2R"


async def hello(port: int, name: str, **fields: object) -> tuple[RawPeer, list[dict]]:
    peer = await RawPeer.open(port)
    peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name, **fields})
    return peer, await peer.until_pong()


async def refused_hello(port: int, name: str, **fields: object) -> dict:
    """The refusal a hello gets (the server hangs up after it)."""
    peer = await RawPeer.open(port)
    peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name, **fields})
    frames = [frame for _, frame in split_frames(await read_until_closed(peer.reader))]
    await peer.close()
    assert frames[0]["t"] == "error", frames
    return frames[0]


# -- the join port: tables ----------------------------------------------------------------------
async def test_a_crowd_of_connections_from_one_address_opens_only_a_few_tables():
    async with running_server(max_tables=50) as (server, port):
        peers, refusals = [], []
        for n in range(49):  # the attack of the issue: 49 connections, each `create`
            peer, _ = await hello(port, f"p{n}")
            peer.send({"t": "create", "game": "crates", "players": 2, "bots": "normal"})
            refusals += [f["text"] for f in await peer.until_pong() if f["t"] == "error"]
            peers.append(peer)
        waiting = [t for t in server.tables.values() if t.table is None]
        assert len(waiting) == server.config.max_tables_per_person == 3
        assert len(refusals) == 46
        assert "as many as one person may: finish or close one first" in refusals[0]
        # A friend who logs in over SSH (a key: a person of their own) still opens one.
        ticket = server.party.doors.ticket_for(Login("ana", "SHA256:ana", "ana", "127.0.0.1"))
        ana = RemoteClient(LOOPBACK, port, "ana", ticket=ticket)
        await ana.greet()
        ana.ask.new_table("crates", 2, bots="normal")
        await ana._expect(Seated)
        assert len([t for t in server.tables.values() if t.table is None]) == 4
        record("hostile", table_flood_connections=49, max_tables_opened=len(waiting))
        await ana.close()
        for peer in peers:
            await peer.close()


async def test_a_table_that_waits_too_long_closes_and_its_players_go_back_to_the_lobby():
    clock = VirtualClock(100.0)
    async with running_server(table_wait_limit=600.0) as (server, port):
        sara = RemoteClient(LOOPBACK, port, "sara")
        await sara.greet()
        sara.ask.new_table("crates", 3, bots="normal")
        await sara._expect(Seated)
        (hosted,) = server.tables.values()
        hosted.clock = clock
        hosted.changed_at = clock()
        assert server.party.timekeeper.expire_tables(clock() + 599) == []  # not yet
        assert server.party.timekeeper.expire_tables(clock() + 601) == [hosted.code]
        told = await sara._expect(Error)
        assert told.code == "table-closed"
        assert "waited 10 minutes without starting" in told.text
        assert isinstance(await sara.next_event(), Lobby)
        assert sara.table_code is None and not server.tables
        await sara.close()


# -- the join port: names -----------------------------------------------------------------------
async def test_a_plain_join_cannot_take_a_guests_a_bots_or_a_present_keys_name(tmp_path: Path):
    async with server_with(Store(tmp_path / "names.db")) as (server, port):
        ticket = server.party.doors.ticket_for(Login("gus", "SHA256:gus", "gus", "10.0.0.5"))
        gus = RemoteClient(LOOPBACK, port, "gus", ticket=ticket)
        await gus.greet()  # in the lobby over SSH: the name is his while he is here
        for name, why in (
            ("guest-gus", "names starting guest- are for SSH guests"),
            ("Bot 2", "is a bot's name at the tables"),
            ("GUS", "belongs to a player who logs in with a key"),
        ):
            refusal = await refused_hello(port, name)
            assert refusal["code"] == "name-taken" and why in refusal["text"], refusal
        assert server.party.store.name_owner("gus") is None  # not owned: he sat nowhere yet
        gus.ask.new_table("crates", 2, bots="normal")
        await gus._expect(Seated)
        assert server.party.store.name_owner("gus") == "SHA256:gus"  # sat down: his now
        await gus.close()


async def test_nobody_sits_down_under_a_bots_name():
    async with running_server() as (server, port):
        hosted = server.add_table("crates", 3, fill_with_bots="normal")
        ticket = server.party.doors.ticket_for(Login("Bot 3", "SHA256:b3", "bot 3", "127.0.0.1"))
        fake = RemoteClient(LOOPBACK, port, "x", ticket=ticket)
        await fake.greet()
        fake.ask.join(hosted.code)
        refusal = await fake._expect(Error)
        assert "Bot 3 is what the bots are called" in refusal.text
        await fake.close()


# -- the join code -----------------------------------------------------------------------------
async def test_a_friend_with_a_pass_is_let_in_while_their_address_is_held_back(caplog):
    caplog.set_level(logging.INFO, "tablegames")
    guard = AttemptLimiter(free=1, lock_after=3, lock_for=900, clock=VirtualClock())
    async with running_server(code=CODE) as (server, port):
        server.party.guard = guard
        server.add_table("crates", 3)
        friend = RemoteClient(LOOPBACK, port, "ada", code=CODE)
        await friend.greet()
        assert friend.code_pass  # given for the right code
        await friend.close()
        for n in range(3):  # someone behind the same address guesses
            await refused_hello(port, "mallory", code=f"WRONG{n}")
        refusal = await refused_hello(port, "bea", code=CODE)  # a newcomer must wait...
        assert refusal["code"] == "held-back"
        friend.code = "not asked again"  # ...a friend's reconnect shows the pass instead
        await friend.greet()
        assert friend.name == "ada"
        record("hostile", friends_held_back=0)
        await friend.close()


# -- the night --------------------------------------------------------------------------------
async def test_spectators_follow_a_rematch_and_the_old_table_is_gone():
    async with running_server(bot_pace=0.0) as (server, port):
        hosted = server.add_table("crates", 2, {"short": True}, fill_with_bots="normal")
        ada = RemoteClient(LOOPBACK, port, "ada", table=hosted.code, seat=0)
        await ada.connect()
        cat = RemoteClient(LOOPBACK, port, "cat", table=hosted.code, spectate=True)
        await cat.connect()
        ada.ask.ready(True)
        server.party.tables.start_by_hand(
            hosted.code
        )  # the host deals (once ada is ready): a bot too
        acted_on = -1
        async with asyncio.timeout(120):
            while hosted.table is None or not hosted.table.over:
                update = ada.latest
                if update is not None and 0 in update.waiting and update.version != acted_on:
                    acted_on = update.version
                    ada.submit(0, update.legal[0])
                await asyncio.sleep(0.01)
        assert all(seat.away is None for seat in hosted.presence(None).seats)
        ada.ask.rematch()
        async with asyncio.timeout(20):
            while cat.table_code in (hosted.code, None):
                await asyncio.sleep(0.02)
        assert cat.table_code == ada.table_code and cat.seat is None  # watching the new game
        assert hosted.code not in server.tables
        await ada.close()
        await cat.close()


async def test_a_client_notices_a_server_gone_silent():
    async def silent_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = server_side()
        await reader.read(65536)  # the hello
        conn.send(Welcome(version=PROTOCOL_VERSION, server="tablegames", heartbeat=0.1,
                          server_id="x", name="ada", nonce="n"))  # fmt: skip
        conn.send(Lobby(tables=[]))
        writer.write(conn.data_to_send())
        await asyncio.sleep(30)  # then nothing, as a frozen server

    listening = await asyncio.start_server(silent_server, LOOPBACK, 0)
    port = listening.sockets[0].getsockname()[1]
    ada = RemoteClient(LOOPBACK, port, "ada")
    await ada.greet()
    assert ada.heartbeat == 0.1
    async with asyncio.timeout(10):
        while await ada.next_event() != ConnectionLost(silent=True):
            pass
    assert ada.silent and not ada.connected
    await ada.close()
    listening.close()


def test_a_guests_seats_are_held_under_their_name_and_address():
    from tablegames.net.ssh_types import Identity

    assert Identity("guest-fay", None, True, "10.0.0.3").holder == "guest-fay@10.0.0.3"
    assert Identity("Ana", "SHA256:k", False, "10.0.0.3").holder == name_key("Ana") == "ana"


def test_the_host_lists_the_names_keys_own_and_frees_a_squatted_one(tmp_path: Path):
    from tablegames.net.console import HostConsole
    from tablegames.net.party import Party, PartyConfig

    store = Store(tmp_path / "names.db")
    party = Party(PartyConfig(), store, started=lambda hosted: None)
    console = HostConsole(party, say=lambda text: None)
    assert console.run("names") == "No name is owned by a key yet."
    store.claim_name("ana", "Ana", "SHA256:abcdefghijklmnop")
    assert console.run("names") == "Ana  SHA256:abcdefghijkl  last here 0 s ago"
    assert console.run("release ANA") == (
        "The name Ana is free: the next key to sit down with it owns it."
    )
    assert store.name_owner("ana") is None
    assert console.run("release ana") == "Cannot: no key owns the name ana."
    assert console.run("release") == "Cannot: say which name: `names` lists them."
    for _ in range(10):
        party.guard.failed("10.0.0.9")
    assert party.guard.refused_for("10.0.0.9") > 0
    assert console.run("forgive 10.0.0.9") == "10.0.0.9 may give the join code again now."
    assert party.guard.refused_for("10.0.0.9") == 0
    store.close()


async def test_a_join_that_gave_the_code_once_needs_it_no_more(tmp_path: Path):
    from tablegames.net.client import SeatTokens

    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server(code=CODE) as (server, port):
        server.add_table("crates", 3)
        first = RemoteClient(LOOPBACK, port, "ada", code=CODE, tokens=tokens)
        await first.greet()
        await first.close()
        later = RemoteClient(LOOPBACK, port, "ada", tokens=tokens)  # `join` again, no --code
        await later.greet()
        assert later.name == "ada"
        await later.close()
        assert oct((tmp_path / "seats.json").stat().st_mode & 0o777) == "0o600"


async def test_a_join_and_leave_loop_is_slowed_then_closed_and_the_table_barely_hears_it(caplog):
    caplog.set_level(logging.INFO, "tablegames")
    async with running_server() as (server, port):
        hosted = server.add_table("crates", 3)
        ada = await RawPeer.open(port)
        await ada.sit(hosted.code, 0, "ada")
        looper, _ = await hello(port, "looper")
        for _ in range(500):
            looper.send({"t": "join", "table": hosted.code})
            looper.send({"t": "leave"})
        for _ in range(100):
            if not any(client.name == "looper" for client in server.clients):
                break
            await asyncio.sleep(0.05)
        assert not any(client.name == "looper" for client in server.clients)  # closed
        heard = [f for f in await ada.until_pong() if f["t"] == "presence"]
        assert len(heard) <= 2 * server.config.request_burst  # not a thousand
        server.party.refusals.flush()
        logged = [r for r in caplog.records if "looper" in r.getMessage()]
        assert len(logged) <= 2 * server.config.request_burst + 3
        await ada.close()
