"""Illegal and out-of-turn actions from any seat (or a spectator) change nothing; only the
sender hears of it. Over real sockets, with a ping/pong barrier on every connection to prove
that nobody else was told anything.
"""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import pytest

from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.rules import IllegalAction

from ..games import GAME_NAMES, case
from .harness import RawPeer, running_server
from .metrics import record
from .scanner import digest

JUNK_FIELDS = [
    None,
    -1,
    2**64 - 1,
    -(2**63),
    2.5,
    "",
    "x" * 300,
    [],
    [1, [2]],
    {"a": {}},
    True,
    "AS",
    "bat",
]


def junk_action(handlers: list[str], rng: random.Random) -> dict[str, Any]:
    """A made-up action: an unknown type, or a real one with fields of every wrong kind."""
    kind = rng.choice([*handlers, "nope", "", "__init__", "_play", None, 7])
    action: dict[str, Any] = {} if kind is None else {"type": kind}
    for name in rng.sample(["card", "cards", "to", "target", "claim", "suit", "guns", "name",
                            "hand", "ocean", "yes", "believe", "sources", "recipients",
                            "choice", "announce"], rng.randint(0, 4)):  # fmt: skip
        action[name] = rng.choice(JUNK_FIELDS)
    return action


def is_refused(state: Any, seat: int | None, action: dict[str, Any]) -> bool:
    """True if the engine refuses `action` from `seat` (tried on a copy of the state)."""
    if seat is None:
        return True  # a spectator holds no seat: the server refuses before the engine
    try:
        copy.deepcopy(state).apply(seat, action, 0.0)
    except IllegalAction:
        return True
    return False


async def clock_settled(table: Any, limit: float = 5.0) -> None:
    """Wait until the server's driver has applied `time` at the game's deadline."""
    async with asyncio.timeout(limit):
        while not table.over and table.state.deadline() is not None:
            await asyncio.sleep(0.02)


async def campaign(name: str, attempts: int, rng: random.Random) -> tuple[int, int]:
    """Try `attempts` illegal actions during one game; returns (tried, changed state)."""
    players = case(name).players
    options = case(name).options(players, rng)
    tried = changed = 0
    # (a campaign of refused actions on purpose: not to be closed as a flood for it)
    config = {"bot_pace": 0, "heartbeat": 3600.0, "idle_limit": 3600.0, "refusal_burst": 10**6}
    async with running_server(**config) as (server, port):
        hosted = server.add_table(name, players, options)
        seats = [await RawPeer.open(port) for _ in range(players)]
        for number, peer in enumerate(seats):
            await peer.sit(hosted.code, number, f"p{number}")
        watcher = await RawPeer.open(port)
        watcher.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "w"})
        watcher.send({"t": "join", "table": hosted.code, "spectate": True})
        everyone = [*seats, watcher]
        for peer in seats:
            peer.send({"t": "ready", "ready": True})
            await peer.until_pong()
        for peer in everyone:  # the last ready started the game: everyone has heard by now
            await peer.until_pong()
        table = hosted.table
        assert table is not None
        handlers = sorted(type(table.state).handlers)
        seen: list[tuple[int, dict[str, Any]]] = []  # (seat, action) once legal, maybe stale now
        while tried < attempts:
            if table.state.deadline() is not None:
                # The game waits on the clock (crabs' double-crab window): the server settles it
                # by itself, and an action arriving after the deadline would be preceded by
                # that change, so nothing is tried until it has happened and been heard.
                await clock_settled(table)
                for peer in everyone:
                    await peer.until_pong()
            sender = rng.choice(everyone)
            candidates = [
                *(a for s in range(players) if s != sender.seat for a in table.state.legal(s)),
                *(a for _, a in seen[-50:]),
                *(junk_action(handlers, rng) for _ in range(5)),
            ]
            action = rng.choice(candidates)
            held = None if sender.seat is None else hosted.seats[sender.seat]
            if held is not None and held.applied_before(table.version, action):
                continue  # a repeat is answered, not refused
            if not is_refused(table.state, sender.seat, action):
                continue
            views = [None, *range(players)]
            before = (table.version, len(table.log), [digest(table.state.view(s)) for s in views])
            sender.send({"t": "action", "v": table.version, "action": action})
            heard = await sender.until_pong()
            others = [await peer.until_pong() for peer in everyone if peer is not sender]
            tried += 1
            after = (table.version, len(table.log), [digest(table.state.view(s)) for s in views])
            changed += after != before
            assert [m["t"] for m in heard] == ["error"] and heard[0]["code"] == "illegal", heard
            assert all(news == [] for news in others), others
            if table.over:
                continue  # keep trying: after the end, nothing is legal at all
            seat = rng.choice(sorted(table.state.waiting_for()))
            move = rng.choice(table.state.legal(seat))
            seen.append((seat, move))
            seats[seat].send({"t": "action", "v": table.version, "action": move})
            for peer in everyone:
                await peer.until_pong()
        for peer in everyone:
            await peer.close()
    return tried, changed


@pytest.mark.parametrize("name", GAME_NAMES)
def test_illegal_actions_change_nothing_and_only_the_sender_hears(name):
    tried, changed = asyncio.run(campaign(name, 250, random.Random()))
    record("illegal", tried=tried, changed=changed)
    assert changed == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_thousands_of_illegal_actions_change_nothing(name):
    tried, changed = asyncio.run(campaign(name, 1200, random.Random()))
    record("illegal", tried=tried, changed=changed)
    assert changed == 0
