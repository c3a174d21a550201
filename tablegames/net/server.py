"""The asyncio game server: connections, deadlines, heartbeats, lobby, tables and bots.

One task per connection reads bytes into a sans-I/O `Connection`; messages are dispatched to
the hosted tables; everything a player is told is built from `view(seat)` by the table. A peer
that stops reading is dropped once its unsent bytes pass a cap; a peer that sends no complete
message within the idle limit (silent, half-open or trickling) is dropped too.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..rules import Action, IllegalAction, get_game
from ..store import OutdatedRules, Store
from ..table import drive_bots
from .hosting import HostedTable, Seat, new_code
from .names import clean_name, clean_text
from .protocol import (
    CLIENT_MESSAGES,
    MAX_CLIENT_FRAME,
    PROTOCOL_VERSION,
    Connection,
    ProtocolError,
    encode,
)

log = logging.getLogger("tablegames.server")
CHAT_LIMIT = 300


@dataclass
class ServerConfig:
    """How a server behaves; every limit is a setting so tests can shrink them."""

    host: str = "127.0.0.1"
    port: int = 0
    code: str | None = None  # when set, `hello` must carry it (required with --lan)
    heartbeat: float = 5.0  # a ping this often
    idle_limit: float = 15.0  # no complete message for this long: the peer is gone
    handshake_limit: float = 5.0  # time to say hello
    max_queued: int = 256 * 1024  # unsent bytes before a peer counts as not reading
    bot_pace: float = 0.3
    takeover_after: float | None = None  # seconds before a bot plays a dropped seat
    takeover_level: str = "normal"
    close_grace: float = 2.0  # a closed peer's unsent bytes get this long, then it is cut off


class Client:
    """One connected peer: its protocol state, socket writer, and where it sits."""

    def __init__(self, server: Server, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.writer = writer
        self.conn = Connection(CLIENT_MESSAGES, max_frame=MAX_CLIENT_FRAME)
        self.name = "guest"
        self.greeted = False
        self.table: HostedTable | None = None
        self.closed = False
        self.last_message = time.monotonic()
        self.last_ping = 0.0

    def send(self, message: dict[str, Any]) -> None:
        """Queue `message`; a peer whose unsent bytes pass the cap is dropped, the table goes on."""
        if self.closed or self.writer.is_closing():  # gone (maybe by the peer's hand): drop it
            return
        frame = encode(message)
        if (
            self.writer.transport.get_write_buffer_size() + len(frame)
            > self.server.config.max_queued
        ):
            log.info("dropping %s: not reading", self.name)
            self.close()
            return
        self.writer.write(frame)

    def flush(self) -> None:
        data = self.conn.data_to_send()
        if data and not self.closed:
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
    """Hosts tables and serves their players over TCP."""

    def __init__(self, config: ServerConfig | None = None, store: Store | None = None) -> None:
        self.config = config or ServerConfig()
        self.store = store
        self.tables: dict[str, HostedTable] = {}
        self.clients: set[Client] = set()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._connections: set[asyncio.Task[Any]] = set()
        self._bot_wakeups: dict[str, asyncio.Event] = {}
        self.on_action: Callable[[HostedTable, int, Action, float], None] | None = None

    # -- tables ---------------------------------------------------------------------------------
    def add_table(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        fill_with_bots: str | None = None,
        code: str | None = None,
    ) -> HostedTable:
        """Open a table for `game`; players join it by its code."""
        info = get_game(game)
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"{info.title} takes {info.min_players}–{info.max_players} players")
        code = code or new_code()
        while code in self.tables:
            code = new_code()
        hosted = HostedTable(
            code=code,
            game=info,
            players=players,
            options=dict(options or {}),
            seed=seed,
            fill_with_bots=fill_with_bots,
            on_action=self._record_action,
            store=self.store,
        )
        self.tables[code] = hosted
        return hosted

    def restore_tables(self) -> list[HostedTable]:
        """Bring back every unfinished table from the store (call before `start`)."""
        if self.store is None:
            return []
        restored = []
        for saved in self.store.open_tables("server"):
            try:
                saved.check_rules()
            except OutdatedRules as problem:
                log.warning("not restoring table %s: %s", saved.code, problem)
                continue
            hosted = HostedTable.restore(saved, self.store, on_action=self._record_action)
            self.tables[hosted.code] = hosted
            restored.append(hosted)
        return restored

    def _record_action(self, hosted: HostedTable, seat: int, action: Action, now: float) -> None:
        wakeup = self._bot_wakeups.get(hosted.code)
        if wakeup is not None:
            wakeup.set()
        if self.on_action is not None:
            self.on_action(hosted, seat, action, now)

    def _start(self, hosted: HostedTable) -> None:
        hosted.start()
        self._drive(hosted)

    def _drive(self, hosted: HostedTable) -> None:
        assert hosted.table is not None
        wakeup = asyncio.Event()
        self._bot_wakeups[hosted.code] = wakeup
        self._spawn(drive_bots(hosted.table, self.config.bot_pace, wakeup))

    # -- life cycle -----------------------------------------------------------------------------
    async def start(self) -> int:
        """Listen; returns the port (useful with port 0). Restored games' bots start too."""
        for hosted in self.tables.values():
            if hosted.table is not None and not hosted.table.over:
                self._drive(hosted)
        self._server = await asyncio.start_server(
            self._serve_client, self.config.host, self.config.port, limit=MAX_CLIENT_FRAME
        )
        self._spawn(self._heartbeat())
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def serve_forever(self) -> None:
        assert self._server is not None
        async with self._server:
            await self._server.serve_forever()

    async def close(self) -> None:
        """Stop listening, hang up on everyone and stop every task."""
        if self._server is not None:
            self._server.close()
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

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _heartbeat(self) -> None:
        """Ping each peer that has been quiet for a heartbeat, and drop the silent ones.

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
                    client.send({"t": "ping"})

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
                    client.send({"t": "error", "code": "timeout", "text": "no message in time"})
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
                    self._dispatch(client, event)
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
        if client.table is not None:
            client.table.detach(client, time.monotonic())
            self._schedule_takeover(client.table)
        client.close()

    def _schedule_takeover(self, hosted: HostedTable) -> None:
        after = self.config.takeover_after
        if after is None or hosted.table is None:
            return
        loop = asyncio.get_running_loop()
        for seat in hosted.seats:
            if seat.dropped_at is not None and seat.bot_level is None:
                loop.call_later(after, self._take_over, hosted, seat, seat.dropped_at)

    def _take_over(self, hosted: HostedTable, seat: Seat, dropped_at: float) -> None:
        if seat.dropped_at == dropped_at and seat.peer is None:  # still gone since then
            hosted.take_over(seat, self.config.takeover_level)
            wakeup = self._bot_wakeups.get(hosted.code)
            if wakeup is not None:
                wakeup.set()

    # -- messages -------------------------------------------------------------------------------
    def _dispatch(self, client: Client, message: dict[str, Any]) -> None:
        kind = message["t"]
        if not client.greeted and kind != "hello":
            self._refuse(client, "hello-first", "say hello first", close=True)
            return
        handler: Callable[[Client, dict[str, Any]], None] = getattr(self, f"_on_{kind}")
        try:
            handler(client, message)
        except IllegalAction as refusal:
            log.info("refused %s from %s: %s", kind, client.name, refusal)
            client.send({"t": "error", "code": "illegal", "text": str(refusal)})

    def _refuse(self, client: Client, code: str, text: str, close: bool = False) -> None:
        client.send({"t": "error", "code": code, "text": text})
        if close:
            client.close()

    def _on_hello(self, client: Client, message: dict[str, Any]) -> None:
        if client.greeted:
            raise IllegalAction("you already said hello")
        if message["v"] != PROTOCOL_VERSION:
            self._refuse(client, "version", f"this server speaks version {PROTOCOL_VERSION}", True)
            return
        expected = self.config.code
        given = message.get("code") or ""
        if expected is not None and not hmac.compare_digest(given.upper(), expected.upper()):
            self._refuse(client, "bad-code", "wrong join code", close=True)
            return
        client.name = clean_name(message["name"]) or "guest"
        token = message.get("token")
        if token is not None:
            found = self._find_token(token)
            if found is None:
                self._refuse(client, "bad-token", "that seat token is not valid here", close=True)
                return
            client.greeted = True
            self._welcome(client)
            hosted, seat = found
            log.info("%s takes seat %d of table %s back", client.name, seat.number, hosted.code)
            self._sit(client, hosted, seat.number, token=None)
            hosted.attach(seat, client)
            if hosted.table is not None:
                client.send(hosted.update_message(hosted.table.update_for(seat.number), client))
            return
        client.greeted = True
        self._welcome(client)
        self._on_lobby(client, message)

    def _find_token(self, token: str) -> tuple[HostedTable, Seat] | None:
        found = None
        for hosted in self.tables.values():  # look everywhere, so timing says nothing
            seat = hosted.seat_for_token(token)
            if seat is not None:
                found = (hosted, seat)
        return found

    def _welcome(self, client: Client) -> None:
        client.send(
            {
                "t": "welcome",
                "v": PROTOCOL_VERSION,
                "server": "tablegames",
                "heartbeat": self.config.heartbeat,
            }
        )

    def _on_lobby(self, client: Client, message: dict[str, Any]) -> None:
        client.send({"t": "lobby", "tables": [t.summary() for t in self.tables.values()]})

    def _on_join(self, client: Client, message: dict[str, Any]) -> None:
        if client.table is not None:
            raise IllegalAction("you are already at a table")
        hosted = self.tables.get(str(message["table"]).upper())
        if hosted is None:
            raise IllegalAction("no table with that code")
        if message.get("spectate"):
            self._sit(client, hosted, None, None)
            hosted.watch(client)
            return
        seat, token = hosted.claim(client, message.get("seat"))
        self._sit(client, hosted, seat, token)
        client.send(hosted.presence(None))

    def _sit(
        self, client: Client, hosted: HostedTable, seat: int | None, token: str | None
    ) -> None:
        client.table = hosted
        names = [s.name for s in hosted.seats]
        client.send(
            {
                "t": "seated",
                "table": hosted.code,
                "game": hosted.game.name,
                "title": hosted.game.title,
                "seat": seat,
                "token": token,
                "names": names,
            }
        )

    def _on_ready(self, client: Client, message: dict[str, Any]) -> None:
        hosted = client.table
        if hosted is None or hosted.seat_of(client) is None:
            raise IllegalAction("take a seat first")
        hosted.set_ready(client, message["ready"])
        if hosted.ready_to_start():
            self._start(hosted)

    def _on_action(self, client: Client, message: dict[str, Any]) -> None:
        hosted = client.table
        if hosted is None:
            raise IllegalAction("you are not at a table")
        hosted.act(client, message["v"], message["action"])

    def _on_chat(self, client: Client, message: dict[str, Any]) -> None:
        hosted = client.table
        if hosted is None:
            raise IllegalAction("join a table to chat")
        if not hosted.game.chat:
            raise IllegalAction(f"{hosted.game.title} has no chat: use gestures")
        text = clean_text(message["text"], CHAT_LIMIT)
        if text:
            seat = hosted.seat_of(client)
            number = seat.number if seat is not None else None
            hosted.broadcast({"t": "chat", "name": client.name, "seat": number, "text": text})

    def _on_ping(self, client: Client, message: dict[str, Any]) -> None:
        client.send({"t": "pong", **({"n": message["n"]} if "n" in message else {})})

    def _on_pong(self, client: Client, message: dict[str, Any]) -> None:
        pass  # any complete message keeps the connection alive

    def _on_bye(self, client: Client, message: dict[str, Any]) -> None:
        client.close()
