"""The remote client: a seat (or a spectator's chair) at a table on a server, over TCP.

It speaks the protocol, keeps the latest update, reconnects by itself with its seat token for
`reconnect_window` seconds and resumes with a fresh view. The TUI uses it like `LocalClient`;
`play_as_bot` drives a headless bot with it. A server that has said nothing for a heartbeat
is pinged (it answers at once); one silent for `SILENCE_BEATS` heartbeats is taken for gone,
as a closed connection is. The pass a server gives for a right join code is shown on every
reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import random
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..bots import get_bot, level_note
from ..names import name_key
from ..paths import data_dir, owner_only_draft, owner_only_file
from ..rules import GAMES, Action, Game, get_game
from ..rules.plugins import VARIABLE
from ..table import Update
from .protocol import (
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Connection,
    ProtocolError,
    updated_log,
    updated_talk,
)
from .words import join_line

log = logging.getLogger("tablegames.client")
CHAT_KEPT = 50  # chat lines a client keeps: a flood cannot grow it
SILENCE_BEATS = 3  # heartbeats without a word from the server: it is gone


class SeatTokens:
    """Seat tokens saved on disk (owner-only), so a player whose terminal closed can sit back down.

    Kept under the server's lasting identity (which its welcome names) and the player's name, so
    any address that reaches the same server finds them; within that, one token per table.
    Beside them, the pass each server (by the address it was reached at) gave for its join code.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "seats.json"

    def _load(self) -> dict[str, Any]:
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return saved if isinstance(saved, dict) else {}

    @staticmethod
    def _key(server_id: str, name: str) -> str:
        return f"{server_id}/{name_key(name)}"

    def get(self, server_id: str, name: str) -> dict[str, str]:
        """The tokens `name` holds on that server: table code -> token, newest last."""
        tables = self._load().get(self._key(server_id, name))
        if not isinstance(tables, dict):
            return {}
        return {str(code): token for code, token in tables.items() if isinstance(token, str)}

    def get_pass(self, where: str) -> str | None:
        """The pass the server at `where` (host:port) gave for its join code, if kept."""
        kept = self._load().get(f"pass {where}")
        return kept if isinstance(kept, str) else None

    def put_pass(self, where: str, given: str) -> None:
        """Keep the pass the server at `where` gave: the next `join` there needs no code."""
        with self._locked():
            saved = self._load()
            saved[f"pass {where}"] = given
            self._replace(saved)

    def put(self, server_id: str, name: str, table: str, token: str | None) -> None:
        """Keep `token` for `table` (None: forget it, e.g. once that game is over).

        Several terminals of one user may sit down at once: each change is made under a lock
        and the file replaced whole, so none loses another's token or reads half a file.
        """
        with self._locked():
            saved = self._load()
            key = self._key(server_id, name)
            tables = saved.get(key)
            tables = dict(tables) if isinstance(tables, dict) else {}
            tables.pop(table, None)
            if token is not None:
                tables[table] = token
            if tables:
                saved[key] = tables
            else:
                saved.pop(key, None)
            self._replace(saved)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        lock = owner_only_file(self.path.with_name(self.path.name + ".lock"))
        with open(lock, "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            yield

    def _replace(self, saved: dict[str, Any]) -> None:
        """Write `saved` whole to a draft beside our file, then put it in our file's place."""
        draft = owner_only_draft(self.path)
        draft.write_text(json.dumps(saved), encoding="utf-8")
        os.replace(draft, self.path)


def chat_line(message: dict[str, Any]) -> tuple[str, str]:
    """Who said a `chat` message (spectators marked as such) and what they said."""
    return message["name"] + (" (watching)" if message.get("watching") else ""), message["text"]


class ConnectionLost(ConnectionError):
    """The connection closed during the handshake (e.g. a server that was just dying)."""


def not_installed(game: str) -> str:
    """Why a client cannot play a table of `game`: a game from elsewhere (a plugin) that the
    server loads and this program does not."""
    return (
        f"this table plays {game}, which is not installed here: install its package (or name "
        f"it in {VARIABLE}) to play it"
    )


#: The `error` code a client gives itself for a table of a game it lacks (see `_handle`).
NOT_INSTALLED = "not-installed"


class ServerRefused(Exception):
    """The server said no (wrong code, no such table, no free seat...)."""


class NotInstalled(ServerRefused):
    """The table plays a game this program has not loaded (the server has it)."""


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

    read_only = False
    pace = 0.0  # the server paces the bots
    paces_bots = False

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
        ticket: str | None = None,
    ) -> None:
        self.host, self.port, self.name, self.code = host, port, name, code
        self.table_code, self.wanted_seat, self.spectate = table, seat, spectate
        self.reconnect_window = reconnect_window
        self.tokens = tokens
        self.ticket = ticket  # a party session's proof of who it is (SSH logins)
        self.code_pass: str | None = None  # the server's pass for our right join code
        self.heartbeat: float | None = None  # the server's, once it said welcome
        self.token: str | None = None  # the seat token of this connection's seat
        self.server_id = ""
        self.owner = False  # we created this table: we may start it and give seats away
        self.ended = ""  # set when the server sent us away for good (no reconnecting)
        self.ended_code = ""  # why, in a word: "replaced" (another terminal) or "removed"
        self.chat_lines: deque[tuple[str, str]] = deque(maxlen=CHAT_KEPT)  # (who, line)
        self.seat: int | None = None
        self.game: Game | None = None
        self.names: list[str] = []
        self.presence: dict[str, Any] | None = None
        self.presence_at = 0.0  # when it came (seats' time away counts on from then)
        self.lobby: list[dict[str, Any]] = []  # the server's tables, as its lobby last said
        self.lobby_at = 0.0  # when it said so (seats' time away counts on from then)
        self.standings: list[dict[str, Any]] = []  # the night's ratings, as the lobby last said
        self._held: dict[str, str] = {}  # table code -> our seat's token, on this server
        self.latest: Update | None = None
        self._log: list[Any] = []  # the view's log as rebuilt from the updates' new entries
        self._talk: list[Any] = []  # the view's talk, rebuilt the same way
        self.over = False
        self.connected = False
        self.silent = False  # the last connection ended with the server saying nothing
        self.why = ""  # why the last reconnect failed
        self._listeners: list[Callable[[int | None, Update], None]] = []
        self._notices: list[Callable[[str, str], None]] = []
        self._incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._conn = Connection(SERVER_MESSAGES, max_frame=MAX_SERVER_FRAME)
        self._closing = False
        self._pings = 0  # the last numbered ping sent (`barrier`)

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

    def submit(self, seat: int | None, action: Action, seen: int | None = None) -> str | None:
        """Send `action`, chosen on the view of version `seen` (None: the latest); a refusal
        comes back later as an `error` notice. None: sent."""
        if self.seat is None or seat != self.seat:
            return "that seat is not yours"
        if not self.connected:
            return "not connected: reconnecting…"
        if seen is None:
            seen = self.latest.version if self.latest else 0
        self._send({"t": "action", "v": seen, "action": action})
        return None

    def barrier(self) -> int:
        """Ask the server for a pong numbered by what this returns: the server answers what it
        was sent in order, so once that pong is back every update our earlier messages caused
        (an action applied or refused) has arrived before it."""
        self._pings += 1
        self._send({"t": "ping", "n": self._pings})
        return self._pings

    def chat(self, text: str) -> None:
        self._send({"t": "chat", "text": text})

    def claim(self, seat: int | None, claim: dict[str, Any]) -> str | None:
        """Send a claim for our seat; a refusal comes back as an `error` notice. None: sent."""
        if self.seat is None or seat != self.seat:
            return "that seat is not yours"
        if not self.connected:
            return "not connected: reconnecting…"
        self._send({"t": "claim", "claim": claim})
        return None

    def ready(self, ready: bool = True) -> None:
        self._send({"t": "ready", "ready": ready})

    async def run_bots(self) -> None:
        """Bots run on the server; nothing to drive here."""

    def saved_game(self) -> tuple[int, Path] | None:
        """The server keeps the game; nothing is saved here."""
        return None

    def rating_changes(self) -> dict[int, tuple[float, float]]:
        """Each seat's rating after the game and its change, as the server said with the seats
        once the game was rated ({} before, or from a server that keeps no ratings)."""
        seats = (self.presence or {}).get("seats") or []
        return {
            seat["seat"]: (float(seat["rating"][0]), float(seat["rating"][1]))
            for seat in seats
            if isinstance(seat, dict)
            and isinstance(seat.get("seat"), int)
            and _rating_pair(seat.get("rating"))
        }

    def discard_save(self) -> None:
        """Nothing saved here to forget."""

    def way_back(self) -> str:
        """How to take this seat back after leaving, while the game goes on: the same `join`
        (with the table's code), or for a party's guest the same login."""
        if self.seat is None or self.over or self.table_code is None or self.spectate:
            return ""
        if self.ticket:  # a party session, over SSH
            return "Your seat is kept while the game goes on: log in again the same way for it."
        line = join_line(self.host, self.port, self.name, self.table_code, self.code)
        return f"Your seat is kept while the game goes on; this takes you back to it:\n  {line}"

    def start_now(self) -> None:
        """As the table's creator: deal now, empty seats become bots."""
        self._send({"t": "start"})

    # -- the lobby --------------------------------------------------------------------------------
    def create(
        self,
        game: str,
        players: int,
        bots: str | None = None,
        options: dict[str, Any] | None = None,
        humans: int | None = None,
    ) -> None:
        """Open a new table on the server and sit in its first seat (we may start it)."""
        message: dict[str, Any] = {"t": "create", "game": game, "players": players, "bots": bots}
        if options:
            message["options"] = options
        if humans is not None:
            message["humans"] = humans
        self._send(message)

    def join_table(self, code: str, spectate: bool = False) -> None:
        """Take a seat at table `code` (or watch it); `seated` or an error answers. A seat we
        hold there (we went back to the lobby) is ours again, by its token."""
        self.spectate = spectate
        message: dict[str, Any] = {"t": "join", "table": code}
        if spectate:
            message["spectate"] = True
        elif (token := self._held_token(code)) is not None:
            message["token"] = token
        self._send(message)

    def close_table(self, code: str) -> None:
        """As the creator of table `code`: end it now (everyone there goes to the lobby)."""
        self._send({"t": "close", "table": code})

    def leave(self) -> None:
        """Back to the lobby (a seat at a game under way is held for us)."""
        self._send({"t": "leave"})
        self.forget_table()

    def rematch(self) -> None:
        """After a game: ask for the same seats and a new deal."""
        self._send({"t": "rematch"})

    def forget_table(self) -> None:
        """We are at no table now (we left, or the server sent us back to the lobby)."""
        self.seat = self.game = self.latest = self.presence = None
        self.table_code, self.token, self.owner, self.over = None, None, False, False
        self.names, self._log, self._talk = [], [], []

    # -- connection -----------------------------------------------------------------------------
    async def connect(self, timeout: float = 10.0, lobby: bool = False) -> None:
        """Connect, say hello and take a seat: ours again if we hold one, else a free one (or,
        with `lobby` and no table of ours, stay in the lobby).

        Raises ServerRefused, OSError, or TimeoutError when the whole exchange takes too long.
        """
        async with asyncio.timeout(timeout):
            first = await self.greet()
            if first["t"] == "seated":  # a party login back at the seat it holds
                return
            if lobby and self.table_code is None:
                return  # we were in the lobby: back to it (our seats stay held)
            if await self.take_back():
                return
            await self._sit_down(first)

    async def greet(self) -> dict[str, Any]:
        """Connect and say hello; returns what follows the welcome (`lobby`, or `seated`)."""
        await self._stop_reading()
        self._incoming = asyncio.Queue()  # nothing from an earlier connection leaks in
        reader, writer = await asyncio.open_connection(self.host, self.port)
        self._writer = writer
        self._conn = Connection(SERVER_MESSAGES, max_frame=MAX_SERVER_FRAME)
        self._log, self._talk = [], []  # differences are against what this connection was sent
        self.silent = False
        self._reader_task = asyncio.get_running_loop().create_task(self._read(reader))
        hello: dict[str, Any] = {"t": "hello", "v": PROTOCOL_VERSION, "name": self.name}
        if self.code_pass is None and self.tokens is not None:
            self.code_pass = self.tokens.get_pass(f"{self.host}:{self.port}")
        if self.code:
            hello["code"] = self.code
        if self.code_pass:
            hello["pass"] = self.code_pass
        if self.ticket:
            hello["ticket"] = self.ticket
        self._send(hello)
        self.connected = True
        welcome = await self._expect("welcome")
        self.server_id, self.name = welcome["server_id"], welcome["name"]
        given = welcome.get("pass")
        if given is not None and given != self.code_pass:
            self.code_pass = given
            if self.tokens is not None:
                self.tokens.put_pass(f"{self.host}:{self.port}", given)
        return await self._expect_one_of("lobby", "seated")

    async def take_back(self) -> bool:
        """Sit back down with our seat's token, or one kept for this server; True if we did."""
        if self.spectate:
            return False
        held = self.tokens.get(self.server_id, self.name) if self.tokens is not None else {}
        if self.table_code in held:
            held = {self.table_code: held[self.table_code]}
        candidates = [(self.table_code, self.token)] if self.token else []
        candidates += [(table, token) for table, token in reversed(held.items())]
        for table, token in candidates:
            self._send({"t": "rejoin", "token": token})
            try:
                await self._expect("seated")
            except NotInstalled:
                raise  # the seat is still ours: kept for when the game is installed here
            except ServerRefused:
                if self.tokens is not None and table is not None:
                    self.tokens.put(self.server_id, self.name, table, None)  # an old game's
                continue
            self._keep_token(token)  # (kept as the newest: the table we were last at)
            return True
        self.token = None
        return False

    async def _sit_down(self, lobby: dict[str, Any]) -> None:
        """Join the table asked for, or the first open one."""
        tables = [t for t in lobby["tables"] if not t["over"]]
        code = self.table_code or (tables[0]["code"] if tables else None)
        if code is None:
            raise ServerRefused("the server has no open table")
        game = next((t.get("game") for t in lobby["tables"] if t["code"] == code), None)
        if isinstance(game, str) and game not in GAMES:
            raise NotInstalled(not_installed(game))
        join: dict[str, Any] = {"t": "join", "table": code}
        if self.spectate:
            join["spectate"] = True
        elif self.wanted_seat is not None:
            join["seat"] = self.wanted_seat
        self._send(join)
        await self._expect("seated")  # the token it carries is kept as it arrives

    def _keep_token(self, token: str | None) -> None:
        if token is not None:
            self.token = token
            if self.table_code is not None:
                self._held[self.table_code] = token
            if self.tokens is not None and self.table_code is not None:
                self.tokens.put(self.server_id, self.name, self.table_code, token)

    def _held_token(self, code: str) -> str | None:
        """The token of a seat we hold at table `code`, if we know one."""
        if code in self._held:
            return self._held[code]
        kept = self.tokens.get(self.server_id, self.name) if self.tokens is not None else {}
        return kept.get(code)

    def forget_token(self) -> None:
        """The game here is over: its seat token is of no more use."""
        if self.table_code is not None:
            self._held.pop(self.table_code, None)
        if self.tokens is not None and self.table_code is not None:
            self.tokens.put(self.server_id, self.name, self.table_code, None)

    async def _expect_one_of(self, *kinds: str) -> dict[str, Any]:
        async with asyncio.timeout(10.0):
            while True:
                message = await self._incoming.get()
                if message["t"] in kinds:
                    return message
                if message["t"] == "lost":
                    raise ConnectionLost(self.ended or "the server hung up")
                if message["t"] == "error" and message["code"] == NOT_INSTALLED:
                    raise NotInstalled(message["text"])
                if message["t"] == "error":
                    raise ServerRefused(message["text"])

    async def _expect(self, kind: str) -> dict[str, Any]:
        return await self._expect_one_of(kind)

    def _send(self, message: dict[str, Any]) -> None:
        if self._writer is not None and not self._writer.is_closing():
            self._conn.send(message)
            self._writer.write(self._conn.data_to_send())

    async def _read(self, reader: asyncio.StreamReader) -> None:
        quiet = 0  # heartbeats without a word from the server
        try:
            while True:
                try:
                    async with asyncio.timeout(self.heartbeat):
                        data = await reader.read(65536)
                except TimeoutError:
                    quiet += 1
                    if quiet >= SILENCE_BEATS:
                        log.info("%s: the server went silent", self.name)
                        self.silent = True
                        break
                    self._send({"t": "ping"})  # a server that is there answers at once
                    continue
                quiet = 0
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
            self.heartbeat = None
            if self._writer is not None:
                self._writer.close()  # a silent server's socket is given up, not kept
            await self._incoming.put({"t": "lost"})

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "ping":
            self._send({"t": "pong"})
            return
        if kind == "welcome":
            self.heartbeat = float(message["heartbeat"])
        if kind == "seated" and message["game"] not in GAMES:
            # A game from elsewhere the server has and this program has not: back to the
            # lobby, saying so; the connection stays (the lobby's other tables are playable).
            self._send({"t": "leave"})
            self.forget_table()
            text = not_installed(message["game"])
            self._notify("error", text)
            self._incoming.put_nowait({"t": "error", "code": NOT_INSTALLED, "text": text})
            return
        if kind == "seated":
            self.forget_table()  # a new table (a rematch, or one picked in the lobby)
            self.seat, self.names = message["seat"], list(message["names"])
            self.table_code = message["table"]
            self.owner = bool(message.get("owner"))
            self.game = get_game(message["game"])
            # A seat taken back comes without its token: the one we hold for it goes on.
            held = self._held.get(self.table_code) if self.seat is not None else None
            self._keep_token(message["token"] or held)
        elif kind == "lobby":
            self.lobby, self.lobby_at = list(message["tables"]), time.monotonic()
            self.standings = list(message.get("standings") or [])
        elif kind in ("update", "presence") and self.table_code is None:
            return  # from a table we left before it knew (one of a game this program lacks)
        elif kind == "presence":
            self.presence, self.presence_at = message, time.monotonic()
            self.names = [s["name"] for s in message["seats"]]
            self._notify("seats", "")
            if message.get("text"):
                self._notify("presence", message["text"])
        elif kind == "update":
            # The server sends only the log entries this connection has not had yet.
            view = message["view"]
            if isinstance(view.get("log"), list):
                self._log = view["log"] = updated_log(self._log, message["log_drop"], view["log"])
            if isinstance(view.get("talk"), list):
                self._talk = view["talk"] = updated_talk(self._talk, view["talk"])
            update = Update(
                version=message["version"],
                view=view,
                events=message["events"],
                over=message["over"],
                legal=message["legal"],
                waiting=message["waiting"],
                asked=message["asked"],
            )
            self.latest, self.over = update, update.over
            if update.over:
                self.forget_token()
            for listener in self._listeners:
                listener(self.seat, update)
        elif kind == "error":
            if message["code"] == "table-closed":
                self.forget_table()  # the server sent us back to the lobby
            self._notify("error", message["text"])
        elif kind == "chat":
            who, text = chat_line(message)
            if message.get("earlier") and (who, text) in self.chat_lines:
                return  # (said before we came, and told again on a reconnect)
            self.chat_lines.append((who, text))
            if not message.get("earlier"):
                self._notify("chat", f"{who}: {text}")
        elif kind == "bye" and message.get("code") in ("replaced", "removed"):
            self.ended = str(message.get("text", "the server sent you away"))
            self.ended_code = str(message["code"])
        self._incoming.put_nowait(message)

    def _notify(self, kind: str, text: str) -> None:
        for listener in self._notices:
            listener(kind, text)

    async def next_message(self) -> dict[str, Any]:
        """The next message from the server ({"t": "lost"} when the connection dropped)."""
        return await self._incoming.get()

    async def reconnect(self, lobby: bool = False) -> bool:
        """Try to get our seat back for `reconnect_window` seconds (with `lobby`, back to the
        lobby when we had no table); True once resumed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_window
        delay = 0.2
        if self.ended:
            self.why = self.ended
            return False
        while not self._closing and loop.time() < deadline:
            try:
                log.info("%s: reconnecting", self.name)
                await self.connect(lobby=lobby)
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

    It never answers a question it has answered: an answer goes with the version of the view
    it was chosen on, and until the server has had it (a `barrier` pong, after every update the
    answer caused) no update is answered, since those sent before it still ask the question
    answered (another seat's move in a game where several are asked at once). Then the newest
    update is answered if it asks anew: another question (its `asked` moved on), or the same
    one again in a newer version (crates asks "play or draw" again after a draw).
    """
    await client.connect()
    client.ready(True)
    if client.seat is None:
        raise ServerRefused("no seat to play")
    assert client.game is not None  # set by `seated`
    note = level_note(client.game)  # the level was chosen before the game was known
    if note is not None:
        log.warning("%s", note)
    bot = get_bot(client.game.name, level, client.seat, random.Random(secrets.randbits(64)))
    answered: tuple[int, int] | None = None  # (asked, version) of the last question answered
    on_its_way: int | None = None  # the barrier our last answer waits behind
    while True:
        message = await client.next_message()
        if message["t"] == "lost":
            if client.over:
                break
            if not await client.reconnect():
                raise ServerRefused(f"lost the connection and cannot sit down again: {client.why}")
            answered = on_its_way = None  # the seat's view anew: its question as it is now
            continue
        if message["t"] == "pong" and message.get("n") == on_its_way:
            on_its_way = None  # every update our answer caused has come: look at the newest
        elif message["t"] != "update":
            continue
        update = client.latest
        if update is None or on_its_way is not None:
            continue
        if update.over:
            break
        speak = getattr(bot, "speak", None)  # a bot that talks says what it says now
        if speak is not None and "talk" in update.view:
            for claim in speak(update.view):
                client.claim(client.seat, claim)
        if answered is not None and answered == (update.asked, update.version):
            continue  # answered already (and refused, the table unchanged): wait for a change
        action = bot.choose(update.view, update.legal) if update.legal else None
        if action is not None:
            if pace:
                await asyncio.sleep(pace)
            answered = (update.asked, update.version)
            client.submit(client.seat, action, seen=update.version)
            on_its_way = client.barrier()
    await client.close()
    if client.latest is None:
        raise ServerRefused("the game never started")
    return client.latest.view


def _rating_pair(value: object) -> bool:
    """True if `value` is a seat's (rating, change) as a server sends it."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )
