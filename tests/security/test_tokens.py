"""Seat tokens a fake server cannot use (issue 47, item 4): a client proves it holds a seat
without sending anything a look-alike server, a relay or a listener can use at the party; an
old client and a replayed answer get a sentence and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from tablegames.net.client import RemoteClient, SeatTokens
from tablegames.net.messages import Message
from tablegames.net.protocol import PROTOCOL_VERSION, encode
from tablegames.net.server import Server
from tablegames.testing.harness import LOOPBACK, read_frames, running_server, until
from tablegames.testing.wire import raw

from .guest import Frame, dial, last_words

FAKE = "127.0.0.2"  # the look-alike server's address (another machine of the LAN)


class Overheard(RemoteClient):
    """A client whose every byte sent is overheard (as a listener on the LAN would)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.said = bytearray()

    def send(self, message: Message) -> None:
        self.said += encode(message)
        super().send(message)


async def held_seat(server: Server, port: int, tokens: SeatTokens) -> tuple[str, RemoteClient]:
    """Sara sits at a dealt crates table (a bot in the other seat) and drops: her seat is held
    and its token kept on her disk."""
    hosted = server.add_table("crates", 2, {"short": True}, fill_with_bots="normal", min_humans=1)
    sara = Overheard(LOOPBACK, port, "sara", table=hosted.code, tokens=tokens)
    await sara.connect()
    sara.ready(True)
    await until(lambda: hosted.table is not None, what="the deal")
    await sara.close()
    await until(lambda: hosted.seats[0].peer is None, what="sara gone")
    return hosted.code, sara


async def relay(real_port: int, heard: list[Frame], taken: list[Frame]) -> asyncio.Server:
    """A look-alike server at `FAKE`: it greets each client with the real party's own welcome
    (its server id, whatever else), then passes all the client says to the real party on a
    connection of its own, keeping it (`heard`) and what the party answers it (`taken`)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        own = await dial(real_port, FAKE)
        with contextlib.suppress(Exception):
            (victims_hello,) = await read_frames(reader, 1)
            heard.append(victims_hello)
            own.send({**victims_hello})
            welcome, lobby = await read_frames(own.reader, 2)
            writer.write(raw(welcome) + raw(lobby))
            while True:
                (said,) = await read_frames(reader, 1, timeout=10)
                heard.append(said)
                own.send(said)
                taken.extend(await own.until_pong())
                for answer in taken[-1:]:
                    writer.write(raw(answer))
        writer.close()
        await own.close()

    return await asyncio.start_server(serve, FAKE, 0)


async def test_a_look_alike_server_collects_nothing_it_can_use_at_the_party(tmp_path: Path):
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as (server, port):
        code, sara = await held_seat(server, port, tokens)
        (token,) = tokens.get(sara.server_id, "sara").values()
        heard: list[Frame] = []
        taken: list[Frame] = []
        fake = await relay(port, heard, taken)
        fake_port = fake.sockets[0].getsockname()[1]
        victim = RemoteClient(FAKE, fake_port, "sara", tokens=tokens, table=code)
        with contextlib.suppress(Exception):
            await victim.connect(timeout=10)
        await victim.close()
        fake.close()
        hosted = server.tables[code]
        assert hosted.seats[0].peer is None, "the look-alike sat in sara's seat"
        assert not [f for f in taken if f["t"] == "seated" and f.get("seat") == 0]
        assert token not in repr(heard)  # her token never reached it


async def test_a_listener_cannot_replay_a_reconnect(tmp_path: Path):
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as (server, port):
        code, sara = await held_seat(server, port, tokens)
        (token,) = tokens.get(sara.server_id, "sara").values()
        back = Overheard(LOOPBACK, port, "sara", table=code, tokens=tokens)
        await back.connect()  # her seat back, overheard
        assert back.seat == 0
        await back.close()
        hosted = server.tables[code]
        await until(lambda: hosted.seats[0].peer is None, what="sara gone again")
        assert token.encode() not in bytes(back.said)  # the token itself never crossed
        thief = await dial(port, "127.0.0.3")
        thief.writer.write(bytes(back.said))  # every byte she sent, again
        frames = await last_words(thief)
        assert hosted.seats[0].peer is None, "a replayed reconnect took her seat"
        assert not [f for f in frames if f["t"] == "seated"]
        assert [f for f in frames if f["t"] == "error"], "the replay was told nothing"


async def test_an_old_client_gets_a_sentence_and_nothing_else():
    async with running_server() as (_, port):
        old = await dial(port)
        old.send({"t": "hello", "v": PROTOCOL_VERSION - 1, "name": "sara"})
        frames = await last_words(old)
        assert frames == [
            {
                "t": "error",
                "code": "version",
                "text": f"this server speaks version {PROTOCOL_VERSION}: update tablegames",
            }
        ]
