"""Messages as tests handle them: any map checked as a message would be, typed messages as
plain maps (what a peer decodes), and hand-built maps sent raw, as a stranger may send them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from ..net.protocol import BadInput, decode, frame

#: A message as a peer decodes it from a frame (msgspec's plain data): the test checks its shape.
Frame = dict[str, Any]


def problem(message: object, kind: object) -> str | None:
    """Why `message` (any plain value) is not a message of `kind` (a message type or a union
    of them), or None if it is one."""
    try:
        decode(msgspec.msgpack.encode(message), kind)
    except BadInput as bad:
        return bad.text
    return None


def plain(message: object) -> object:
    """A typed message (or anything holding them) as the plain maps a peer decodes."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(message))


def raw(message: Mapping[str, object]) -> bytes:
    """`message` as one frame, as it is: no schema is checked (a stranger may send anything)."""
    return frame(msgspec.msgpack.encode(message))
