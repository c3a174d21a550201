"""The wire protocol, sans I/O: length-prefixed msgpack frames of typed messages, a Connection.

A frame is a 4-byte big-endian length, then one msgpack map of at most `max_frame` bytes: a
message of `messages.py`. The length is checked before any body is buffered; a body is decoded
and validated in one call (msgspec: the message's type by its `t`, every field's type, no
unknown field, strings of its own fields `MAX_TEXT` long at most) and a game's plain data in it
is checked for shape (string map keys only, no binary or extension types, `MAX_DEPTH` levels
of nesting, `MAX_ITEMS` and `MAX_KEYS` long lists and maps). Bad input never raises: it becomes
a `ProtocolError` event, an `error` frame queued for the peer, and the connection closing.
In the tests (`Connection.checking`), what we send is checked as the peer will check it: a
message that does not fit is our bug, and `send` raises `UnfitMessage`.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, TypeVar

import msgspec

from ..text import visible
from .messages import (
    MAX_TEXT,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    Message,
    ServerMessage,
)

# 8: `seated` says whether the game is `dealt` (a seat taken back mid-game waits for nobody),
# a table's chat said `earlier` to whoever sits down there (the lobby's only in the lobby);
# 7: `close` (the owner ends a table), lobby chat said `earlier` (told on arrival), the lobby
# carries the night's standings (ratings of the games since the server started);
# 8: seats (and `join`'s key) proven by answers to the welcome's nonce, never by the token;
# 7: a table's owner closes it, `join` takes a held seat back, standings; 6: a pass for the
# join code (welcome gives it, hello shows it); 5: updates say since when
# the seat is asked what it is (`asked`); 4: claims (table talk); 3: seats taken back after
# the welcome; the lobby
PROTOCOL_VERSION = 8
MAX_CLIENT_FRAME = 64 * 1024  # what a server accepts from a client
MAX_SERVER_FRAME = 1024 * 1024  # what a client accepts from a server (views can be large)
MAX_DEPTH = 16  # maps and lists inside each other, the message's own map included
MAX_ITEMS = 4096  # the longest list
MAX_KEYS = 1024  # the longest map
HEADER = 4


@dataclass(frozen=True)
class ProtocolError:
    """Input the connection rejected; it sent `error` to the peer and is closing."""

    code: ErrorCode
    text: str


class BadInput(ValueError):
    """A frame's body is not a message of the kind expected; `code` says how, in a word."""

    def __init__(self, code: ErrorCode, text: str) -> None:
        super().__init__(text)
        self.code, self.text = code, text


class UnfitMessage(TypeError):
    """A message we were about to send does not fit the protocol: a bug on our side."""


# -- the view's log, sent as a difference -------------------------------------------------------
LOG_SHIFTS = 8  # how far a window of recent entries may move on and still be sent as a difference
#: An entry of a view's log (an event) or of its table talk (a record), as either end holds it.
Entry = TypeVar("Entry")


def log_difference(sent: list[Entry], log: list[Entry]) -> tuple[int, list[Entry]]:
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


def updated_log(known: list[Entry], drop: int, added: list[Entry]) -> list[Entry]:
    """The log a peer rebuilds from the one it has and an update's difference (a new list)."""
    return known[drop:] + added


def updated_talk(known: list[Entry], added: list[Entry]) -> list[Entry]:
    """The talk a peer rebuilds from the records it has and an update's new ones (a new list):
    each record carries its place `n`, so one sent again replaces, never repeats."""
    if not added:
        return list(known)
    first = added[0].get("n", len(known)) if isinstance(added[0], dict) else len(known)
    first = first if isinstance(first, int) and 0 <= first <= len(known) else len(known)
    return known[:first] + added


# -- frames -------------------------------------------------------------------------------------
@cache
def _decoder(kind: Any) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(kind, ext_hook=_refuse_ext)


def _refuse_ext(code: int, data: memoryview) -> Any:
    raise ValueError("extension types are not accepted")


_encoder = msgspec.msgpack.Encoder()


def frame(body: bytes) -> bytes:
    """One frame: the 4-byte big-endian length, then `body`."""
    return len(body).to_bytes(HEADER, "big") + body


def encode(message: Message) -> bytes:
    """`message` as one frame (unchecked: `Connection.send` checks it for its peer)."""
    return frame(_encoder.encode(message))


def decode(body: bytes, kind: Any) -> Any:
    """One frame body as a message of `kind` (a union of messages), validated; raises
    `BadInput` if it is not one."""
    try:
        message = _decoder(kind).decode(body)
    except msgspec.ValidationError as refused:
        raise BadInput("bad-message", str(refused)) from None
    except RecursionError:
        raise BadInput("bad-message", "the message is nested too deeply") from None
    except Exception:  # malformed msgpack, trailing bytes, extension types: all one to the peer
        raise BadInput("bad-frame", "the frame is not a valid msgpack map") from None
    problem = shape_problem(message, MAX_DEPTH)
    if problem is not None:
        raise BadInput("bad-message", problem)
    return message


def shape_problem(value: object, room: int) -> str | None:
    """Why `value` is not plain data nested at most `room` deep (None: it is)."""
    if value is None or isinstance(value, str | int | float):  # (bool is an int)
        return None
    if room <= 0:
        return "the message is nested too deeply"
    if isinstance(value, msgspec.Struct):
        value = msgspec.structs.astuple(value)
    if isinstance(value, dict):
        if len(value) > MAX_KEYS:
            return "a map is too long"
        if not all(isinstance(key, str) for key in value):
            return "map keys must be strings"
        value = list(value.values())
    if isinstance(value, list | tuple):
        if len(value) > MAX_ITEMS:
            return "a list is too long"
        for item in value:
            problem = shape_problem(item, room - 1)
            if problem is not None:
                return problem
        return None
    return "binary data is not accepted"


class Connection:
    """One side of a connection: feed it bytes, read messages, queue messages, take bytes to send.

    `receives` is the union of messages the peer may send, `sends` what we may; `max_frame`
    caps a frame's body; with `hello_first` (a server's end) the peer's first must be a hello.
    """

    #: Whether `send` decodes each message as the peer will first (`UnfitMessage`): on in the
    #: tests (tests/conftest.py), which so prove every message we send fits; off in play, where
    #: decoding every seat's view again after every action cost a server a tenth of its CPU (a
    #: message that slipped through would be refused by the peer, in a sentence).
    checking: ClassVar[bool] = False

    def __init__(
        self,
        receives: Any,
        sends: Any,
        max_frame: int = MAX_CLIENT_FRAME,
        hello_first: bool = False,
    ) -> None:
        self.receives, self.sends = receives, sends
        self.max_frame = max_frame
        self.first: type[Hello] | None = Hello if hello_first else None
        self.closing = False
        self._buffer = bytearray()
        self._events: list[Any] = []
        self._outgoing = bytearray()
        self._tells_errors = Error in typing.get_args(sends)  # a server tells what it refused

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
                message = decode(body, self.receives)
            except BadInput as problem:
                self._fail(problem.code, problem.text)
                return
            if self.first is not None:
                if not isinstance(message, self.first):
                    self._fail("hello-first", "say hello first")
                    return
                self.first = None
            self._events.append(message)

    def receive_eof(self) -> None:
        """The peer closed its side; a half-received frame is an error (and it is told so)."""
        if not self.closing and self._buffer:
            self._fail("truncated", "the connection ended mid-frame")
        self.closing = True

    def events_received(self) -> list[Any]:
        """Messages and errors (`ProtocolError`) received since the last call."""
        events, self._events = self._events, []
        return events

    def send(self, message: Message) -> None:
        """Queue `message` for the peer; raises `UnfitMessage` if the peer would refuse it."""
        try:
            body = _encoder.encode(message)
            if Connection.checking:
                _decoder(self.sends).decode(body)  # as the peer decodes it: types, every field
        except (TypeError, msgspec.MsgspecError) as problem:
            raise UnfitMessage(f"{type(message).__name__}: {problem}") from None
        self._outgoing += frame(body)

    def data_to_send(self) -> bytes:
        """Bytes queued for the peer since the last call."""
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def _fail(self, code: ErrorCode, text: str) -> None:
        text = visible(text)[:MAX_TEXT]  # (it may repeat what the peer sent)
        if self._tells_errors:
            self.send(Error(code=code, text=text))
        self._events.append(ProtocolError(code, text))
        self._buffer.clear()
        self.closing = True


def server_side() -> Connection:
    """The server's end of a connection: client messages in (hello first), 64 KiB at most."""
    return Connection(ClientMessage, ServerMessage, MAX_CLIENT_FRAME, hello_first=True)


def client_side() -> Connection:
    """A client's end of a connection: server messages in, 1 MiB at most."""
    return Connection(ServerMessage, ClientMessage, MAX_SERVER_FRAME)
