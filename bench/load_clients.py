"""Headless bot clients for the server bench: every seat of many tables, from one process.

    python -m bench.load_clients --port P --codes B0000,B0001,... [--game crates] [--players 4]
                                 [--loop uvloop]

Each seat is one TCP connection speaking the wire protocol directly (frames from
`tablegames.net.protocol`, read as plain maps: the server is trusted here) with a `normal` bot.
Only one seat the game waits for acts (the first: votes go round in turn), so there are never
two actions racing at a table; a bot that would rather wait (real-time crabs' reaction times)
plays its first listed move instead, so that the load never stalls.

Commands come on stdin, one per line, and each answers with one JSON line on stdout:
`connect` (open every seat and wait for every game to start), `paced SECONDS RATE` (each table
acts RATE times a second), `flat SECONDS` (each table acts as soon as its update arrives),
`quit`. Latency is measured from writing an action to the moment the last seat of its table has
received the update it caused; a seat that misses a version counts as a lost frame.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

import msgspec

from tablegames.bots import get_bot
from tablegames.net.protocol import HEADER, PROTOCOL_VERSION, encode

from .figures import latency_ms
from .server_host import load_plugins, rss_kb, run_on

CONNECT_BATCH = 50  # connections opened at once (the server's listen backlog is 100)
DRAIN = 1.0  # seconds to let in-flight actions finish after a phase


class LoadTable:
    """One table's seats, its pacing slot and the actions in flight (version -> time sent)."""

    def __init__(self, code: str, players: int, offset: float) -> None:
        self.code, self.players, self.offset = code, players, offset
        self.seats: list[SeatClient] = []
        self.sent: dict[int, float] = {}  # the version an action will create -> when it was sent
        self.arrived: dict[int, int] = {}
        self.next_slot = 0.0
        self.over = False
        self.started = False


class Load:
    """Every table, the phase being run and what it has measured."""

    def __init__(self, tables: list[LoadTable], game: str = "crates") -> None:
        self.tables, self.game = tables, game
        self.mode = "idle"  # idle, paced, flat
        self.interval = 1.0
        self.latencies: list[float] = []
        self.sent = self.completed = 0
        self.lost = self.errors = self.dropped = self.duplicates = 0
        self.updates = self.bytes = 0
        self.error_texts: dict[str, int] = {}


class SeatClient(asyncio.Protocol):
    """One seat's connection: frames in, bot decisions out."""

    def __init__(self, load: Load, table: LoadTable, seat: int) -> None:
        self.load, self.table, self.seat = load, table, seat
        self.bot = get_bot(load.game, "normal", seat, random.Random(f"{table.code}-{seat}"))
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None
        self.seated: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.last_version: int | None = None
        self.latest: dict[str, Any] | None = None
        self.closed = False

    # -- asyncio.Protocol ---------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no subclass
        self.send({"t": "hello", "v": PROTOCOL_VERSION, "name": f"{self.table.code}-{self.seat}"})
        self.send({"t": "join", "table": self.table.code, "seat": self.seat})
        self.send({"t": "ready", "ready": True})

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.load.mode != "quit":
            self.load.dropped += 1
        if not self.seated.done():
            self.seated.set_exception(ConnectionError("closed before being seated"))

    def data_received(self, data: bytes) -> None:
        self.load.bytes += len(data)
        buffer = self.buffer
        buffer += data
        while len(buffer) >= HEADER:
            length = int.from_bytes(buffer[:HEADER], "big")
            if len(buffer) < HEADER + length:
                return
            message = msgspec.msgpack.decode(buffer[HEADER : HEADER + length])
            del buffer[: HEADER + length]
            self.on_message(message)

    # -- messages -----------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        if self.transport is not None and not self.closed:
            self.transport.write(encode(message))

    def on_message(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "update":
            self.on_update(message)
        elif kind == "ping":
            self.send({"t": "pong"})
        elif kind == "seated":
            if not self.seated.done():
                self.seated.set_result(None)
        elif kind == "error":
            self.load.errors += 1
            text = str(message.get("text"))
            self.load.error_texts[text] = self.load.error_texts.get(text, 0) + 1
            if not self.seated.done():
                self.seated.set_exception(ConnectionError(text))

    def on_update(self, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        load, table = self.load, self.table
        load.updates += 1
        version: int = message["version"]
        if self.last_version is not None:
            if version > self.last_version + 1:
                load.lost += version - self.last_version - 1
            elif version <= self.last_version:
                load.duplicates += 1
        self.last_version = version
        self.latest = message
        table.started = True
        sent = table.sent.get(version)
        if sent is not None:
            count = table.arrived.get(version, 0) + 1
            if count == table.players:
                load.latencies.append(now - sent)
                load.completed += 1
                del table.sent[version], table.arrived[version]
            else:
                table.arrived[version] = count
        if message["over"]:
            table.over = True
            return
        self.maybe_act()

    def maybe_act(self) -> None:
        """Act if the game waits for this seat and a phase is running (paced or at once)."""
        message, load = self.latest, self.load
        if message is None or load.mode not in ("paced", "flat") or message["over"]:
            return
        waiting, legal = message["waiting"], message["legal"]
        if not waiting or self.seat != min(waiting) or not legal:
            return
        action = self.bot.choose(message["view"], legal) or legal[0]
        version = message["version"]
        if load.mode == "flat":
            self.act(version, action)
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        at = max(now, self.table.next_slot)
        self.table.next_slot = at + load.interval
        loop.call_later(at - now, self.act_if_paced, version, action)

    def act_if_paced(self, version: int, action: dict[str, Any]) -> None:
        if self.load.mode == "paced":
            self.act(version, action)

    def act(self, version: int, action: dict[str, Any]) -> None:
        self.table.sent[version + 1] = time.perf_counter()
        self.load.sent += 1
        self.send({"t": "action", "v": version, "action": action})


async def connect_all(load: Load, host: str, port: int) -> dict[str, Any]:
    """Open every seat (CONNECT_BATCH at a time) and wait for every table's game to start."""
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    failed = 0
    seats = [(table, seat) for table in load.tables for seat in range(table.players)]

    async def one(table: LoadTable, seat: int) -> SeatClient:
        _, client = await loop.create_connection(lambda: SeatClient(load, table, seat), host, port)
        await asyncio.wait_for(client.seated, 10)
        return client

    for first in range(0, len(seats), CONNECT_BATCH):
        batch = seats[first : first + CONNECT_BATCH]
        results = await asyncio.gather(*(one(t, s) for t, s in batch), return_exceptions=True)
        for (table, _), result in zip(batch, results, strict=True):
            if isinstance(result, SeatClient):
                table.seats.append(result)
            else:
                failed += 1
        if failed == len(seats[: first + CONNECT_BATCH]):
            break  # nothing gets through: say so now rather than after every batch
    connected = time.perf_counter() - started
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:
        if all(t.started and all(s.latest is not None for s in t.seats) for t in load.tables):
            break
        await asyncio.sleep(0.05)
    return {
        "event": "connected",
        "connections": sum(len(t.seats) for t in load.tables),
        "failed": failed,
        "connect_s": round(connected, 3),
        "connections_per_s": round(sum(len(t.seats) for t in load.tables) / connected, 1),
        "tables_started": sum(1 for t in load.tables if t.started),
        "client_rss_kb": rss_kb(),
    }


async def run_phase(load: Load, mode: str, seconds: float, rate: float) -> dict[str, Any]:
    """Run one phase for `seconds`, then let in-flight actions land; its figures."""
    load.latencies = []
    load.sent = load.completed = load.lost = load.errors = load.duplicates = 0
    load.updates = load.bytes = 0
    load.error_texts = {}
    dropped_before = load.dropped
    load.interval = 1.0 / rate if rate else 0.0
    loop = asyncio.get_running_loop()
    now = loop.time()
    for index, table in enumerate(load.tables):
        table.sent.clear()
        table.arrived.clear()
        # Spread the tables' first slots over one interval, so a paced load is smooth.
        table.next_slot = now + (index / len(load.tables)) * load.interval
    load.mode = mode
    started = time.perf_counter()
    cpu = time.process_time()
    for table in load.tables:
        for client in table.seats:
            client.maybe_act()
    await asyncio.sleep(seconds)
    load.mode = "idle"
    elapsed = time.perf_counter() - started
    await asyncio.sleep(DRAIN)
    cpu = time.process_time() - cpu
    in_flight = sum(len(t.sent) for t in load.tables)
    # Every seat of a table must end on the same version: a seat behind lost its last frames.
    behind = 0
    for table in load.tables:
        versions = [s.last_version or 0 for s in table.seats]
        if versions:
            behind += sum(max(versions) - v for v in versions)
    return {
        "event": mode,
        "seconds": round(elapsed, 3),
        "rate_per_table": rate if mode == "paced" else None,
        "actions_sent": load.sent,
        "actions_done": load.completed,
        "actions_per_s": round(load.completed / elapsed, 1),
        "updates_per_s": round(load.updates / (elapsed + DRAIN), 1),
        "mb_received_per_s": round(load.bytes / (elapsed + DRAIN) / 1e6, 3),
        "latency": latency_ms(load.latencies),
        "frames_lost": load.lost + behind,
        "unanswered_actions": in_flight,
        "errors": load.errors,
        "error_texts": dict(list(load.error_texts.items())[:5]),
        "duplicates": load.duplicates,
        "dropped_connections": load.dropped - dropped_before,
        "tables_over": sum(1 for t in load.tables if t.over),
        "client_cpu_s": round(cpu, 3),
    }


async def main_async(args: argparse.Namespace) -> None:
    codes = args.codes.split(",")
    tables = [LoadTable(code, args.players, index / len(codes)) for index, code in enumerate(codes)]
    load = Load(tables, args.game)
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "connect":
            answer = await connect_all(load, args.host, args.port)
        elif words[0] == "paced":
            answer = await run_phase(load, "paced", float(words[1]), float(words[2]))
        elif words[0] == "flat":
            answer = await run_phase(load, "flat", float(words[1]), 0.0)
        else:
            answer = {"event": "error", "text": f"unknown command {words[0]!r}"}
        print(json.dumps(answer), flush=True)
    load.mode = "quit"
    for table in tables:
        for client in table.seats:
            if client.transport is not None:
                client.transport.close()
    await asyncio.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", choices=("127.0.0.1", "::1", "localhost"))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--codes", required=True)
    parser.add_argument("--game", default="crates", help="the game the tables play")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio")
    args = parser.parse_args(argv)
    load_plugins()
    run_on(args.loop, main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
