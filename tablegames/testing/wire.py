"""Messages as tests handle them: any map checked as a message would be, typed messages as
plain maps (what a peer decodes), and hand-built maps sent raw (`protocol.encode` takes any)."""

from __future__ import annotations

from typing import Any

import msgspec

from ..net.protocol import BadInput, decode


def problem(message: object, kind: Any) -> str | None:
    """Why `message` (any plain value) is not a message of `kind`, or None if it is one."""
    try:
        decode(msgspec.msgpack.encode(message), kind)
    except BadInput as bad:
        return bad.text
    return None


def plain(message: object) -> Any:
    """A typed message (or anything holding them) as the plain maps a peer decodes."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(message))
