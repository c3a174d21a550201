"""What a browser's terminal page sends over its websocket, read without sockets.

The page (`web_static/play.js`) speaks textual-serve's small protocol: each message is a JSON
array, `["stdin", TEXT]` for keys typed (and mouse reports), `["resize", {"width": COLUMNS,
"height": ROWS}]` for a new terminal size, `["ping", TEXT]` (answered `["pong", TEXT]`);
`["focus"]` and `["blur"]` are accepted and mean nothing here. The server sends the program's
output as binary messages, and `["pong", TEXT]` or `["ended", SENTENCE]` (why the session
closed) as text. Anything else, or anything malformed or too large, is `None`: ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

MESSAGE_LIMIT = 65536  # characters of one message (a paste of a few pages)
PING_LIMIT = 64  # characters of a ping's text echoed back
#: In a session program's environment: its terminal is the party's web page, which reads
#: `ROOM_OSC` (`ESC ] 7760 ; COLUMNS ; ROWS BEL`: the least the screen in front needs; a
#: page held upright shows no more columns than that, in bigger letters).
PAGE_ENV = "TABLEGAMES_PAGE"
ROOM_OSC = 7760


@dataclass(frozen=True)
class Keys:
    """Keys typed (or a mouse report), as the terminal would have sent them."""

    data: bytes


@dataclass(frozen=True)
class Resize:
    """The page's terminal has a new size (not yet made safe: see `safe_size`)."""

    columns: int
    rows: int


@dataclass(frozen=True)
class Ping:
    """The page asks for an answer (it measures the round trip)."""

    text: str


@dataclass(frozen=True)
class Quiet:
    """A message that asks for nothing (focus, blur)."""


PageMessage = Keys | Resize | Ping | Quiet


def read_message(text: str) -> PageMessage | None:
    """What the page's message `text` asks for; None if it is not one it sends."""
    if len(text) > MESSAGE_LIMIT:
        return None
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, rest = envelope[0], envelope[1:]
    if kind == "stdin" and len(rest) == 1 and isinstance(rest[0], str):
        return Keys(rest[0].encode("utf-8", "replace")) if rest[0] else None
    if kind == "resize" and len(rest) == 1 and isinstance(rest[0], dict):
        columns, rows = rest[0].get("width"), rest[0].get("height")
        if isinstance(columns, int) and isinstance(rows, int) and _count(columns) and _count(rows):
            return Resize(columns, rows)
        return None
    if kind == "ping" and len(rest) == 1 and isinstance(rest[0], str):
        return Ping(rest[0][:PING_LIMIT])
    if kind in ("focus", "blur") and not rest:
        return Quiet()
    return None


def size_asked(width: str | None, height: str | None) -> tuple[int, int]:
    """The terminal size a page asks for in its websocket address (0 for a side not given)."""
    return _number(width), _number(height)


def pong(text: str) -> str:
    return json.dumps(["pong", text])


def ended(sentence: str) -> str:
    return json.dumps(["ended", sentence])


def _count(value: object) -> bool:
    # (a bool is an int to Python, but not a size)
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 100_000


def _number(text: str | None) -> int:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 5:
        return 0
    return int(text)
