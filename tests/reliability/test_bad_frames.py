"""Bad frames over real sockets: an error frame, then only that connection closes; games on other
connections go on; the memory a hostile connection can hold stays bounded (measured).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import socket
import threading
import tracemalloc
from typing import Any

import msgpack
import pytest

from tablegames.net.messages import ServerMessage
from tablegames.net.protocol import MAX_CLIENT_FRAME, PROTOCOL_VERSION, encode, frame
from tablegames.testing.harness import (
    LOOPBACK,
    RawPeer,
    play_game,
    read_until_closed,
    running_server,
)
from tablegames.testing.metrics import record
from tablegames.testing.scanner import split_frames
from tablegames.testing.wire import problem

from ..net.test_protocol import BAD_INPUTS

#: The error codes the protocol documents for input it refuses.
DOCUMENTED = {"frame-size", "bad-frame", "bad-message", "truncated", "hello-first", "timeout"}
HOSTILE = {
    **BAD_INPUTS,
    "truncated body": frame(b"\x82\xa1t\xa4ping")[:-3],  # then the sender half-closes
    "huge array": frame(b"\x81\xa1t\xdd\xff\xff\xff\xff"),
    "huge map": frame(b"\xdf\xff\xff\xff\xff"),
    "huge string": frame(b"\x81\xa1t\xdb\xff\xff\xff\xff"),
    "nil body": frame(b"\xc0"),
    "action not a map": frame(msgpack.packb({"t": "action", "v": 1, "action": [1]})),
    "message before hello": encode({"t": "action", "v": 0, "action": {"type": "draw"}}),
}


async def send_hostile(port: int, name: str, greet: bool) -> list[dict]:
    """Send one hostile input (after a hello when `greet`); every frame until the server closes."""
    peer = await RawPeer.open(port)
    if greet and name != "message before hello":
        peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "hostile"})
        await peer.until_pong()
    peer.writer.write(HOSTILE[name])
    if name == "truncated body":
        peer.writer.write_eof()
    data = await read_until_closed(peer.reader, timeout=10)
    await peer.close()
    return [message for _, message in split_frames(data)]


async def hostile_campaign(rounds: int) -> tuple[int, int]:
    """Bad input on fresh connections while games run; returns (classes, collateral)."""
    collateral = 0
    async with running_server(bot_pace=0, handshake_limit=3.0) as (server, port):
        games = [
            asyncio.ensure_future(play_game(server, port, "crates", 2, 2, "normal", limit=60,
                                            options={"short": True})),
            asyncio.ensure_future(play_game(server, port, "roach", 3, 3, "normal", limit=60)),
        ]  # fmt: skip
        rng = random.Random()
        for _ in range(rounds):
            for name in rng.sample(sorted(HOSTILE), len(HOSTILE)):
                replies = await send_hostile(port, name, greet=rng.random() < 0.5)
                errors = [m for m in replies if m.get("t") == "error"]
                assert len(errors) == 1 and replies[-1] is errors[0], (name, replies)
                assert errors[0]["code"] in DOCUMENTED, (name, errors)
                assert problem(errors[0], ServerMessage) is None
        played = await asyncio.gather(*games)
        for game in played:
            table = game.hosted.table
            ok = table is not None and table.over
            # every player kept its one connection: nobody else was dropped
            kept = all(len(streams) == 1 for streams in game.streams.values())
            collateral += (not ok) + (not kept)
    return len(HOSTILE), collateral


def test_bad_input_gets_an_error_and_closes_only_its_own_connection():
    _, collateral = asyncio.run(hostile_campaign(rounds=2))
    record("bad_input", classes=sorted(HOSTILE), collateral=collateral)
    assert collateral == 0


@pytest.mark.slow
def test_bad_input_at_length():
    _, collateral = asyncio.run(hostile_campaign(rounds=25))
    record("bad_input", classes=sorted(HOSTILE), collateral=collateral)
    assert collateral == 0


def _hold_partial_frame(port: int, stop: threading.Event) -> None:
    """A hostile peer: announce a full-size frame, send all of it but one byte, then wait."""
    with socket.create_connection((LOOPBACK, port), timeout=10) as sock:
        sock.sendall(MAX_CLIENT_FRAME.to_bytes(4, "big") + b"\x00" * (MAX_CLIENT_FRAME - 1))
        stop.wait(20)


def _flood_unread(port: int, stop: threading.Event, sent: list[int]) -> None:
    """A hostile peer: ask for the lobby as fast as it can and never read an answer."""
    ping = encode({"t": "lobby"}) * 4096
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # answers back up quickly
        sock.settimeout(10)
        sock.connect((LOOPBACK, port))
        sock.sendall(encode({"t": "hello", "v": PROTOCOL_VERSION, "name": "flood"}))
        with contextlib.suppress(OSError):
            while not stop.is_set() and sent[0] < 64 * 1024 * 1024:
                sock.sendall(ping)
                sent[0] += len(ping)


async def peak_per_connection(port: int, count: int, done: Any, target: Any, *args: Any) -> float:
    """Peak traced memory (bytes) per hostile connection while `count` threads run `target`,
    measured once `done()` says the server has taken in what they sent (at most 10 s)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    stop = threading.Event()
    threads = [threading.Thread(target=target, args=(port, stop, *args)) for _ in range(count)]
    for thread in threads:
        thread.start()
    for _ in range(500):
        await asyncio.sleep(0.02)
        if done(threads):
            break
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    stop.set()
    await asyncio.to_thread(lambda: [thread.join(20) for thread in threads])
    return peak / count


def test_hostile_connections_hold_bounded_memory(caplog):
    """Peak Python memory the server holds per hostile connection, measured with tracemalloc.

    The flooders hang up with answers still coming: the server must stop writing to them
    (found here: it went on, and asyncio logged a warning for every answer, a log flood).
    """
    count = 40

    async def run() -> tuple[float, float, int]:
        config = {"handshake_limit": 30.0, "idle_limit": 30.0, "heartbeat": 30.0}
        async with running_server(**config) as (server, port):
            for _ in range(12):  # a long lobby: every answer is a few KiB
                server.add_table("kraken", 11)

            def buffered(threads: Any) -> bool:
                held = sum(len(client.conn._buffer) for client in server.clients)
                return held >= count * (MAX_CLIENT_FRAME - 1)

            def hung_up(threads: Any) -> bool:
                return not any(thread.is_alive() for thread in threads)

            partial = await peak_per_connection(port, count, buffered, _hold_partial_frame)
            flooding = await peak_per_connection(port, 2, hung_up, _flood_unread, [0])
            await asyncio.sleep(0.2)
            return partial, flooding, len(server.clients)

    partial, flooding, left = asyncio.run(run())
    record("memory", max_hostile_each=partial, max_hostile_total=partial * count,
           max_flood_total=2 * flooding, connections=count)  # fmt: skip
    # A frame is at most 64 KiB: its buffer, the read chunk and the reader's own buffer.
    assert partial < 4 * MAX_CLIENT_FRAME, partial
    # A flood costs one read's worth of decoded messages (64 KiB of the smallest frames, a few
    # thousand maps) plus unread answers up to the write-buffer cap, then the peer is dropped.
    assert 2 * flooding < 2 * 1024 * 1024 + 2 * (256 * 1024 + 2 * MAX_CLIENT_FRAME), flooding
    assert left == 0, "the flooding peers should have been dropped"
    assert not [r for r in caplog.records if "socket.send() raised" in r.getMessage()]
