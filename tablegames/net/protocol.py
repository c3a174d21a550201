"""The wire protocol, sans I/O: length-prefixed msgpack frames, message schemas, a Connection.

A frame is a 4-byte big-endian length, then one msgpack map of at most `max_frame` bytes. The
length is checked before any body is buffered, bodies are decoded with explicit limits (no ext
types, no binary, string map keys only, bounded sizes and nesting) and every message is checked
against the schema of its type `t`. Bad input never raises: it becomes a `ProtocolError` event,
an `error` frame queued for the peer, and the connection closing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

# 7: `close` (the owner ends a table), lobby chat said `earlier` (told on arrival), the lobby
# carries the night's standings (ratings of the games since the server started);
# 6: a pass for the join code (welcome gives it, hello shows it); 5: updates say since when
# the seat is asked what it is (`asked`); 4: claims (table talk); 3: seats taken back after
# the welcome; the lobby
PROTOCOL_VERSION = 7
MAX_CLIENT_FRAME = 64 * 1024  # what a server accepts from a client
MAX_SERVER_FRAME = 1024 * 1024  # what a client accepts from a server (views can be large)
MAX_DEPTH = 16
MAX_TEXT = 500
HEADER = 4

Message = dict[str, Any]


@dataclass(frozen=True)
class ProtocolError:
    """Input the connection rejected; it sent `error` to the peer and is closing."""

    code: str
    text: str


# -- schemas ----------------------------------------------------------------------------------
# A schema maps each field to (accepted types, required). Unknown fields are refused.
Field = tuple[tuple[type, ...], bool]
Schema = dict[str, Field]
STR, INT, BOOL, MAP, LIST = (str,), (int,), (bool,), (dict,), (list,)
NONE = (type(None),)


def _schema(**fields: Field) -> Schema:
    return {"t": (STR, True), **fields}


#: Messages a client may send.
CLIENT_MESSAGES: dict[str, Schema] = {
    # `ticket`: a proof of identity the party server gave a session it started (SSH logins);
    # `pass`: what the server gave for a right join code, shown instead of the code.
    "hello": _schema(
        v=(INT, True),
        name=(STR, True),
        code=(STR + NONE, False),
        ticket=(STR + NONE, False),
        **{"pass": (STR + NONE, False)},
    ),
    # Take back the seat a token proves (tokens are kept per server, named in `welcome`).
    "rejoin": _schema(token=(STR, True)),
    "lobby": _schema(),
    "create": _schema(
        game=(STR, True),
        players=(INT, True),
        options=(MAP, False),
        bots=(STR + NONE, False),
        humans=(INT + NONE, False),
    ),
    # `token`: a seat we hold there (we went back to the lobby): we take it back.
    "join": _schema(
        table=(STR, True), seat=(INT + NONE, False), spectate=(BOOL, False), token=(STR, False)
    ),
    "ready": _schema(ready=(BOOL, True)),
    "start": _schema(),  # the table's owner: deal now, empty seats become bots
    "seat": _schema(seat=(INT, True), to=(STR, True)),  # the owner: a seat to a "bot", or "free"
    "leave": _schema(),  # back to the lobby
    "rematch": _schema(),  # after a game: the same seats, a new deal
    "close": _schema(table=(STR, True)),  # the table's owner: end it now
    "action": _schema(v=(INT, True), action=(MAP, True)),
    "chat": _schema(text=(STR, True)),
    # A structured public claim (the game's vocabulary: `rules/<game>/talk.py`); rate-limited
    # with chat. Everyone gets it back in the view's `talk` (only new records per connection).
    "claim": _schema(claim=(MAP, True)),
    "ping": _schema(n=(INT, False)),
    "pong": _schema(n=(INT, False)),
    "bye": _schema(),
}

#: Messages a server may send.
SERVER_MESSAGES: dict[str, Schema] = {
    "welcome": _schema(
        v=(INT, True),
        server=(STR, True),
        heartbeat=((int, float), True),
        server_id=(STR, True),  # this server's lasting identity: seat tokens are kept under it
        name=(STR, True),  # the name the server knows you by
        # For a right join code: shown in later hellos, it lets you in without the code (and
        # never held back for wrong codes others gave from your address).
        **{"pass": (STR, False)},
    ),
    # `standings`: the night's table, a row per player and game (see `Store.standings`)
    "lobby": _schema(tables=(LIST, True), standings=(LIST, False)),
    "seated": _schema(
        table=(STR, True),
        game=(STR, True),
        seat=(INT + NONE, True),
        token=(STR + NONE, True),
        names=(LIST, True),
        title=(STR, True),
        owner=(BOOL, False),  # you may start the game and hand seats to bots
    ),
    "presence": _schema(
        seats=(LIST, True),
        spectators=(INT, True),
        text=(STR + NONE, False),
        starts=(STR, False),  # when the game begins, in words
    ),
    "update": _schema(
        version=(INT, True),
        # The view's "log" holds only new entries: the client drops `log_drop` entries from the
        # front of the log it has (a new round, a window moving on) and adds these.
        view=(MAP, True),
        log_drop=(INT, True),
        events=(LIST, True),
        over=(BOOL, True),
        legal=(LIST, True),
        waiting=(LIST, True),
        asked=(INT, True),  # the version since which the seat is asked what it is asked now
    ),
    "ack": _schema(v=(INT, True)),
    "error": _schema(code=(STR, True), text=(STR, True)),
    "chat": _schema(
        name=(STR, True),
        seat=(INT + NONE, True),
        text=(STR, True),
        watching=(BOOL, False),
        earlier=(BOOL, False),  # said in the lobby before you came
    ),
    "ping": _schema(n=(INT, False)),
    "pong": _schema(n=(INT, False)),
    "bye": _schema(text=(STR, False), code=(STR, False)),
}


# -- the view's log, sent as a difference -------------------------------------------------------
LOG_SHIFTS = 8  # how far a window of recent entries may move on and still be sent as a difference


def log_difference(sent: list[Any], log: list[Any]) -> tuple[int, list[Any]]:
    """How to turn the log a peer has (`sent`) into `log`: (entries to drop, entries to add).

    Nothing to drop when the log only grew (the usual case); a few when a window of recent
    entries moved on; everything when the log starts afresh (a new round). `sent` is what this
    connection was sent: both ends start each connection with no log.
    """
    for drop in range(min(len(sent), LOG_SHIFTS) + 1):
        kept = len(sent) - drop
        if kept <= len(log) and log[:kept] == sent[drop:]:
            return drop, log[kept:]
    return len(sent), log


def updated_log(known: list[Any], drop: int, added: list[Any]) -> list[Any]:
    """The log a peer rebuilds from the one it has and an update's difference (a new list)."""
    return known[drop:] + added


def updated_talk(known: list[Any], added: list[Any]) -> list[Any]:
    """The talk a peer rebuilds from the records it has and an update's new ones (a new list):
    each record carries its place `n`, so one sent again replaces, never repeats."""
    if not added:
        return list(known)
    first = added[0].get("n", len(known)) if isinstance(added[0], dict) else len(known)
    first = first if isinstance(first, int) and 0 <= first <= len(known) else len(known)
    return known[:first] + added


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of plain data, stopping early past `limit`."""
    if limit < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def _plain_keys(value: Any) -> bool:
    """True if every map inside `value` has string keys."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain_keys(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain_keys(v) for v in value)
    return True


def check_message(message: Any, schemas: Mapping[str, Schema]) -> str | None:
    """Why `message` does not fit its schema, or None if it does."""
    if not isinstance(message, dict):
        return "a message must be a map"
    if not _plain_keys(message):
        return "map keys must be strings"
    kind = message.get("t")
    if not isinstance(kind, str) or kind not in schemas:
        return f"unknown message type {kind!r}"
    schema = schemas[kind]
    for name, value in message.items():
        if name not in schema:
            return f"{kind}: unknown field {name!r}"
        accepted, _ = schema[name]
        if isinstance(value, bool) and bool not in accepted:
            return f"{kind}: field {name!r} has the wrong type"
        if not isinstance(value, accepted):
            return f"{kind}: field {name!r} has the wrong type"
        if isinstance(value, str) and len(value) > MAX_TEXT:
            return f"{kind}: field {name!r} is too long"
    for name, (_, required) in schema.items():
        if required and name not in message:
            return f"{kind}: field {name!r} is missing"
    if _depth(message, MAX_DEPTH) > MAX_DEPTH:
        return "the message is nested too deeply"
    return None


# -- frames -----------------------------------------------------------------------------------
def encode(message: Message) -> bytes:
    """One frame: the 4-byte big-endian length, then the msgpack body."""
    body: bytes = msgpack.packb(message, use_bin_type=True)
    return len(body).to_bytes(HEADER, "big") + body


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError("extension types are not accepted")


def decode(body: bytes, max_frame: int) -> Any:
    """Decode one frame body with explicit limits; raises ValueError (or a subclass) if bad."""
    return msgpack.unpackb(
        body,
        raw=False,
        strict_map_key=True,
        use_list=True,
        ext_hook=_refuse_ext,
        max_str_len=max_frame,
        max_bin_len=0,
        max_array_len=4096,
        max_map_len=1024,
        max_ext_len=0,
    )


class Connection:
    """One side of a connection: feed it bytes, read messages, queue messages, take bytes to send.

    `inbound` is the schema set for what the peer may send; `max_frame` caps a frame's body;
    `first` is the type the peer's first message must have (a server's: "hello").
    """

    def __init__(
        self,
        inbound: Mapping[str, Schema],
        max_frame: int = MAX_CLIENT_FRAME,
        first: str | None = None,
    ) -> None:
        self.inbound = inbound
        self.max_frame = max_frame
        self.first = first
        self.closing = False
        self._buffer = bytearray()
        self._events: list[Message | ProtocolError] = []
        self._outgoing = bytearray()

    def receive_data(self, data: bytes) -> None:
        """Take bytes from the peer; complete messages (or a ProtocolError) become events."""
        if self.closing:
            return
        self._buffer += data
        while len(self._buffer) >= HEADER:
            length = int.from_bytes(self._buffer[:HEADER], "big")
            if length == 0 or length > self.max_frame:
                self._fail("frame-size", f"a frame must be 1 to {self.max_frame} bytes")
                return
            if len(self._buffer) < HEADER + length:
                return
            body = bytes(self._buffer[HEADER : HEADER + length])
            del self._buffer[: HEADER + length]
            try:
                message = decode(body, self.max_frame)
            except Exception:  # msgpack raises several kinds; all mean the same to the peer
                self._fail("bad-frame", "the frame is not a valid msgpack map")
                return
            problem = check_message(message, self.inbound)
            if problem is not None:
                self._fail("bad-message", problem)
                return
            if self.first is not None:
                if message["t"] != self.first:
                    self._fail(f"{self.first}-first", f"say {self.first} first")
                    return
                self.first = None
            self._events.append(message)

    def receive_eof(self) -> None:
        """The peer closed its side; a half-received frame is an error (and it is told so)."""
        if not self.closing and self._buffer:
            self._fail("truncated", "the connection ended mid-frame")
        self.closing = True

    def events_received(self) -> list[Message | ProtocolError]:
        """Messages and errors received since the last call."""
        events, self._events = self._events, []
        return events

    def send(self, message: Message) -> None:
        """Queue `message` for the peer."""
        self._outgoing += encode(message)

    def data_to_send(self) -> bytes:
        """Bytes queued for the peer since the last call."""
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def _fail(self, code: str, text: str) -> None:
        self.send({"t": "error", "code": code, "text": text})
        self._events.append(ProtocolError(code, text))
        self._buffer.clear()
        self.closing = True
