"""A guest's own client: raw msgpack frames over the join port, from any loopback address.

What a friend with forty lines of Python sends: any map, in any order, from 127.0.0.2 or any
other 127.x address (each stands in for another machine on the LAN). Nothing is checked on the
way out; every frame the server answers is read back as plain maps.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tablegames.net.proofs import ClientKey, endpoint
from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.testing.harness import LOOPBACK, RawPeer, read_frames, read_until_closed
from tablegames.testing.scanner import split_frames

Frame = dict[str, Any]


async def dial(port: int, source: str = "127.0.0.2", host: str = LOOPBACK) -> RawPeer:
    """A connection to the server at `host`:`port` from the loopback address `source`."""
    return RawPeer(*await asyncio.open_connection(host, port, local_addr=(source, 0)))


async def greeted(port: int, name: str, source: str = "127.0.0.2", **hello: Any) -> RawPeer:
    """A guest who said hello as `name` from `source` and heard the welcome."""
    guest = await dial(port, source)
    guest.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name, **hello})
    frames = await guest.until_pong()
    assert frames and frames[0]["t"] == "welcome", frames
    guest.welcome = frames[0]  # type: ignore[attr-defined]
    return guest


async def answers(guest: RawPeer, message: Frame) -> list[Frame]:
    """Everything the server says to `message` (read up to a ping's pong)."""
    guest.send(message)
    return await guest.until_pong()


async def last_words(guest: RawPeer) -> list[Frame]:
    """Every frame until the server hangs up."""
    frames = [frame for _, frame in split_frames(await read_until_closed(guest.reader))]
    await guest.close()
    return frames


def refusals(frames: list[Frame]) -> list[str]:
    """The sentences of the `error` frames among `frames`."""
    return [frame["text"] for frame in frames if frame["t"] == "error"]


async def proven(port: int, name: str, key: ClientKey, source: str = "127.0.0.2") -> RawPeer:
    """A guest who said hello as `name` with their lasting key, as `tablegames join` does, and
    proved it by signing the welcome's challenge (`proofs.ClientKey.sign`)."""
    guest = await dial(port, source)
    guest.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name, "key": key.public})
    (welcome,) = await read_frames(guest.reader, 1)
    assert welcome["t"] == "welcome", welcome
    reached = endpoint(guest.writer.get_extra_info("peername"))
    signature = key.sign(welcome["nonce"], welcome["server_id"], reached)
    assert refusals(await answers(guest, {"t": "prove", "signature": signature})) == []
    guest.welcome = welcome
    return guest


async def play_out(guest: RawPeer, seat: int, seconds: float = 60.0) -> Frame:
    """Play `seat` to the end of the game, the first legal action each time the game waits for
    it (pings answered); returns the last update."""
    async with asyncio.timeout(seconds):
        while True:
            (frame,) = await read_frames(guest.reader, 1, seconds)
            if frame["t"] == "ping":
                guest.send({"t": "pong", "n": frame["n"]})
            if frame["t"] != "update":
                continue
            if frame["over"]:
                return frame
            if seat in frame["waiting"] and frame["legal"]:
                guest.send({"t": "action", "v": frame["version"], "action": frame["legal"][0]})
