"""Crashes: a server process with several tables is killed (SIGKILL) at random instants while
games run, restarted on its database, and every player reconnects by itself.

Afterwards every update any player received is compared with a replay of the saved log at that
version: every acknowledged action is there, in order; none was applied twice (each player also
resends its last action after every reconnect, as a client that never saw the answer would);
and the final views equal the replay.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tablegames.net.client import RemoteClient
from tablegames.net.client_protocol import ConnectionLost
from tablegames.net.messages import Act, Error, ViewUpdate
from tablegames.rules import get_game
from tablegames.rules.crabs import deal_with_fours
from tablegames.store import Store
from tablegames.testing.harness import LOOPBACK
from tablegames.testing.metrics import record
from tablegames.testing.scanner import digest

from ..e2e.processes import announced, free_port_outside_ephemeral_range

ROOT = Path(__file__).resolve().parents[2]


STALLED = 30.0  # seconds without news to anyone: the games have stopped
LONGEST = 600.0  # seconds the games are given in all


def start_host(db: Path, port: int, spec: list[Any]) -> subprocess.Popen[bytes]:
    """Start the crash host; returns once it listens (bounded wait)."""
    out = db.with_suffix(f".{time.monotonic_ns()}.out")
    with out.open("wb") as sink:
        host = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.crash_host", str(db), str(port),
             json.dumps(spec)],
            cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT,
        )  # fmt: skip
    announced(host, out, "port", 20, "the crash host")
    return host


@dataclass
class Player:
    """A remote seat that plays at random, records every update and resends after reconnects."""

    client: RemoteClient
    rng: random.Random
    seen: list[tuple[int, bytes]] = field(default_factory=list)  # (version, view digest)
    reconnects: int = 0
    failure: str = ""
    connected: asyncio.Event = field(default_factory=asyncio.Event)

    async def play(self) -> None:
        client = self.client
        client.listen(lambda seat, update: self.seen.append((update.version, game_view(update))))
        await client.connect(timeout=20)
        self.connected.set()
        client.ask.ready(True)
        acted_on, last = -1, None
        while True:
            event = await client.next_event()
            if isinstance(event, ConnectionLost):
                if client.over:
                    return
                if not await client.reconnect():
                    self.failure = client.why
                    return
                self.reconnects += 1
                if last is not None:  # did the server get it? ask again: it must not count twice
                    client.send(Act(seen=last[0], action=last[1]))
                acted_on = -1
                continue
            if isinstance(event, Error):
                acted_on = -1
            elif not isinstance(event, ViewUpdate):
                continue
            update = client.latest
            if update is None or update.over:
                if update is not None:
                    return
                continue
            if update.version == acted_on or not update.legal:
                continue
            if client.seat in update.waiting or self.rng.random() < 0.05:
                acted_on = update.version
                action = self.rng.choice(update.legal)
                last = (update.version, action)
                client.submit(client.seat, action)


def table_spec(rng: random.Random) -> list[list[Any]]:
    return [
        ["CRAT", "crates", 3, {"short": True}, "random"],
        ["ROAC", "roach", 3, {}, None],
        ["KRAK", "kraken", 5, {}, "random"],
        ["CRAB", "crabs", 4, deal_with_fours(4, rng, pot=2), None],
    ]


def remote_seats(spec: list[list[Any]]) -> list[tuple[str, int]]:
    seats = []
    for code, _, players, _, bots in spec:
        remote = players - 1 if bots else players
        seats += [(code, seat) for seat in range(remote)]
    return seats


async def crash_session(tmp: Path, kills: int, rng: random.Random) -> dict[str, int]:
    """One host, four tables, `kills` SIGKILLs at random moments (fewer if the games end)."""
    db = tmp / f"crash-{time.monotonic_ns()}.db"
    port = free_port_outside_ephemeral_range()
    spec = table_spec(rng)
    host = await asyncio.to_thread(start_host, db, port, spec)
    players = []
    # A seat lost at one kill may find the host only after the next ones: its window outlasts
    # them all (each restart may take the host's 20 s to listen, longer on a loaded machine).
    window = 30.0 * (kills + 1)
    for code, seat in remote_seats(spec):
        client = RemoteClient(LOOPBACK, port, f"{code}{seat}", table=code, seat=seat,
                              reconnect_window=window)  # fmt: skip
        players.append(Player(client, random.Random(rng.getrandbits(64))))
    games = asyncio.gather(*(player.play() for player in players), return_exceptions=True)
    done_kills = 0
    try:
        # Kills come once everyone is seated: a kill before a first connection is a failed
        # start (a busy machine may take seconds to start all the players), not a crash.
        seated = asyncio.gather(*(player.connected.wait() for player in players))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(seated), timeout=60)
        for _ in range(kills):
            await asyncio.sleep(rng.uniform(0.15, 0.9))
            if games.done():
                break
            host.send_signal(signal.SIGKILL)
            await asyncio.to_thread(host.wait, 10)
            done_kills += 1
            host = await asyncio.to_thread(start_host, db, port, spec)
        stalled = await until_ended_or_stalled(games, players)
        outcomes = await games if games.done() else []
        for player in players:
            await player.client.close()
    finally:
        if host.poll() is None:
            host.send_signal(signal.SIGKILL)
            host.wait(10)
    assert all(outcome is None for outcome in outcomes), outcomes
    for player in players:  # (said with the totals: why a seat did not come back)
        if player.failure:
            print(f"{player.client.name} did not come back: {player.failure}")
    return {"kills": done_kills, "stalled": stalled, **check_against_replay(db, players)}


async def until_ended_or_stalled(games: asyncio.Future[Any], players: list[Player]) -> bool:
    """Wait while the games go on: until they end, or no player has been told anything for
    `STALLED` seconds (a restored table that stopped: True), or `LONGEST` seconds in all.

    A random crabs game can run to thousands of actions: on a loaded machine it went on past
    the two minutes once given to all, and its players, closed by the test, counted as lost.
    And a crabs table whose players had said they were ready to a host killed before it read
    them waited here for ever, before their clients said it again on taking their seats back
    (`ClientProtocol._seated`)."""
    loop = asyncio.get_running_loop()
    began = last_news = loop.time()
    told = -1
    while not games.done() and loop.time() < began + LONGEST:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(games), timeout=1)
        now_told = sum(len(player.seen) for player in players)
        if now_told != told:
            told, last_news = now_told, loop.time()
        elif loop.time() > last_news + STALLED:
            return True
    return False


def game_view(update: Any) -> bytes:
    """The digest of an update's view as the engine gives it: without the table's talk."""
    return digest({key: value for key, value in update.view.items() if key != "talk"})


def check_against_replay(db: Path, players: list[Player]) -> dict[str, int]:
    """Lost actions, double applications and view mismatches, from the store and a replay."""
    store = Store(db)
    saved = {t.code: t for t in (store.load(i) for i in range(1, 5))}
    store.close()
    lost = twice = mismatches = updates = unfinished = 0
    # A game that ended just before a kill is not restored (a finished table is history): its
    # players, away for its last update, are told on their reconnect how it ended (seen 2
    # runs in ~15, all three roach seats). Not a lost seat.
    ended_away = {
        player.client.name
        for player in players
        if player.client.table_code in saved
        and saved[player.client.table_code].finished is not None
        and player.failure.startswith(f"the game at table {player.client.table_code} is over: ")
    }
    for code, table in saved.items():
        game = get_game(table.game)
        state = game.new(table.players, table.seed, **table.options)
        owed = [{s: digest(state.view(s)) for s in range(table.players)}]
        for seat, action, now in table.log:
            state.apply(seat, action, now)
            owed.append({s: digest(state.view(s)) for s in range(table.players)})
        unfinished += not state.over or table.finished is None
        pairs = collections.Counter(
            (seat, version, json.dumps(action, sort_keys=True))
            for (seat, action, _), version in zip(table.log, table.client_versions, strict=True)
            if version is not None
        )
        twice += sum(count - 1 for count in pairs.values())
        for player in players:
            if player.client.table_code != code or player.client.seat is None:
                continue
            seat = player.client.seat
            for version, view in player.seen:
                updates += 1
                if version >= len(owed):
                    lost += 1  # told of a version the saved log never reached
                elif owed[version][seat] != view:
                    mismatches += 1
            if player.seen and player.seen[-1][1] != owed[-1][seat]:
                mismatches += player.client.name not in ended_away
    return {
        "lost": lost,
        "twice": twice,
        "mismatches": mismatches,
        "updates": updates,
        "unfinished": unfinished,
        "reconnects": sum(p.reconnects for p in players),
        "failures": sum(bool(p.failure) and p.client.name not in ended_away for p in players),
        "ended_while_away": len(ended_away),
    }


def run_kills(tmp: Path, kills: int) -> dict[str, int]:
    rng = random.Random()
    totals: collections.Counter[str] = collections.Counter()
    while totals["kills"] < kills:
        result = asyncio.run(crash_session(tmp, kills - totals["kills"], rng))
        totals.update(result)
        if result["kills"] == 0:
            break
    record("crash", **totals)
    return dict(totals)


def check(totals: dict[str, int]) -> None:
    assert totals["lost"] == 0, totals
    assert totals["twice"] == 0, totals
    assert totals["mismatches"] == 0, totals
    assert totals["stalled"] == 0, f"no news to anyone for {STALLED:.0f} s: {totals}"
    assert totals["unfinished"] == 0 and totals["failures"] == 0, totals
    assert totals["reconnects"] > 0, totals


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_server_loses_nothing_and_applies_nothing_twice(tmp_path):
    totals = run_kills(tmp_path, kills=3)
    assert totals["kills"] >= 1
    check(totals)


@pytest.mark.slow
def test_fifty_kills(tmp_path):
    totals = run_kills(tmp_path, kills=50)
    assert totals["kills"] == 50
    check(totals)
