"""The game's silences hold over real loopback sockets: a Feed the Kraken player without a
tongue is refused table chat and claims with the reason, others still talk, and lobby chat
(not at a table) is never asked."""

from __future__ import annotations

from typing import Any

from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.testing.harness import RawPeer, running_server

NO_TONGUE = "you have no tongue: you cannot talk, only gesture"


def chats(frames: list[dict[str, Any]]) -> list[str]:
    return [f"{f['name']}: {f['text']}" for f in frames if f["t"] == "chat"]


def errors(frames: list[dict[str, Any]]) -> list[str]:
    return [f["text"] for f in frames if f["t"] == "error"]


async def lobby_member(port: int, name: str) -> RawPeer:
    peer = await RawPeer.open(port)
    peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name})
    await peer.until_pong()
    return peer


async def test_a_tongueless_player_is_refused_chat_and_claims_over_the_network():
    async with running_server(bot_pace=30.0) as (server, port):
        hosted = server.add_table(
            "kraken", 5, {"characters": False}, seed=3, fill_with_bots="normal", min_humans=2
        )
        ada, bea = await RawPeer.open(port), await RawPeer.open(port)
        await ada.sit(hosted.code, 0, "ada")
        await bea.sit(hosted.code, 1, "bea")
        for peer in (ada, bea):
            peer.send({"t": "ready", "ready": True})
            await peer.until_pong()
        assert hosted.table is not None and hosted.table.state.phase == "appoint"
        ada.send({"t": "chat", "text": "keep the RED one"})
        assert chats(await bea.until_pong()) == ["ada: keep the RED one"]  # ada may talk now
        assert chats(await ada.until_pong()) == ["ada: keep the RED one"]

        hosted.table.state.tongueless.add(0)  # (as "off with the tongue" would leave it)
        ada.send({"t": "chat", "text": "keep the RED one"})
        ada.send({"t": "claim", "claim": {"kind": "role", "target": 0, "group": "sailor"}})
        told = await ada.until_pong()
        assert errors(told) == [NO_TONGUE, NO_TONGUE] and chats(told) == []
        assert chats(await bea.until_pong()) == []  # nothing reached the table
        assert hosted.table.talk == []

        bea.send({"t": "chat", "text": "ada looks pale"})
        assert chats(await ada.until_pong()) == ["bea: ada looks pale"]
        assert chats(await bea.until_pong()) == ["bea: ada looks pale"]

        carl, dan = await lobby_member(port, "carl"), await lobby_member(port, "dan")
        carl.send({"t": "chat", "text": "anyone for crates?"})
        assert chats(await dan.until_pong()) == ["carl: anyone for crates?"]
        assert errors(await carl.until_pong()) == []
        for peer in (ada, bea, carl, dan):
            await peer.close()
