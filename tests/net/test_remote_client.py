"""The network client over a real (loopback) socket: what it tells the screens."""

from __future__ import annotations

import asyncio
from typing import Any

from tablegames.net.client import RemoteClient
from tablegames.net.messages import Seated, ViewUpdate, Welcome
from tablegames.net.protocol import PROTOCOL_VERSION, encode
from tablegames.table import Update
from tablegames.testing.harness import until

WELCOME = Welcome(
    version=PROTOCOL_VERSION,
    server="tablegames",
    heartbeat=5.0,
    server_id="S1",
    name="Sara",
    nonce="N1",
)
SEATED = Seated(
    table="KXPF", game="crates", seat=0, token="t0k", names=["Sara", "Tom"], title="Crates"
)


def update(version: int, lines: list[str], drop: int = 0) -> ViewUpdate:
    events = [{"text": line} for line in lines]
    return ViewUpdate(
        version=version, view={"log": events}, log_drop=drop, events=events, over=False,
        legal=[], waiting=[1], asked=version,
    )  # fmt: skip


async def test_updates_that_arrive_in_one_read_each_reach_the_screen_with_their_own_lines():
    # A slow network holds frames and lets them go together: the screen must still be told
    # each update's lines once (it was told the newest update twice: its lines doubled and
    # the first one's lost).
    go = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)  # the hello
        writer.write(encode(WELCOME) + encode(SEATED))
        await go.wait()
        writer.write(encode(update(3, ["a", "b"])) + encode(update(4, ["c"], drop=1)))
        await writer.drain()
        await reader.read(65536)  # until the client hangs up

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = RemoteClient("127.0.0.1", port, "Sara")
    told: list[tuple[int | None, int, list[Any]]] = []

    def listener(seat: int | None, given: Update) -> None:
        told.append((seat, given.version, [event["text"] for event in given.events]))

    try:
        async with asyncio.timeout(10):
            await client.connect()
            client.listen(listener)
            go.set()
            await until(lambda: len(told) >= 2 and client.latest is not None)
        assert told == [(0, 3, ["a", "b"]), (0, 4, ["c"])]
        assert client.latest is not None
        assert [event["text"] for event in client.latest.view["log"]] == ["b", "c"]
    finally:
        await client.close()
        server.close()
        await server.wait_closed()
