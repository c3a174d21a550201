"""The asyncio game server: connections, deadlines, heartbeats, lobby, tables and bots.

One task per connection reads bytes into a sans-I/O `Connection`; messages are dispatched to
the hosted tables; everything a player is told is built from `view(seat)` by the table. A peer
that stops reading is dropped once its unsent bytes pass a cap; a peer that sends no complete
message within the idle limit (silent, half-open or trickling) is dropped too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..drivers import drive_bots
from ..store import Store
from .collector import CollectorSchedule
from .guard import RateLimit
from .hosting import HostedTable
from .messages import Error, Ping, ServerMessage
from .party import Party, PartyConfig
from .party.tables import Tables
from .proofs import endpoint
from .protocol import MAX_CLIENT_FRAME, ProtocolError, server_side

log = logging.getLogger("tablegames.server")


@dataclass
class ServerConfig(PartyConfig):
    """How a server behaves; every limit is a setting so tests can shrink them."""

    host: str = "127.0.0.1"
    port: int = 0
    idle_limit: float = 15.0  # no complete message for this long: the peer is gone
    handshake_limit: float = 5.0  # time to say hello
    max_queued: int = 256 * 1024  # unsent bytes before a peer counts as not reading
    bot_pace: float = 0.3
    close_grace: float = 2.0  # a closed peer's unsent bytes get this long, then it is cut off
    scheduled_collector: bool = True  # the collector's full passes kept out of the tail
    refusals_per_second: float = 2.0  # refused messages a peer may earn on average...
    refusal_burst: int = 40  # ...and at once, before it is closed as a flood


class PortUnavailable(OSError):
    """The server could not listen where it was asked to; the message is a sentence."""

    def __init__(self, host: str, port: int, problem: OSError) -> None:
        import errno

        if problem.errno == errno.EADDRINUSE:
            text = (
                f"port {port} is already in use (is another tablegames host running?): "
                "pick another with --port"
            )
        elif problem.errno == errno.EACCES:
            text = f"this user may not listen on port {port}: pick one above 1024 with --port"
        else:
            text = f"cannot listen on {host}:{port}: {problem.strerror or problem}"
        super().__init__(problem.errno, text)
        self.text = text

    def __str__(self) -> str:
        return self.text


class Client:
    """One connected peer: its protocol state, socket writer, and where it sits."""

    def __init__(self, server: Server, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.writer = writer
        self.conn = server_side()
        self.name = "guest"
        peer = writer.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.reached = endpoint(writer.get_extra_info("sockname"))  # what proofs are bound to
        self.nonce = ""  # this connection's challenge, once welcomed
        self.proving: str | None = None  # a key the hello offered, until it is proven
        self.greeted = False
        self.identity: str | None = None
        self.key: str | None = None
        self.table: HostedTable | None = None
        config = server.config
        self.chat_limit = RateLimit(config.chat_per_second, config.chat_burst)
        self.request_limit = RateLimit(config.requests_per_second, config.request_burst)
        self.refusal_limit = RateLimit(config.refusals_per_second, config.refusal_burst)
        self.closed = False
        self.last_message = time.monotonic()
        self.last_ping = 0.0

    def send(self, message: ServerMessage) -> None:
        """Send `message` through the protocol; a peer whose unsent bytes pass the cap is
        dropped, and the table goes on."""
        if self.closed or self.writer.is_closing():  # gone (maybe by the peer's hand): drop it
            return
        self.conn.send(message)
        self.flush()

    def flush(self) -> None:
        """Write what the protocol has queued (its refusals too)."""
        data = self.conn.data_to_send()
        if not data or self.closed:
            return
        if (
            self.writer.transport.get_write_buffer_size() + len(data)
            > self.server.config.max_queued
        ):
            log.info("dropping %s: not reading", self.name)
            self.close()
            return
        self.writer.write(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            transport = self.writer.transport
            if self._stuck():
                transport.abort()
            else:
                self.writer.close()
                if transport.get_write_buffer_size():
                    # A graceful close waits for the peer to read what is left; one that never
                    # reads would keep the socket for ever, so it is cut off after a grace.
                    loop = asyncio.get_running_loop()
                    loop.call_later(self.server.config.close_grace, transport.abort)

    def _stuck(self) -> bool:
        return self.writer.transport.get_write_buffer_size() > self.server.config.max_queued // 2


class Server:
    """Hosts a party's tables and serves their players over TCP."""

    def __init__(
        self,
        config: ServerConfig | None = None,
        store: Store | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config or ServerConfig()
        self.store = store
        self._clock_changed = asyncio.Event()
        self.party = Party(
            self.config,
            store,
            self._drive,
            ended=self._stop_driving,
            clock_changed=self._clock_changed.set,
            clock=clock,
        )
        self.clients: set[Client] = set()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._connections: set[asyncio.Task[Any]] = set()
        self._drivers: dict[int, asyncio.Task[None]] = {}  # by id(hosted): its bots' driver
        self.collector = CollectorSchedule() if self.config.scheduled_collector else None
        self.port: int | None = None  # where it listens, once started
        self.ssh_port: int | None = None  # a party's SSH front door beside it, if any
        self.web_port: int | None = None  # and its browser door, if any

    # -- tables ---------------------------------------------------------------------------------
    @property
    def tables(self) -> Tables:
        return self.party.tables

    def add_table(self, game: str, players: int, *args: Any, **kwargs: Any) -> HostedTable:
        """Open a table for `game` (see `Tables.open`); players join it by its code."""
        return self.party.tables.open(game, players, *args, **kwargs)

    def restore_tables(self) -> list[HostedTable]:
        """Bring back every unfinished table from the store (call before `start`)."""
        return self.party.tables.restore()

    def _drive(self, hosted: HostedTable) -> None:
        """Drive `hosted`'s bots (and clock) until its game ends, or the table does."""
        assert hosted.table is not None
        task = self._spawn(drive_bots(hosted.table, self.config.bot_pace))
        key = id(hosted)
        self._drivers[key] = task
        task.add_done_callback(lambda done: self._drivers.pop(key, None))

    def _stop_driving(self, hosted: HostedTable) -> None:
        task = self._drivers.pop(id(hosted), None)
        if task is not None:
            task.cancel()

    # -- life cycle -----------------------------------------------------------------------------
    async def start(self) -> int:
        """Listen; returns the port (useful with port 0). Restored games' bots start too."""
        for hosted in self.tables.values():
            if hosted.table is not None and not hosted.table.over:
                self._drive(hosted)
        try:
            self._server = await asyncio.start_server(
                self._serve_client, self.config.host, self.config.port, limit=MAX_CLIENT_FRAME
            )
        except OSError as problem:
            raise PortUnavailable(self.config.host, self.config.port, problem) from None
        self._spawn(self._heartbeat())
        self._spawn(self._keep_time())
        if self.collector is not None:
            self.collector.start()
        port: int = self._server.sockets[0].getsockname()[1]
        self.port = port
        return port

    async def serve_forever(self) -> None:
        assert self._server is not None
        async with self._server:
            await self._server.serve_forever()

    async def close(self) -> None:
        """Stop listening, hang up on everyone and stop every task."""
        if self._server is not None:
            self._server.close()
        if self.collector is not None:
            self.collector.stop()
        for client in list(self.clients):
            client.close()
        # Connection tasks end by themselves once their sockets close (cancelling one that
        # asyncio's stream server started makes it log a spurious error); the rest is ours.
        if self._connections:
            await asyncio.wait(list(self._connections), timeout=2.0)
        tasks = list(self._tasks | self._connections)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        self.party.refusals.flush()

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _keep_time(self) -> None:
        """Run the party's clock (`Timekeeper.tick`): at each takeover due, when a seat's person
        has just left (it may be due sooner), and every quarter heartbeat for the tables."""
        while True:
            self._clock_changed.clear()
            now = self.party.clock()
            due = self.party.timekeeper.tick(now)
            wait = self.config.heartbeat / 4
            if due is not None:
                wait = min(wait, max(due - now, 0.0) + 0.001)
            with contextlib.suppress(TimeoutError):  # (not wait_for: it may swallow a cancel)
                async with asyncio.timeout(wait):
                    await self._clock_changed.wait()

    async def _heartbeat(self) -> None:
        """Ping each peer that has been quiet for a heartbeat, and drop the silent ones (the
        party's clock, `_keep_time`, ends the tables that are no longer live).

        Peers that talk need no ping; the others are pinged on their own schedule (the sweep
        runs four times a heartbeat), so a thousand idle peers are not all pinged at once.
        """
        beat = self.config.heartbeat
        while True:
            await asyncio.sleep(beat / 4)
            now = time.monotonic()
            for client in list(self.clients):
                quiet = now - client.last_message
                if quiet > self.config.idle_limit:
                    log.info("dropping %s: silent", client.name)
                    client.close()
                elif client.greeted and quiet >= beat and now - client.last_ping >= beat:
                    client.last_ping = now
                    client.send(Ping())

    # -- one connection -------------------------------------------------------------------------
    async def _serve_client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        client = Client(self, writer)
        self.clients.add(client)
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)
        try:
            while not client.closed and not client.conn.closing:
                limit = self.config.idle_limit if client.greeted else self.config.handshake_limit
                remaining = limit - (time.monotonic() - client.last_message)
                try:
                    async with asyncio.timeout(max(remaining, 0.01)):  # no task per read
                        data = await reader.read(65536)
                except TimeoutError:
                    client.send(Error(code="timeout", text="no message in time"))
                    break
                if not data:
                    client.conn.receive_eof()
                    break
                client.conn.receive_data(data)
                for event in client.conn.events_received():
                    if isinstance(event, ProtocolError):
                        log.info("closing %s: %s", client.name, event.code)
                        break
                    if client.closed:  # refused and hung up on: what came after is not read
                        break
                    client.last_message = time.monotonic()
                    self.party.receive(client, event)
                client.flush()
                if not client.closed:
                    with contextlib.suppress(ConnectionError):
                        await writer.drain()
        except (ConnectionError, OSError):
            pass
        except Exception:  # never let one connection take the server down
            log.exception("unexpected error serving %s", client.name)
        finally:
            client.flush()
            self._goodbye(client)

    def _goodbye(self, client: Client) -> None:
        self.clients.discard(client)
        self.party.seating.goodbye(client)
        client.close()
