"""The server with in-process clients over loopback: seats, tokens, bots, reconnects, limits."""

from __future__ import annotations

import asyncio

import msgpack
import pytest

from tablegames.net.client import RemoteClient, ServerRefused
from tablegames.net.join_bot import play_as_bot
from tablegames.net.messages import Ping, Pong
from tablegames.net.protocol import PROTOCOL_VERSION, encode
from tablegames.net.server import Server, ServerConfig
from tablegames.table import VirtualClock

LOOPBACK = "127.0.0.1"


async def start(**config) -> tuple[Server, int]:
    server = Server(ServerConfig(host=LOOPBACK, port=0, **config))
    port = await server.start()
    return server, port


async def raw(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(LOOPBACK, port)


async def read_messages(reader: asyncio.StreamReader, count: int, timeout: float = 5.0):
    messages = []
    async with asyncio.timeout(timeout):
        while len(messages) < count:
            header = await reader.readexactly(4)
            body = await reader.readexactly(int.from_bytes(header, "big"))
            messages.append(msgpack.unpackb(body))
    return messages


async def test_bots_on_two_remote_seats_play_crates_to_the_end():
    server, port = await start(bot_pace=0)
    hosted = server.add_table("crates", 2, {"short": True}, seed=3)
    clients = [RemoteClient(LOOPBACK, port, f"bot{i}", table=hosted.code) for i in range(2)]
    try:
        views = await asyncio.wait_for(
            asyncio.gather(*(play_as_bot(c, "normal") for c in clients)), timeout=60
        )
        assert hosted.table is not None and hosted.table.over
        assert all(view["phase"] == "over" for view in views)
        assert views[0]["scores"] == hosted.table.state.result()["scores"]
    finally:
        await server.close()


async def test_empty_seats_get_server_bots_once_the_humans_are_ready():
    server, port = await start(bot_pace=0)
    hosted = server.add_table("crates", 3, {"short": True}, fill_with_bots="random", min_humans=1)
    client = RemoteClient(LOOPBACK, port, "Sara", table=hosted.code)
    try:
        view = await asyncio.wait_for(play_as_bot(client, "normal"), timeout=60)
        assert view["phase"] == "over"
        assert [s.bot_level for s in hosted.seats] == [None, "random", "random"]
    finally:
        await server.close()


async def test_a_dropped_player_reconnects_with_the_token_and_plays_on():
    server, port = await start(bot_pace=0)
    hosted = server.add_table("crates", 2, {"short": True}, seed=8)
    steady = RemoteClient(LOOPBACK, port, "steady", table=hosted.code)
    flaky = RemoteClient(LOOPBACK, port, "flaky", table=hosted.code)
    news = []
    steady.listen_notices(lambda kind, text: news.append(text))
    try:
        games = asyncio.gather(play_as_bot(steady, "normal"), play_as_bot(flaky, "normal"))
        for _ in range(200):  # wait until the game is under way
            await asyncio.sleep(0.01)
            if hosted.table is not None and hosted.table.version > 10:
                break
        assert hosted.table is not None
        flaky._writer.transport.abort()  # the network drops
        views = await asyncio.wait_for(games, timeout=60)
        assert hosted.table.over and all(v["phase"] == "over" for v in views)
        assert "flaky dropped out; their seat is held." in news
        assert "flaky is back." in news
        assert [seat for seat, _, _ in hosted.table.log].count(1) > 0
    finally:
        await server.close()


async def test_a_wrong_token_or_code_gets_nothing():
    server, port = await start(code="KRAB")
    hosted = server.add_table("crates", 2)
    try:
        for hello, code in (
            ({"t": "hello", "v": PROTOCOL_VERSION, "name": "x"}, "need-code"),
            ({"t": "hello", "v": PROTOCOL_VERSION, "name": "x", "code": "NOPE"}, "bad-code"),
        ):
            reader, writer = await raw(port)
            writer.write(encode(hello))
            (reply,) = await read_messages(reader, 1)
            assert reply["t"] == "error" and reply["code"] == code
            assert await reader.read() == b""  # and the server closed the connection
            writer.close()
        reader, writer = await raw(port)
        writer.write(encode({"t": "hello", "v": PROTOCOL_VERSION, "name": "x", "code": "krab"}))
        writer.write(encode({"t": "rejoin", "table": hosted.code, "proof": "00" * 22}))
        welcome, _lobby, refusal = await read_messages(reader, 3)
        assert welcome["t"] == "welcome" and refusal["code"] == "bad-token"
        writer.close()
        assert not any(seat.claimed for seat in hosted.seats)
        with pytest.raises(ServerRefused, match="wrong join code"):
            await RemoteClient(LOOPBACK, port, "x", code="NOPE").connect()
    finally:
        await server.close()


async def test_bad_frames_close_only_that_connection():
    server, port = await start()
    try:
        good = RemoteClient(LOOPBACK, port, "good")
        server.add_table("crates", 2)
        await good.connect()
        reader, writer = await raw(port)
        writer.write(b"SSH-2.0-OpenSSH_9.2\r\n")
        (reply,) = await read_messages(reader, 1)
        assert reply == {"t": "error", "code": "frame-size", "text": reply["text"]}
        assert await reader.read() == b""
        good.send(Ping(n=5))
        async with asyncio.timeout(5):
            while await good.next_event() != Pong(n=5):
                pass
        await good.close()
    finally:
        await server.close()


async def test_a_silent_peer_is_dropped_within_the_idle_limit():
    server, port = await start(handshake_limit=0.3, idle_limit=0.5, heartbeat=0.1)
    try:
        reader, writer = await raw(port)
        started = asyncio.get_running_loop().time()
        (reply,) = await read_messages(reader, 1)
        assert reply["code"] == "timeout"
        assert await reader.read() == b""
        assert asyncio.get_running_loop().time() - started < 2
        # A trickler (one byte at a time, never a full message) is dropped too.
        reader, writer = await raw(port)
        writer.write(encode({"t": "hello", "v": PROTOCOL_VERSION, "name": "slow"}))
        await read_messages(reader, 2)  # welcome, lobby
        data = encode({"t": "ping"})
        with pytest.raises((ConnectionError, AssertionError)):
            for byte in data[:-1] * 20:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(0.1)
            raise AssertionError("still connected")
    finally:
        await server.close()


async def test_a_bot_takes_over_a_dropped_seat_after_the_hosts_timeout():
    clock = VirtualClock(100.0)  # the party's: moved on by hand, no waiting for the takeover
    server = Server(
        ServerConfig(host=LOOPBACK, port=0, bot_pace=0, takeover_after=30.0), clock=clock
    )
    port = await server.start()
    hosted = server.add_table(
        "crates", 2, {"short": True}, seed=4, fill_with_bots="normal", min_humans=1
    )
    quitter = RemoteClient(LOOPBACK, port, "quitter", table=hosted.code)
    try:
        await quitter.connect()
        quitter.ask.ready(True)
        for _ in range(200):
            await asyncio.sleep(0.01)
            if hosted.table is not None:
                break
        assert hosted.table is not None
        await quitter.close()  # gone for good
        for _ in range(500):
            await asyncio.sleep(0.01)
            if hosted.seats[0].away_since is not None:
                break
        clock.advance(30.0)
        server.party.timekeeper.tick()
        assert hosted.seats[0].standin
        for _ in range(3000):
            await asyncio.sleep(0.01)
            if hosted.table.over:
                break
        assert hosted.table.over, "the bot standing in should have finished the game"
        assert 0 in hosted.table.bots
    finally:
        await server.close()


async def test_a_spectator_sees_exactly_the_public_view():
    server, port = await start(bot_pace=0)
    hosted = server.add_table(
        "crates", 2, {"short": True}, seed=6, fill_with_bots="normal", min_humans=1
    )
    player = RemoteClient(LOOPBACK, port, "p", table=hosted.code)
    watcher = RemoteClient(LOOPBACK, port, "w", table=hosted.code, spectate=True)
    seen = []
    watcher.listen(lambda seat, update: seen.append(update))
    try:
        await watcher.connect()
        assert watcher.seat is None and watcher.token is None
        await asyncio.wait_for(play_as_bot(player, "normal"), timeout=60)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if seen and seen[-1].over:
                break
        assert seen and seen[-1].over
        assert seen[-1].view == hosted.table.state.view(None)
        assert all(update.view["hand"] == [] and update.legal == [] for update in seen)
    finally:
        await watcher.close()
        await server.close()


async def test_a_refusal_that_repeats_a_long_request_is_cut_to_fit_and_the_line_stays_open():
    """Found with the typed messages: `there is no table XXX…` for a 500-character code was
    517 characters, longer than any text of a message may be (a client refused it and hung up;
    checked on sending, it raised in the server and the connection was closed)."""
    from tablegames.testing.harness import RawPeer

    server, port = await start()
    try:
        peer = await RawPeer.open(port)
        peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "long"})
        peer.send({"t": "join", "table": "K" * 500})
        told = await peer.until_pong()  # (the pong came: the connection is open)
        (error,) = [m for m in told if m["t"] == "error"]
        assert error["text"].startswith("there is no table KKK") and len(error["text"]) == 500
        await peer.close()
    finally:
        await server.close()


async def test_a_name_or_code_too_long_for_a_message_is_cut_to_fit_not_a_crash():
    server, port = await start(code="KRAB")
    try:
        with pytest.raises(ServerRefused, match="wrong join code"):
            await RemoteClient(LOOPBACK, port, "x" * 600, code="KRAB" * 200).connect()
        server.add_table("crates", 2)
        sara = RemoteClient(LOOPBACK, port, "Sara" * 200, code="KRAB")
        await sara.connect()
        assert sara.seat == 0 and sara.name.startswith("SaraSara")
        await sara.close()
    finally:
        await server.close()
