"""Claims over the network: a `claim` message, checked, rate-limited with chat, refused to
spectators, and heard by everyone in their updates' talk."""

from __future__ import annotations

from typing import Any

from tablegames.net.client import RemoteClient
from tablegames.net.messages import ClientMessage
from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.testing.harness import LOOPBACK, RawPeer, read_until_closed, running_server
from tablegames.testing.wire import problem

I_AM_A_SAILOR = {"kind": "role", "target": 0, "group": "sailor"}


def talk_in(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The talk records the updates among `frames` brought (only new ones each time)."""
    return [said for f in frames if f["t"] == "update" for said in f["view"].get("talk", [])]


def test_the_claim_message_has_a_type():
    assert problem({"t": "claim", "claim": I_AM_A_SAILOR}, ClientMessage) is None
    assert "Expected `object`, got `str`" in str(
        problem({"t": "claim", "claim": "me"}, ClientMessage)
    )
    assert "missing required field" in str(problem({"t": "claim"}, ClientMessage))


async def kraken_game(server: Any, port: int) -> tuple[RawPeer, RawPeer]:
    """A 5-seat table: a player in seat 0 (ready: the bots fill in) and a spectator."""
    hosted = server.add_table(
        "kraken", 5, {"characters": False}, seed=3, fill_with_bots="normal", min_humans=1
    )
    player, watcher = await RawPeer.open(port), await RawPeer.open(port)
    await player.sit(hosted.code, 0, "ada")
    player.send({"t": "ready", "ready": True})
    await player.until_pong()
    watcher.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "bea"})
    watcher.send({"t": "join", "table": hosted.code, "spectate": True})
    await watcher.until_pong()
    return player, watcher


async def test_a_claim_is_heard_by_everyone_and_a_spectator_cannot_claim():
    async with running_server(bot_pace=30.0) as (server, port):
        player, watcher = await kraken_game(server, port)
        player.send({"t": "claim", "claim": I_AM_A_SAILOR})
        mine = talk_in(await player.until_pong())
        theirs = talk_in(await watcher.until_pong())
        assert [said["text"] for said in mine] == ['{0} claims: "I am a sailor"']
        assert theirs == mine
        watcher.send({"t": "claim", "claim": I_AM_A_SAILOR})
        errors = [f for f in await watcher.until_pong() if f["t"] == "error"]
        assert errors and "spectators cannot make claims" in errors[0]["text"]
        player.send({"t": "claim", "claim": {"kind": "gossip"}})  # well-framed, not a claim
        told = await player.until_pong()
        errors = [f for f in told if f["t"] == "error"]
        assert errors and "kind must be one of" in errors[0]["text"]
        assert talk_in(told) == []  # nothing changed, and the connection stays open
        assert len(server.tables[next(iter(server.tables))].table.talk) == 1
        for peer in (player, watcher):
            await peer.close()


async def test_claims_share_the_chats_rate_and_a_malformed_one_closes_the_connection():
    async with running_server(bot_pace=30.0, chat_per_second=1.0, chat_burst=5) as (
        server,
        port,
    ):
        player, watcher = await kraken_game(server, port)
        for _ in range(12):
            player.send({"t": "claim", "claim": I_AM_A_SAILOR})
        told = await player.until_pong()
        refused = [f for f in told if f["t"] == "error" and "too fast" in f["text"]]
        assert len(talk_in(told)) <= 6 and len(refused) >= 6
        player.send({"t": "claim", "claim": ["not", "a", "map"]})
        rest = await read_until_closed(player.reader)
        assert b"bad-message" in rest
        await watcher.close()


async def test_a_remote_client_rebuilds_the_whole_talk_from_the_new_records_it_is_sent():
    async with running_server(bot_pace=30.0) as (server, port):
        hosted = server.add_table(
            "kraken", 5, {"characters": False}, seed=3, fill_with_bots="normal", min_humans=1
        )
        client = RemoteClient(LOOPBACK, port, "ada", table=hosted.code)
        await client.connect()
        client.ask.ready(True)
        while client.latest is None:
            await client.next_event()
        refused: list[str] = []
        client.listen_notices(lambda kind, text: refused.append(text) if kind == "error" else None)
        client.claim(client.seat, I_AM_A_SAILOR)
        client.claim(3, I_AM_A_SAILOR)
        assert refused == ["that seat is not yours"]  # (at once: it is not sent)
        hosted.table.say(2, {"kind": "role", "target": 0, "group": "pirate"})
        for _ in range(50):
            if len(client.latest.view["talk"]) == 2:
                break
            await client.next_event()
        assert client.latest.view["talk"] == hosted.table.view_for(0)["talk"]
        await client.close()
