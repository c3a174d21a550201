"""Seat tokens: no token, a wrong or malformed one, another seat's, another table's — with every
message type — gets nothing and changes nothing; tokens never reach a log or the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import subprocess
import time
import typing
from pathlib import Path
from typing import Any

import pytest

from tablegames.net.messages import ClientMessage, kind_of
from tablegames.net.protocol import PROTOCOL_VERSION, encode
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.testing.harness import RawPeer, read_until_closed, running_server
from tablegames.testing.matrix.test_server import Peer
from tablegames.testing.metrics import record
from tablegames.testing.scanner import digest, split_frames

from ..e2e.processes import cli, finish, join_bot, start_host


def table_fingerprint(server: Server, code: str) -> Any:
    """Everything about a table a stranger must not be able to change."""
    hosted = server.tables[code]
    table = hosted.table
    return (
        [(s.number, s.token_key, id(s.peer), s.ready, s.name) for s in hosted.seats],
        None if table is None else (table.version, len(table.log), digest(table.state.view(None))),
    )


def messages_with(extra: dict[str, Any], code: str) -> list[dict[str, Any]]:
    """One message of every type a client may send, each carrying `extra` fields."""
    samples = {
        "hello": {"t": "hello", "v": PROTOCOL_VERSION, "name": "intruder"},
        "prove": {"t": "prove", "signature": "A" * 86},
        "rejoin": {"t": "rejoin", "table": code, "proof": "A" * 43},
        "lobby": {"t": "lobby"},
        "create": {"t": "create", "game": "crates", "players": 2},
        "join": {"t": "join", "table": code, "seat": 0},
        "ready": {"t": "ready", "ready": True},
        "start": {"t": "start"},
        "seat": {"t": "seat", "seat": 1, "to": "free"},
        "leave": {"t": "leave"},
        "rematch": {"t": "rematch"},
        "close": {"t": "close", "table": code},
        "action": {"t": "action", "v": 0, "action": {"type": "draw"}},
        "chat": {"t": "chat", "text": "let me in"},
        "claim": {"t": "claim", "claim": {"kind": "role", "target": 0, "group": "pirate"}},
        "ping": {"t": "ping", "n": 1},
        "pong": {"t": "pong"},
        "bye": {"t": "bye"},
    }
    kinds = {kind_of(kind) for kind in typing.get_args(ClientMessage)}
    assert set(samples) == kinds, "a new message type needs a sample here"
    return [{**message, **extra} for message in samples.values()]


#: A seat proof an intruder might try (made on its own connection): (table, proof) from the
#: intruder's peer, the tokens it knows, table A's code and table B's.
Forge = typing.Callable[[RawPeer, dict[str, str], str, str], tuple[str, str] | None]


def credentials() -> dict[str, Forge]:
    """Proofs an intruder might try, by name (sent in a `rejoin` after the hello). Only the
    last is a real one: the seat at table B whose token the intruder was given."""
    return {
        "no proof": lambda peer, tokens, a, b: None,
        "a random proof": lambda peer, tokens, a, b: (a, secrets.token_urlsafe(32)),
        "an empty proof": lambda peer, tokens, a, b: (a, ""),
        "the token itself": lambda peer, tokens, a, b: (a, tokens["A0"]),
        "the token's hash": lambda peer, tokens, a, b: (
            a,
            hashlib.sha256(tokens["A0"].encode()).hexdigest(),
        ),
        "another connection's answer": lambda peer, tokens, a, b: (
            a,
            peer.proof(a, tokens["A0"], nonce="an earlier connection's nonce"),
        ),
        "another table's answer": lambda peer, tokens, a, b: (a, peer.proof(b, tokens["A0"])),
        "not base64 at all": lambda peer, tokens, a, b: (a, "x" * 500),
        "another table's token": lambda peer, tokens, a, b: (b, peer.proof(b, tokens["B0"])),
    }


async def intrude(
    port: int, forge: Forge, tokens: dict[str, str], codes: tuple[str, str], message: dict[str, Any]
) -> list[Any]:
    """Say hello, try `forge`'s proof, then send `message`; everything the server answers."""
    peer = await RawPeer.open(port)
    peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "intruder"})
    welcome, *first = await peer.until_pong()
    peer.welcome = welcome
    forged = forge(peer, tokens, *codes)
    if forged is not None:
        table, proof = forged
        peer.send({"t": "rejoin", "table": table, "proof": proof})
        if message["t"] == "join":  # a join may carry a proof too (a seat held there)
            message = {**message, "proof": proof}
    peer.send(message)
    peer.send({"t": "bye"})
    data = await read_until_closed(peer.reader)
    await peer.close()
    return [welcome, *first, *(frame for _, frame in split_frames(data))]


async def token_campaign(rounds: int) -> tuple[int, int]:
    tried = accepted = 0
    # (A0 earns refusals on purpose, five a round: floods are not what this campaign tests, so
    # the server does not close it as one: `tests/net/test_guard.py` does.)
    limits = {"refusal_burst": 10_000}
    async with running_server(bot_pace=0, heartbeat=3600.0, idle_limit=3600.0, **limits) as (
        server,
        port,
    ):
        a = server.add_table("crates", 2, {"short": True})
        b = server.add_table("crates", 2, {"short": True})
        players: dict[str, RawPeer] = {}
        for label, hosted in (("A", a), ("B", b)):
            for seat in range(2):
                peer = await RawPeer.open(port)
                await peer.sit(hosted.code, seat, f"{label}{seat}")
                players[f"{label}{seat}"] = peer
            for seat in range(2):
                players[f"{label}{seat}"].send({"t": "ready", "ready": True})
                await players[f"{label}{seat}"].until_pong()
        assert a.table is not None and b.table is not None
        for peer in players.values():  # everyone has heard the games begin
            await peer.until_pong()
        tokens = {label: peer.token for label, peer in players.items() if peer.token}
        for _ in range(rounds):
            for name, forge in credentials().items():
                for message in messages_with({}, a.code):
                    before = table_fingerprint(server, a.code)
                    frames = await intrude(port, forge, tokens, (a.code, b.code), message)
                    tried += 1
                    seated_at_a = [
                        f for f in frames if f.get("t") == "seated" and f["table"] == a.code
                    ]
                    updates = [f for f in frames if f.get("t") == "update"]
                    views = [f for f in updates if f["view"]["seat"] is not None]
                    if name == "another table's token":  # a real seat at table B: fine
                        views = [v for v in views if v["view"] != b.table.state.view(0)]
                    changed = table_fingerprint(server, a.code) != before
                    if seated_at_a or changed or (views and name != "another table's token"):
                        accepted += 1
                    assert not seated_at_a and not changed, (name, message, frames)
                    assert tokens["A0"] not in repr(frames) and tokens["A1"] not in repr(frames)
            # A seated player cannot reach another seat either.
            a0 = players["A0"]
            for message in (
                {"t": "rejoin", "table": a.code, "proof": a0.proof(a.code, tokens["A1"])},
                {"t": "join", "table": a.code, "seat": 1},
                {"t": "seat", "seat": 1, "to": "free"},
                {"t": "start"},
                {"t": "action", "v": a.table.version, "action": {"type": "draw"}},
            ):
                before = table_fingerprint(server, a.code)
                a0.send(message)
                news = await a0.until_pong()
                tried += 1
                if table_fingerprint(server, a.code) != before and message["t"] != "action":
                    accepted += 1
                assert all(frame["t"] in ("error", "update") for frame in news), news
                assert tokens["A1"] not in repr(news)
        for peer in players.values():
            await peer.close()
    return tried, accepted


def test_no_false_token_with_any_message_gets_a_seat_or_changes_a_table(caplog):
    caplog.set_level(logging.DEBUG)
    tried, accepted = asyncio.run(token_campaign(rounds=2))
    record("auth", tried=tried, accepted=accepted)
    assert accepted == 0
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert logged, "the server logged nothing: the log check would prove nothing"
    assert not any(len(word) == 64 and all(c in "0123456789abcdef" for c in word)
                   for word in logged.split())  # fmt: skip


def test_nothing_is_read_after_a_refusal_that_hangs_up():
    """A wrong code, then the right one (or a stolen token) in the same packet: never read.

    (Found here: the server went on dispatching the rest of a read after closing, so a refused
    peer could try again without reconnecting, e.g. guess join codes thousands at a time.)
    """

    async def run() -> None:
        async with running_server(code="KRAB") as (server, port):
            hosted = server.add_table("crates", 2)
            peer = await RawPeer.open(port)
            guesses = [
                {"t": "hello", "v": PROTOCOL_VERSION, "name": "g", "code": c}
                for c in ("NOPE", "KRAB")
            ]
            peer.writer.write(b"".join(encode(message) for message in guesses))
            data = await read_until_closed(peer.reader)
            frames = [frame for _, frame in split_frames(data)]
            assert [f["t"] for f in frames] == ["error"] and frames[0]["code"] == "bad-code"
            sitter = await RawPeer.open(port)
            sitter.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "s", "code": "KRAB"})
            sitter.send({"t": "join", "table": hosted.code, "seat": 0})
            news = await sitter.until_pong()
            token = next(f["token"] for f in news if f["t"] == "seated")
            thief = await RawPeer.open(port)  # a wrong code, then a stolen token: never read
            wrong = {"t": "hello", "v": PROTOCOL_VERSION, "name": "t", "code": "NOPE"}
            stolen = {
                "t": "rejoin",
                "table": hosted.code,
                "proof": sitter.proof(hosted.code, token),
            }
            thief.writer.write(encode(wrong) + encode(stolen))
            await read_until_closed(thief.reader)
            assert hosted.seats[0].peer is not None and hosted.seats[0].peer.name == "s"
            for each in (peer, sitter, thief):
                await each.close()

    asyncio.run(run())


@pytest.mark.slow
def test_false_tokens_at_length():
    tried, accepted = asyncio.run(token_campaign(rounds=12))
    record("auth", tried=tried, accepted=accepted)
    assert accepted == 0


def kept_token(path: Path) -> str:
    """The one seat token a client keeps in `path`, as soon as it is there (within 10 s)."""
    for _ in range(1000):
        with contextlib.suppress(OSError, ValueError):
            (tables,) = json.loads(path.read_text()).values()
            (token,) = tables.values()
            return str(token)
        time.sleep(0.01)
    raise AssertionError(f"no seat token was kept in {path}")


def test_tokens_never_reach_the_logs_of_real_processes_or_the_database(tmp_path):
    env = {
        **__import__("os").environ,
        "TABLEGAMES_HOME": str(tmp_path),
        "TABLEGAMES_LOG": "debug",
    }
    db = tmp_path / "host.db"
    host, port = start_host(
        env,
        "--players",
        "2",
        "--short",
        "--pace",
        "0",
        "--bots",
        "random",
        "--humans",
        "1",
        "--db",
        str(db),
    )
    try:
        player = join_bot(env, port, "solo")
        token = kept_token(tmp_path / "seats.json")
        result = finish(player)
        assert result["scores"]
    finally:
        host.terminate()
        try:
            host.wait(timeout=10)
        except subprocess.TimeoutExpired:
            host.kill()
            host.wait(timeout=10)
    assert json.loads((tmp_path / "seats.json").read_text()) == {}  # cleared once it was over
    assert oct((tmp_path / "seats.json").stat().st_mode & 0o777) == "0o600"
    needles = [token.encode(), bytes.fromhex(token)]
    outputs = list(tmp_path.glob("host-*.out")) + list(tmp_path.glob("join-*.log"))
    assert outputs and any(path.read_text() for path in outputs)
    for path in [*outputs, *tmp_path.glob("host.db*")]:
        data = Path(path).read_bytes()
        assert not any(needle in data for needle in needles), f"the token is in {path.name}"
    store = Store(db)
    keys = [seat.token_key for seat in store.load(1).seats if seat.token_key]
    store.close()
    assert keys == [hashlib.sha256(token.encode()).digest()]  # only its hash is kept
    assert cli  # the processes were the real command line


def test_random_is_not_used_by_the_core() -> None:
    """The core's choices come from `secrets`: reseeding `random` changes no seat token."""
    random.seed(1)
    first = Server(ServerConfig()).add_table("crates", 2)
    random.seed(1)
    second = Server(ServerConfig()).add_table("crates", 2)
    peer_a, peer_b = Peer("a"), Peer("b")
    assert first.claim(peer_a, 0)[1] != second.claim(peer_b, 0)[1]
