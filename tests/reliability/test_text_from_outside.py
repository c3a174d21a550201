"""Strangers at the join port (issue 39): what they type reaches no terminal as escapes (the
host's log, another player's frames, their own refusals), no name they take looks like someone
else's, and no chat line carries a tower of marks.

Everything talks to loopback only; counts go to `bench/reliability.py`'s scoreboard.
"""

from __future__ import annotations

import io
import logging
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablegames.names import name_key
from tablegames.net.logs import host_log_handler
from tablegames.net.party import Login
from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.store import Store
from tablegames.testing.harness import RawPeer, read_frames, running_server
from tablegames.testing.metrics import record

from .servers import server_with

#: The issue's escapes: retitle, clear, forge a line, hide what follows, fill the clipboard.
PAYLOAD = "\x1b]0;PWNED\x07\x1b[2J\x1b[H12:00:00 forged line\x1b[8m\x1b]52;c;cm0gLXJm\x07\u202e"
TOWER = "Z" + "\u0301" * 100
#: What a stranger tries at a server once greeted: escapes in every string it may send.
ATTEMPTS: list[dict[str, Any]] = [
    {"t": "join", "table": PAYLOAD},
    {"t": "join", "table": PAYLOAD, "spectate": True},
    {"t": "create", "game": PAYLOAD, "players": 2},
    {"t": "create", "game": "crates", "players": 2, "options": {PAYLOAD: 1}},
    {"t": "create", "game": "crates", "players": 2, "options": {"rounds": PAYLOAD}},
    {"t": "create", "game": "crates", "players": 2, "bots": PAYLOAD},
    {"t": "chat", "text": PAYLOAD},
    {"t": "chat", "text": TOWER},
]


def unsafe(text: str) -> bool:
    """True if `text` holds a character a terminal acts on or hides (newlines aside)."""
    return any(not char.isprintable() for char in text.replace("\n", ""))


def strings(value: Any) -> Iterator[str]:
    """Every string in a decoded frame (keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def marks_after_a_letter(text: str) -> int:
    """The most combining marks on one letter of `text`."""
    most = run = 0
    for char in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


@pytest.fixture
def host_log() -> Iterator[io.StringIO]:
    """What the host's terminal would show: every record, through the host's log handler."""
    out = io.StringIO()
    handler = host_log_handler(out)
    root = logging.getLogger()
    level = logging.getLogger("tablegames").level
    logging.getLogger("tablegames").setLevel(logging.INFO)
    root.addHandler(handler)
    yield out
    root.removeHandler(handler)
    logging.getLogger("tablegames").setLevel(level)


async def greeted(port: int, name: str) -> tuple[RawPeer, list[dict[str, Any]]]:
    peer = await RawPeer.open(port)
    peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name})
    return peer, await peer.until_pong()


async def answers_to(peer: RawPeer, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send `messages` one by one, each answered before the next; everything the peer was sent."""
    answers = []
    for message in messages:
        peer.send(message)
        answers += await peer.until_pong()
    return answers


async def first_answer(port: int, name: str) -> dict[str, Any]:
    """What the server answers a hello as `name` with: a welcome or a refusal."""
    peer = await RawPeer.open(port)
    peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name})
    (answer,) = await read_frames(peer.reader, 1)
    await peer.close()
    return answer


async def test_escapes_from_a_stranger_reach_no_terminal(host_log: io.StringIO):
    async with running_server(refusal_burst=100) as (_, port):
        friend, _ = await greeted(port, "friend")  # in the lobby: sees its chat and tables
        stranger, _ = await greeted(port, f"x{PAYLOAD}")
        theirs = await answers_to(stranger, ATTEMPTS)
        stranger.send({"t": "create", "game": "crates", "players": 3})  # at a table of its own
        stranger.send({"t": "seat", "seat": 1, "to": PAYLOAD})
        stranger.send({"t": "action", "v": 0, "action": {"type": PAYLOAD}})
        theirs += await stranger.until_pong()
        friends = await friend.until_pong()
        payloads = len(ATTEMPTS) + 3
        to_players = [s for s in strings(friends) if unsafe(s)]
        to_stranger = [s for s in strings(theirs) if unsafe(s)]
        told = [f["text"] for f in theirs if f["t"] == "error"]
        chat = [f["text"] for f in friends if f["t"] == "chat"]
        await friend.close()
        await stranger.close()
    lines = host_log.getvalue().splitlines()
    in_log = [line for line in lines if unsafe(line)]
    record(
        "outside",
        tcp_payloads=payloads,
        tcp_control_in_log=len(in_log),
        tcp_control_to_players=len(to_players) + len(to_stranger),
        marks_sent=100,
        max_marks_delivered=marks_after_a_letter(chat[1]),
    )
    assert not in_log and not to_players and not to_stranger, (in_log, to_players, to_stranger)
    assert any("there is no table \\x1b]0;PWNED" in text for text in told), told  # written out
    assert any("there is no table \\x1b]0;PWNED" in line for line in lines), lines
    assert len(chat) == 2 and marks_after_a_letter(chat[1]) <= 2, chat


LOOK_ALIKES = ["Аlice", "a1ice", "AIice", "guest‐bob", "gueѕt-bob", "ɡuest-bob", "Bоt 2", "Bot l2"]


async def test_a_name_that_looks_like_someone_elses_is_refused(tmp_path: Path):
    store = Store(tmp_path / "names.db")
    async with server_with(store) as (server, port):
        store.claim_name(name_key("alice"), "alice", "SHA256:alice")  # a key owns alice
        ticket = server.party.doors.ticket_for(Login("carol", "SHA256:carol", "carol", "10.0.0.5"))
        carol = await RawPeer.open(port)  # carol is in over SSH (a key, not owned yet)
        carol.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "x", "ticket": ticket})
        await carol.until_pong()
        dave, _ = await greeted(port, "dave")  # and dave, a plain join, sits at a table
        dave.send({"t": "create", "game": "crates", "players": 3})
        await dave.until_pong()
        admitted, refusals = [], []
        for name in [*LOOK_ALIKES, "caroI", "cаrol", "dɑve"]:
            answer = await first_answer(port, name)
            if answer["t"] != "error":
                admitted.append(name)
            else:
                refusals.append(answer["text"])
        assert not admitted, admitted
        assert "a1ice looks like alice" in refusals[1], refusals
        assert any("mixes" in text for text in refusals), refusals
        fine, _ = await greeted(port, "Сергей")  # a name in one script is a name
        await fine.close()
        record("outside", lookalikes_tried=len(LOOK_ALIKES) + 3, lookalikes_admitted=len(admitted))
        for peer in (carol, dave):
            await peer.close()


async def test_a_table_refuses_a_look_alike_of_a_name_at_it():
    async with running_server() as (server, port):
        hosted = server.add_table("crates", 3, fill_with_bots="normal")
        sara = await RawPeer.open(port)
        await sara.sit(hosted.code, name="sara")
        for name in ("Sаra", "sarɑ", "Bоt 3"):  # came in over SSH: its name was not checked here
            ticket = server.party.doors.ticket_for(
                Login(name, None, f"{name}@10.0.0.7", "10.0.0.7")
            )
            peer = await RawPeer.open(port)
            peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "x", "ticket": ticket})
            peer.send({"t": "join", "table": hosted.code})
            frames = await peer.until_pong()
            errors = [f["text"] for f in frames if f["t"] == "error"]
            assert errors and "join under another name" in errors[0], (name, frames)
            await peer.close()
        await sara.close()
