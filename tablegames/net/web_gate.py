"""The browser door's gate: its connections counted per address and in all, and those past
either cap answered "503" with a sentence and closed before the web server sees them.

It wraps the web server's protocol (any `asyncio.Protocol` factory): an admitted connection is
passed on untouched; a refused one is told why in a short HTTP response, its writing side
shut, and what it still sends read and dropped for at most `REFUSAL_LINGER` seconds (so the
sentence is not lost to a reset), then closed. Refusals are counted in a `RefusalTally`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

from .guard import RefusalTally

REFUSAL_LINGER = 1.0  # seconds a refused connection is kept to read its request and go


class Gate:
    """Connections open now, per address; whether one more may come in."""

    def __init__(self, per_address: int, in_all: int, refusals: RefusalTally) -> None:
        self.per_address, self.in_all = per_address, in_all
        self.refusals = refusals
        self.open: Counter[str] = Counter()

    def connections_from(self, address: str | None) -> int:
        """Connections open now from `address` (None: in all)."""
        return self.open.total() if address is None else self.open[address]

    def why_not(self, address: str) -> str | None:
        """Why a new connection from `address` is refused (None: it may come in)."""
        if self.open[address] >= self.per_address:
            return (
                f"Too many connections from {address} at once (at most {self.per_address}): "
                "close a few pages of the party, or try again in a moment."
            )
        if self.open.total() >= self.in_all:
            return (
                f"The party's page has all the connections it can take ({self.in_all}): "
                "try again in a moment."
            )
        return None

    def protocol(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for the listening socket: `inner`'s protocols, behind the gate."""
        return lambda: GatedConnection(self, inner)


class GatedConnection(asyncio.Protocol):
    """One connection: passed on to the web server's protocol, or refused with a sentence."""

    def __init__(self, gate: Gate, inner: Callable[[], asyncio.Protocol]) -> None:
        self.gate = gate
        self.make_inner = inner
        self.inner: asyncio.Protocol | None = None
        self.address = "?"
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        why = self.gate.why_not(self.address)
        if why is not None:
            self._refuse(transport, why)
            return
        self.gate.open[self.address] += 1
        self.inner = self.make_inner()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.inner is not None:
            return self.inner.eof_received()
        return False  # a refused one: close it now

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.gate.open[self.address] -= 1
            if self.gate.open[self.address] <= 0:
                del self.gate.open[self.address]
            self.inner.connection_lost(exc)
            self.inner = None

    def _refuse(self, transport: asyncio.Transport, sentence: str) -> None:
        self.gate.refusals.refused(
            "connections",
            self.address,
            "web: refused a connection from %s: %s",
            self.address,
            sentence.split(":")[0].lower(),
        )
        transport.write(refusal_response(sentence))
        if transport.can_write_eof():
            transport.write_eof()
        asyncio.get_running_loop().call_later(REFUSAL_LINGER, transport.close)


def refusal_response(sentence: str) -> bytes:
    """A whole HTTP response "503 Service Unavailable" saying `sentence`."""
    body = (sentence + "\n").encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Retry-After: 10\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body
