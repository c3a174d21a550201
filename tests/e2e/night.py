"""Watching a whole party night from outside: a spectator at every table that starts, each
table's actions and who it waits on, and every wait on somebody who is not there.

`Night` speaks the wire protocol itself (a length, then a msgpack map), in a thread of its
own, to the party's join port on loopback: one connection in the lobby learns of the tables,
and one more watches each table once its game has begun (spectators see every seat's comings
and goings and whom the game waits for). A table *waits on an absent player* while a seat it
waits for is held for somebody who is not connected (away: a dropped connection, back in the
lobby); a bot stands in after the takeover time, so such a wait must end (the next action)
within the takeover time and a little more. `Night.freezes` lists every wait longer than
`allowed`; `Night.figures` says per table its actions a minute and its longest such wait.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import struct
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack

from tablegames.net.protocol import PROTOCOL_VERSION

LOOPBACK = "127.0.0.1"
CHECK_EVERY = 0.1  # seconds between looks at the waits (a bound on what a figure misses)


@dataclass
class Watched:
    """One table as its spectator sees it."""

    code: str
    game: str = ""
    versions: list[tuple[float, int]] = field(default_factory=list)  # (when, version)
    waiting: frozenset[int] = frozenset()
    over: bool = False
    absent: dict[int, float] = field(default_factory=dict)  # seat -> since when (our clock)
    longest_absent_wait: float = 0.0
    freezes: list[str] = field(default_factory=list)
    reported: set[tuple[float, float]] = field(default_factory=set)  # waits told of already

    def changed_at(self) -> float:
        return self.versions[-1][0] if self.versions else 0.0

    def actions_per_minute(self) -> float:
        if len(self.versions) < 2:
            return 0.0
        (first, v0), (last, v1) = self.versions[0], self.versions[-1]
        return 60.0 * (v1 - v0) / max(last - first, 1e-9)


class Night:
    """Spectators at every table of a party; see the module's docstring."""

    def __init__(self, port: int, allowed: float) -> None:
        self.port, self.allowed = port, allowed
        self.tables: dict[str, Watched] = {}
        self.lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._stopping = False
        self._watchers: set[asyncio.Task[None]] = set()
        # The loop holds its tasks weakly, and a stream's reader is held weakly too: a task
        # nobody holds is collected mid-read (its connection closed). These are held here.
        self._running: list[concurrent.futures.Future[None]] = []

    def start(self) -> Night:
        self._thread.start()
        for work in (self._lobby(), self._check()):
            self._running.append(asyncio.run_coroutine_threadsafe(work, self._loop))
        return self

    def stop(self) -> None:
        self._stopping = True
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    # -- what the test reads ---------------------------------------------------------------------
    def freezes(self) -> list[str]:
        with self.lock:
            return [line for table in self.tables.values() for line in table.freezes]

    def figures(self) -> dict[str, dict[str, Any]]:
        with self.lock:
            return {
                code: {
                    "game": table.game,
                    "actions": table.versions[-1][1] if table.versions else 0,
                    "actions_per_minute": round(table.actions_per_minute(), 1),
                    "longest_absent_wait_s": round(table.longest_absent_wait, 2),
                    "over": table.over,
                }
                for code, table in self.tables.items()
            }

    def games_seen(self) -> set[str]:
        with self.lock:
            return {table.game for table in self.tables.values() if table.versions}

    # -- the wire --------------------------------------------------------------------------------
    async def _open(self, name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection(LOOPBACK, self.port)
        self._send(writer, {"t": "hello", "v": PROTOCOL_VERSION, "name": name})
        return reader, writer

    @staticmethod
    def _send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        writer.write(struct.pack(">I", len(body)) + body)

    async def _messages(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):  # type: ignore[no-untyped-def]
        while not self._stopping:
            try:
                size = struct.unpack(">I", await reader.readexactly(4))[0]
                message = msgpack.unpackb(await reader.readexactly(size), raw=False)
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            if message.get("t") == "ping":
                self._send(writer, {"t": "pong"})
                continue
            yield message

    async def _lobby(self) -> None:
        reader, writer = await self._open("night-lobby")
        asking = asyncio.get_running_loop().create_task(self._ask_for_the_lobby(writer))
        self._watchers.add(asking)
        async for message in self._messages(reader, writer):
            if message.get("t") != "lobby":
                continue
            for table in message["tables"]:
                code = table["code"]
                if table["started"] and not table["over"] and code not in self.tables:
                    with self.lock:
                        self.tables[code] = Watched(code, table["game"])
                    task = asyncio.get_running_loop().create_task(self._watch(code))
                    self._watchers.add(task)
                    task.add_done_callback(self._watchers.discard)

    async def _ask_for_the_lobby(self, writer: asyncio.StreamWriter) -> None:
        """Ask for the tables every half second besides what the lobby is told (a table that
        starts is watched from its first moments whatever the lobby's news)."""
        while not self._stopping and not writer.is_closing():
            await asyncio.sleep(0.5)
            self._send(writer, {"t": "lobby"})

    async def _watch(self, code: str) -> None:
        reader, writer = await self._open(f"night-{code.lower()}")
        self._send(writer, {"t": "join", "table": code, "spectate": True})
        async for message in self._messages(reader, writer):
            kind, now = message.get("t"), time.monotonic()
            with self.lock:
                table = self.tables[code]
                if kind == "update":
                    self._settle(table, now)
                    table.versions.append((now, message["version"]))
                    table.waiting, table.over = frozenset(message["waiting"]), message["over"]
                elif kind == "presence":
                    self._settle(table, now)
                    absent = {s["seat"] for s in message["seats"] if not s["connected"]}
                    table.absent = {seat: table.absent.get(seat, now) for seat in absent}
                over = table.over
            if over:
                self._send(writer, {"t": "leave"})  # a finished table is forgotten without us
                writer.close()
                return

    def _settle(self, table: Watched, now: float) -> None:
        """A change ends the wait on an absent player, if there was one: count it."""
        wait = self._absent_wait(table, now)
        if wait is not None:
            table.longest_absent_wait = max(table.longest_absent_wait, wait)

    @staticmethod
    def _absent_since(table: Watched) -> float | None:
        """Since when `table` has waited on an absent player (None: it does not)."""
        awaited = [table.absent[seat] for seat in table.waiting if seat in table.absent]
        if table.over or not awaited or not table.versions:
            return None
        return max(max(awaited), table.changed_at())

    def _absent_wait(self, table: Watched, now: float) -> float | None:
        since = self._absent_since(table)
        return None if since is None else now - since

    async def _check(self) -> None:
        while not self._stopping:
            await asyncio.sleep(CHECK_EVERY)
            now = time.monotonic()
            with self.lock:
                for table in self.tables.values():
                    since = self._absent_since(table)
                    if since is None or now - since <= self.allowed:
                        continue
                    episode = (since, table.changed_at())
                    if episode not in table.reported:  # (one line a wait, not one a look)
                        table.reported.add(episode)
                        table.freezes.append(
                            f"table {table.code} ({table.game}) waited more than "
                            f"{self.allowed:.1f} s on absent seat(s) "
                            f"{sorted(set(table.waiting) & set(table.absent))} "
                            f"after version {table.versions[-1][1]}"
                        )
