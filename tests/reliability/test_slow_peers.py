"""Slow and silent peers: a peer that stops reading is dropped without growing memory or stalling
its table; silent, half-open and trickling peers are detected within the heartbeat limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from typing import Any

import pytest

from tablegames.net.protocol import PROTOCOL_VERSION, encode
from tablegames.testing.harness import LOOPBACK, RawPeer, play_game, running_server
from tablegames.testing.metrics import record

LIMITS = {"heartbeat": 0.2, "idle_limit": 1.0, "handshake_limit": 0.5}


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _deaf_spectator(port: int, table: str, stop: threading.Event, name: str) -> None:
    """Watch `table` but never read a byte (a tiny receive buffer, so backlog builds fast)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(10)
        sock.connect((LOOPBACK, port))
        sock.sendall(
            encode({"t": "hello", "v": PROTOCOL_VERSION, "name": name})
            + encode({"t": "join", "table": table, "spectate": True})
        )
        with contextlib.suppress(OSError):
            while not stop.wait(0.2):  # keeps talking (so it is not idle), never reads
                sock.sendall(encode({"t": "pong"}))


async def stop_reading_campaign(deaf: int) -> tuple[int, int, float]:
    """`deaf` spectators stop reading during long bot games; returns (dropped, games that
    stalled or lost a player, the largest backlog the server held for one peer, in bytes)."""
    watched: dict[int, Any] = {}
    largest = stalled = dropped = 0
    async with running_server(bot_pace=0, heartbeat=0.5, idle_limit=30.0) as (server, port):
        for _ in range(4):  # long games until every deaf peer has been dropped
            hosted = server.add_table("kraken", 11, {}, fill_with_bots="random", min_humans=1)
            stop = threading.Event()
            threads = [
                threading.Thread(target=_deaf_spectator, args=(port, hosted.code, stop, f"deaf{n}"))
                for n in range(deaf)
            ]
            for thread in threads:
                thread.start()
            while len(hosted.spectators) < deaf:  # they watch from the start
                await asyncio.sleep(0.01)
            game = asyncio.ensure_future(
                play_game(server, port, "kraken", 11, 1, "random", limit=90, hosted=hosted)
            )
            while not game.done():
                for client in server.clients:
                    if client.name.startswith("deaf") and id(client) not in watched:
                        watched[id(client)] = client
                        # Loopback would buffer megabytes in the kernel; a real slow link
                        # does not: keep the kernel's share small so the backlog is the server's.
                        sock = client.writer.transport.get_extra_info("socket")
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
                for client in watched.values():
                    if not client.closed:
                        size = client.writer.transport.get_write_buffer_size()
                        largest = max(largest, size)
                await asyncio.sleep(0.002)
            played = game.result()
            dropped = sum(client.closed for client in watched.values())  # before they hang up
            stop.set()
            for thread in threads:
                await asyncio.to_thread(thread.join, 10)
            table = played.hosted.table
            stalled += int(table is None or not table.over)
            stalled += sum(len(streams) != 1 for streams in played.streams.values())
            if dropped == len(watched):
                break
            watched.clear()
    return dropped, stalled, largest


def test_a_peer_that_stops_reading_is_dropped_and_the_table_goes_on():
    dropped, stalled, largest = asyncio.run(stop_reading_campaign(deaf=2))
    record("slow_reader", max_queued=largest, dropped=dropped, stalled=stalled)
    assert dropped == 2, "every deaf peer should be dropped"
    assert stalled == 0
    assert largest <= 256 * 1024, largest  # never more than the cap


def test_a_dropped_peer_that_never_reads_does_not_linger():
    """A peer dropped while answers wait for it, that then neither reads nor closes, must not
    keep its socket (and its backlog) on the server for ever.

    Found here: a graceful close waits for the backlog to drain, which never happens; the
    server now aborts such a connection once a short grace period has passed.
    """

    async def run() -> tuple[int, int, int]:
        # (it asks for the lobby nonstop on purpose: not to be refused, or closed, as a flood)
        async with running_server(**LIMITS, request_burst=10**6) as (server, port):
            for _ in range(12):  # answers of a few KiB each
                server.add_table("kraken", 11)
            before = open_fds()
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect((LOOPBACK, port))
            await asyncio.sleep(0.05)
            sock.send(encode({"t": "hello", "v": PROTOCOL_VERSION, "name": "stuck"}))
            backlog = 0
            for _ in range(2000):  # ask until some answers wait on the server, then go silent
                sock.send(encode({"t": "lobby"}))
                await asyncio.sleep(0.001)
                sizes = [c.writer.transport.get_write_buffer_size() for c in server.clients]
                backlog = max(sizes, default=0)
                if backlog > 4096:
                    break
            during = open_fds()
            await asyncio.sleep(LIMITS["idle_limit"] + 4 * LIMITS["heartbeat"] + 3.0)
            after = open_fds()
            sock.close()
            return backlog, during - before, after - before

    backlog, during, after = asyncio.run(run())
    assert backlog > 4096, "the test did not get answers to wait on the server"
    assert during >= 2  # our socket and the server's
    assert after == 1, "the server still holds the dropped peer's socket"  # 1: ours


async def time_to_drop(server: Any, port: int, behaviour: str) -> float:
    """Seconds until the server hangs up on a peer behaving as named (seen from the server)."""
    peer = await RawPeer.open(port)
    started = time.monotonic()
    if behaviour != "silent from the start":
        peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": behaviour})
    if behaviour == "trickling":

        async def trickle() -> None:
            for byte in encode({"t": "chat", "text": "x" * 200}):
                peer.writer.write(bytes([byte]))
                await asyncio.sleep(0.05)

        task = asyncio.ensure_future(trickle())
    if behaviour == "slow hello":
        peer.writer.transport.abort()  # (replaced below by a fresh, slow connection)
        peer = await RawPeer.open(port)
        started = time.monotonic()

        async def slow() -> None:
            for byte in encode({"t": "hello", "v": PROTOCOL_VERSION, "name": "slowloris"}):
                peer.writer.write(bytes([byte]))
                await asyncio.sleep(0.1)

        task = asyncio.ensure_future(slow())
    if behaviour == "half-open":
        peer.writer.transport.pause_reading()  # reads nothing and says nothing more
    await asyncio.sleep(0.05)
    for _ in range(1500):  # the server forgets the peer when it hangs up
        if not server.clients:
            break
        await asyncio.sleep(0.01)
    took = time.monotonic() - started
    if behaviour in ("trickling", "slow hello"):
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    await peer.close()
    return took


@pytest.mark.parametrize(
    "behaviour",
    ["silent from the start", "silent after hello", "half-open", "trickling", "slow hello"],
)
def test_silent_half_open_and_trickling_peers_are_dropped_in_time(behaviour):
    async def run() -> float:
        async with running_server(**LIMITS) as (server, port):
            return await time_to_drop(server, port, behaviour)

    took = asyncio.run(run())
    limit = LIMITS["handshake_limit"] if behaviour in ("silent from the start", "slow hello") else (
        LIMITS["idle_limit"])  # fmt: skip
    record("silent", max_detect=took, peers=1)
    assert limit - 0.05 <= took <= limit + LIMITS["heartbeat"] + 0.5, took


def test_a_live_peer_that_answers_pings_is_kept():
    async def run() -> bool:
        async with running_server(**LIMITS) as (server, port):
            peer = await RawPeer.open(port)
            peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "alive"})
            deadline = time.monotonic() + 3 * LIMITS["idle_limit"]
            with contextlib.suppress(TimeoutError):
                while time.monotonic() < deadline:
                    header = await asyncio.wait_for(peer.reader.readexactly(4), 1.0)
                    body = await peer.reader.readexactly(int.from_bytes(header, "big"))
                    if b"ping" in body:
                        peer.send({"t": "pong"})
            alive = any(client.name == "alive" for client in server.clients)
            await peer.close()
            return alive

    assert asyncio.run(run())
