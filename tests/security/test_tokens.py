"""Seat tokens a fake server cannot use (issue 47, item 4): a client proves it holds a seat
without sending anything a look-alike server, a relay or a listener can use at the party; an
old client and a replayed answer get a sentence and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tablegames.net.client import RemoteClient, SeatTokens, ServerRefused
from tablegames.net.console import HostConsole
from tablegames.net.messages import Message
from tablegames.net.party import Login
from tablegames.net.party.seating import BAD_PROOF
from tablegames.net.proofs import endpoint
from tablegames.net.protocol import PROTOCOL_VERSION, encode
from tablegames.net.seat_tokens import load_client_key
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.testing.harness import LOOPBACK, read_frames, running_server, until
from tablegames.testing.matrix.test_server import Peer
from tablegames.testing.wire import raw

from ..tui.slow_network import SlowProxy
from .guest import Frame, answers, dial, last_words

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
    sara.ask.ready(True)
    await until(lambda: hosted.table is not None, what="the deal")
    await sara.close()
    await until(lambda: hosted.seats[0].peer is None, what="sara gone")
    return hosted.code, sara


@dataclass
class LookAlike:
    """A look-alike server: what it heard from its visitors, and what the party answered it."""

    server: asyncio.Server
    heard: list[Frame] = field(default_factory=list)
    taken: list[Frame] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.server.sockets[0].getsockname()[1])

    async def visited(self, tokens: SeatTokens, code: str) -> None:
        """Sara's client, with `tokens`, goes to this look-alike for her seat at `code`."""
        victim = RemoteClient(FAKE, self.port, "sara", tokens=tokens, table=code)
        with contextlib.suppress(Exception):
            await victim.connect(timeout=10)
        await victim.close()
        self.server.close()


async def look_alike(real_port: int) -> LookAlike:
    heard: list[Frame] = []
    taken: list[Frame] = []
    server = await relay(real_port, heard, taken)
    return LookAlike(server, heard, taken)


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
        (token,) = tokens.get(sara.server_id, sara.reached, "sara").values()
        fake = await look_alike(port)
        await fake.visited(tokens, code)
        hosted = server.tables[code]
        assert hosted.seats[0].peer is None, "the look-alike sat in sara's seat"
        assert not [f for f in fake.taken if f["t"] == "seated" and f.get("seat") == 0]
        assert token not in repr(fake.heard)  # her token never reached it


async def test_a_listener_cannot_replay_a_reconnect(tmp_path: Path):
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as (server, port):
        code, sara = await held_seat(server, port, tokens)
        (token,) = tokens.get(sara.server_id, sara.reached, "sara").values()
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


async def test_a_proof_relayed_from_another_address_is_refused_with_a_sentence(tmp_path: Path):
    """Even a client that does answer a look-alike (its tokens kept under that address: the
    party's machine moved, say) gives an answer made for the look-alike's address, which the
    party refuses, however live the relay."""
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as (server, port):
        code, sara = await held_seat(server, port, tokens)
        (token,) = tokens.get(sara.server_id, sara.reached, "sara").values()
        fake = await look_alike(port)
        tokens.put(sara.server_id, f"{FAKE}:{fake.port}", "sara", code, token)
        await fake.visited(tokens, code)
        assert [f["t"] for f in fake.heard][:2] == ["hello", "rejoin"]  # it did answer...
        assert token not in repr(fake.heard)  # ...without its token
        assert server.tables[code].seats[0].peer is None
        refused = [f["text"] for f in fake.taken if f["t"] == "error"]
        assert refused and refused[0] == BAD_PROOF


async def test_join_keys_own_their_names_as_ssh_keys_do(tmp_path: Path):
    """A name used over `join` with its key is owned once it sits down: another key, or no
    key, cannot use it (and a key that answers wrongly gets a sentence and nothing else)."""
    store = Store(tmp_path / "party.db")
    server = Server(ServerConfig(host=LOOPBACK, port=0), store=store)
    port = await server.start()
    try:
        key = load_client_key(tmp_path / "ben.key")
        ben = RemoteClient(LOOPBACK, port, "Ben", key=key)
        await ben.connect(lobby=True)
        ben.ask.new_table("crates", 2, bots="normal")
        await until(lambda: ben.seat == 0, what="ben seated")
        assert store.name_owner("ben") == key.fingerprint
        await ben.close()
        other = RemoteClient(LOOPBACK, port, "ben", key=load_client_key(tmp_path / "x.key"))
        with pytest.raises(ServerRefused, match="belongs to a player who logs in with a key"):
            await other.connect(lobby=True)
        keyless = await dial(port, "127.0.0.3")
        keyless.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "BEN"})
        (refused,) = await last_words(keyless)
        assert "belongs to a player who logs in with a key" in refused["text"]
        # The owner's key comes back from anywhere; a forged answer is refused.
        again = RemoteClient(LOOPBACK, port, "Ben", key=key)
        await again.connect(lobby=True)
        assert again.name == "Ben"
        await again.close()
        forger = await dial(port, "127.0.0.4")
        forger.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "Ben", "key": key.public})
        forger.send({"t": "prove", "signature": "A" * 86})
        frames = await last_words(forger)
        assert [f["t"] for f in frames] == ["welcome", "error"]
        assert frames[1]["code"] == "bad-proof"
    finally:
        await server.close()
        store.close()


async def test_a_banned_join_key_is_turned_away_from_any_address(tmp_path: Path):
    async with running_server() as (server, port):
        key = load_client_key(tmp_path / "ana.key")
        ana = await dial(port, "127.0.0.2")  # `join` with its key, from 127.0.0.2
        ana.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "ana", "key": key.public})
        (welcome,) = await read_frames(ana.reader, 1)
        reached = endpoint(ana.writer.get_extra_info("peername"))
        signature = key.sign(welcome["nonce"], welcome["server_id"], reached)
        assert [f["t"] for f in await answers(ana, {"t": "prove", "signature": signature})] == [
            "lobby"
        ]
        assert HostConsole(server.party).run("ban ana").startswith("ana was sent away and banned")
        await last_words(ana)
        back = RemoteClient(LOOPBACK, port, "anna", key=key)  # the same key, from 127.0.0.1
        with pytest.raises(ServerRefused, match="the host has turned you away"):
            await back.connect(lobby=True)
        friend = RemoteClient(LOOPBACK, port, "cy", key=load_client_key(tmp_path / "cy.key"))
        await friend.connect(lobby=True)  # (127.0.0.1 itself is not banned)
        await friend.close()


def test_a_ticket_shown_from_another_machine_proves_nothing():
    """A session's ticket is for the program the party started on its own machine."""
    server = Server(ServerConfig())
    ticket = server.party.doors.ticket_for(Login("ana", None, "ana@127.0.0.1", "127.0.0.1"))
    peer = Peer("stranger")
    peer.address = "192.0.2.7"  # (no packet is sent: the party is fed the message in memory)
    peer.conn.receive_data(
        raw({"t": "hello", "v": PROTOCOL_VERSION, "name": "x", "ticket": ticket})
    )
    for message in peer.conn.events_received():
        server.party.receive(peer, message)  # type: ignore[arg-type]
    assert [(m["t"], m.get("code")) for m in peer.messages()] == [("error", "bad-ticket")]
    assert peer.closed


async def test_join_works_through_a_port_forward_the_host_names(tmp_path: Path, caplog):
    """A port forward (a router's, a VM's) relays as a look-alike would, so a proof made for
    its address is refused until the host names it (`--forwarded-at`): `join`'s key is told
    how, not to update; named, the key and a seat's token are proven through it, and a dropped
    player's seat is theirs again. The host's log says who was turned away, and why."""
    caplog.set_level(logging.INFO, "tablegames")
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as (server, port):
        forward = SlowProxy(port, seed=1, least=0.0, most=0.0)
        at = await forward.start()
        try:
            key = load_client_key(tmp_path / "ana.key")
            unnamed = RemoteClient(LOOPBACK, at, "ana", key=key)
            with pytest.raises(ServerRefused, match="names the address you connect to with --"):
                await unnamed.connect(lobby=True)
            await unnamed.close()
            told = [record.getMessage() for record in caplog.records]
            assert any("turned ana from 127.0.0.1 away: that key's answer" in t for t in told)
            server.config.forwarded_at = (f"{LOOPBACK}:{at}",)
            ana = RemoteClient(LOOPBACK, at, "ana", key=key)
            await ana.connect(lobby=True)
            assert ana.name == "ana"
            await ana.close()
            code, _ = await held_seat(server, at, tokens)
            back = RemoteClient(LOOPBACK, at, "sara", table=code, tokens=tokens)
            await back.connect()
            assert back.seat == 0 and server.tables[code].seats[0].peer is not None
            await back.close()
        finally:
            await forward.close()
