"""The remote client: a seat (or a spectator's chair) at a table on a server, over TCP.

It speaks the protocol, keeps the latest update, reconnects by itself with its seat token for
`reconnect_window` seconds and resumes with a fresh view. The TUI uses it like `LocalClient`;
`play_as_bot` drives a headless bot with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..bots import get_bot
from ..paths import data_dir, owner_only_file
from ..rules import Action, Game, get_game
from ..table import Update
from .protocol import (
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Connection,
    ProtocolError,
    updated_log,
)

log = logging.getLogger("tablegames.client")


class SeatTokens:
    """Seat tokens saved on disk (owner-only), so a player whose terminal closed can sit back down.

    Keyed by server address and player name, since friends on one box share the directory.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "seats.json"

    def _load(self) -> dict[str, str]:
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return saved if isinstance(saved, dict) else {}

    def get(self, key: str) -> str | None:
        token = self._load().get(key)
        return token if isinstance(token, str) else None

    def put(self, key: str, token: str | None) -> None:
        saved = self._load()
        if token is None:
            saved.pop(key, None)
        else:
            saved[key] = token
        owner_only_file(self.path)
        with open(self.path, "w", encoding="utf-8") as out:
            json.dump(saved, out)


class ConnectionLost(ConnectionError):
    """The connection closed during the handshake (e.g. a server that was just dying)."""


class ServerRefused(Exception):
    """The server said no (wrong code, no such table, no free seat...)."""


def why_not_joined(problem: Exception, host: str, port: int) -> str:
    """A sentence for a player whose join failed with `problem`."""
    where = f"{host}:{port}"
    if isinstance(problem, ServerRefused):
        return f"The table at {where} said no: {str(problem).rstrip('.')}."
    if isinstance(problem, ConnectionRefusedError):
        return f"Nothing answers at {where}. Is `tablegames host` running there, on that port?"
    if isinstance(problem, socket.gaierror):
        return f"There is no machine called {host!r} that this one can find."
    if isinstance(problem, TimeoutError):
        return f"{where} did not answer in time."
    reason = problem.strerror if isinstance(problem, OSError) and problem.strerror else problem
    return f"Could not reach {where}: {reason}."


class RemoteClient:
    """One seat at a remote table (or a spectator when `spectate`)."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        code: str | None = None,
        table: str | None = None,
        seat: int | None = None,
        spectate: bool = False,
        reconnect_window: float = 30.0,
        tokens: SeatTokens | None = None,
    ) -> None:
        self.host, self.port, self.name, self.code = host, port, name, code
        self.table_code, self.wanted_seat, self.spectate = table, seat, spectate
        self.reconnect_window = reconnect_window
        self.tokens = tokens
        self.token: str | None = tokens.get(self._token_key) if tokens and not spectate else None
        self.seat: int | None = None
        self.game: Game | None = None
        self.names: list[str] = []
        self.presence: dict[str, Any] | None = None
        self.latest: Update | None = None
        self._log: list[Any] = []  # the view's log as rebuilt from the updates' new entries
        self.over = False
        self.connected = False
        self.why = ""  # why the last reconnect failed
        self._listeners: list[Callable[[int | None, Update], None]] = []
        self._notices: list[Callable[[str, str], None]] = []
        self._incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._conn = Connection(SERVER_MESSAGES, max_frame=MAX_SERVER_FRAME)
        self._closing = False

    # -- the client interface the TUI uses ----------------------------------------------------
    @property
    def seats(self) -> list[int]:
        return [] if self.seat is None else [self.seat]

    def listen(self, listener: Callable[[int | None, Update], None]) -> None:
        """Call `listener(seat, update)` for every update."""
        self._listeners.append(listener)

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """Call `listener(kind, text)` for errors, chat and presence news."""
        self._notices.append(listener)

    def update(self, seat: int | None = None) -> Update | None:
        return self.latest

    def waiting_for(self) -> frozenset[int]:
        return frozenset(self.latest.waiting) if self.latest else frozenset()

    def submit(self, seat: int | None, action: Action) -> str | None:
        """Send `action`; a refusal comes back later as an `error` notice. None: sent."""
        if self.seat is None or seat != self.seat:
            return "that seat is not yours"
        if not self.connected:
            return "not connected: reconnecting…"
        version = self.latest.version if self.latest else 0
        self._send({"t": "action", "v": version, "action": action})
        return None

    def chat(self, text: str) -> None:
        self._send({"t": "chat", "text": text})

    def ready(self, ready: bool = True) -> None:
        self._send({"t": "ready", "ready": ready})

    async def run_bots(self) -> None:
        """Bots run on the server; nothing to drive here."""

    @property
    def _token_key(self) -> str:
        return f"{self.host}:{self.port}:{self.name}"

    # -- connection -----------------------------------------------------------------------------
    async def connect(self, timeout: float = 10.0) -> None:
        """Connect, say hello and take a seat (or reclaim ours with a saved token).

        Raises ServerRefused, OSError, or TimeoutError when the whole exchange takes too long.
        """
        async with asyncio.timeout(timeout):
            try:
                await self._connect()
            except ServerRefused as refusal:
                if self.token is None or "token" not in str(refusal):
                    raise
                self._forget_token()  # a token from an earlier game: sit down afresh
                await self._connect()

    def _forget_token(self) -> None:
        self.token = None
        if self.tokens is not None:
            self.tokens.put(self._token_key, None)

    async def _connect(self) -> None:
        await self._stop_reading()
        self._incoming = asyncio.Queue()  # nothing from an earlier connection leaks in
        reader, writer = await asyncio.open_connection(self.host, self.port)
        self._writer = writer
        self._conn = Connection(SERVER_MESSAGES, max_frame=MAX_SERVER_FRAME)
        self._log = []  # log differences are against what this connection was sent
        self._reader_task = asyncio.get_running_loop().create_task(self._read(reader))
        hello: dict[str, Any] = {"t": "hello", "v": PROTOCOL_VERSION, "name": self.name}
        if self.code:
            hello["code"] = self.code
        if self.token:
            hello["token"] = self.token
        self._send(hello)
        self.connected = True
        await self._expect("welcome")
        if self.token:
            await self._expect("seated")
            return
        lobby = await self._expect("lobby")
        tables = [t for t in lobby["tables"] if not t["over"]]
        code = self.table_code or (tables[0]["code"] if tables else None)
        if code is None:
            raise ServerRefused("the server has no open table")
        join: dict[str, Any] = {"t": "join", "table": code}
        if self.spectate:
            join["spectate"] = True
        elif self.wanted_seat is not None:
            join["seat"] = self.wanted_seat
        self._send(join)
        seated = await self._expect("seated")
        self.token = seated["token"]
        if self.tokens is not None and self.token is not None:
            self.tokens.put(self._token_key, self.token)

    async def _expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                message = await self._incoming.get()
                if message["t"] == kind:
                    return message
                if message["t"] == "lost":
                    raise ConnectionLost("the server hung up")
                if message["t"] == "error":
                    raise ServerRefused(message["text"])

    def _send(self, message: dict[str, Any]) -> None:
        if self._writer is not None and not self._writer.is_closing():
            self._conn.send(message)
            self._writer.write(self._conn.data_to_send())

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                self._conn.receive_data(data)
                for event in self._conn.events_received():
                    if isinstance(event, ProtocolError):
                        return
                    self._handle(event)
        except (ConnectionError, OSError):
            pass
        finally:
            log.info("%s: connection lost", self.name)
            self.connected = False
            await self._incoming.put({"t": "lost"})

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "ping":
            self._send({"t": "pong"})
            return
        if kind == "seated":
            self.seat, self.names = message["seat"], list(message["names"])
            self.table_code = message["table"]
            self.game = get_game(message["game"])
        elif kind == "presence":
            self.presence = message
            self.names = [s["name"] for s in message["seats"]]
            if message.get("text"):
                self._notify("presence", message["text"])
        elif kind == "update":
            # The server sends only the log entries this connection has not had yet.
            view = message["view"]
            if isinstance(view.get("log"), list):
                self._log = view["log"] = updated_log(self._log, message["log_drop"], view["log"])
            update = Update(
                version=message["version"],
                view=view,
                events=message["events"],
                over=message["over"],
                legal=message["legal"],
                waiting=message["waiting"],
            )
            self.latest, self.over = update, update.over
            for listener in self._listeners:
                listener(self.seat, update)
        elif kind == "error":
            self._notify("error", message["text"])
        elif kind == "chat":
            self._notify("chat", f"{message['name']}: {message['text']}")
        self._incoming.put_nowait(message)

    def _notify(self, kind: str, text: str) -> None:
        for listener in self._notices:
            listener(kind, text)

    async def next_message(self) -> dict[str, Any]:
        """The next message from the server ({"t": "lost"} when the connection dropped)."""
        return await self._incoming.get()

    async def reconnect(self) -> bool:
        """Try to get our seat back for `reconnect_window` seconds; True once resumed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_window
        delay = 0.2
        while not self._closing and loop.time() < deadline:
            try:
                log.info("%s: reconnecting", self.name)
                await self.connect()
                return True
            except (OSError, TimeoutError) as problem:
                log.info("%s: not yet (%r)", self.name, problem)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except ServerRefused as refusal:
                self.why = str(refusal)
                return False
        self.why = "the server did not come back in time"
        return False

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._send({"t": "bye"})
                self._writer.close()
        await self._stop_reading()

    async def _stop_reading(self) -> None:
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task
            self._reader_task = None


async def play_as_bot(client: RemoteClient, level: str, pace: float = 0.0) -> dict[str, Any]:
    """Connect `client`, say ready, and play its seat with a bot until the game ends.

    Returns the final view. Reconnects by itself when the connection drops.
    """
    await client.connect()
    client.ready(True)
    if client.seat is None:
        raise ServerRefused("no seat to play")
    assert client.game is not None  # set by `seated`
    bot = get_bot(client.game.name, level, client.seat, random.Random(secrets.randbits(64)))
    acted_on = -1
    while True:
        message = await client.next_message()
        if message["t"] == "lost":
            if client.over:
                break
            if not await client.reconnect():
                raise ServerRefused(f"lost the connection and cannot sit down again: {client.why}")
            acted_on = -1
            continue
        if message["t"] != "update" or client.latest is None:
            continue
        update = client.latest
        if update.over:
            break
        if update.version == acted_on:  # already answered this state; wait for the next
            continue
        action = bot.choose(update.view, update.legal) if update.legal else None
        if action is not None:
            if pace:
                await asyncio.sleep(pace)
            acted_on = update.version
            client.submit(client.seat, action)
    await client.close()
    if client.latest is None:
        raise ServerRefused("the game never started")
    return client.latest.view
