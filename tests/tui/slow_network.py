"""A slow network on loopback: a proxy that holds every chunk of bytes 50–300 ms, with jitter.

Chunks keep their order in each direction (TCP does), so a later chunk never overtakes an
earlier one: each is sent at the later of its own delay and the one before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random

LOOPBACK = "127.0.0.1"


class SlowProxy:
    """Listens on loopback and passes each connection on to `port`, late."""

    def __init__(self, port: int, seed: int, least: float = 0.05, most: float = 0.3) -> None:
        self.target, self.rng = port, random.Random(seed)
        self.least, self.most = least, most
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pumps: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._connect, LOOPBACK, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for pump in list(self._pumps):
            pump.cancel()
        for pump in list(self._pumps):
            with contextlib.suppress(BaseException):
                await pump

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            far_reader, far_writer = await asyncio.open_connection(LOOPBACK, self.target)
        except OSError:
            writer.close()
            return
        for source, sink in ((reader, far_writer), (far_reader, writer)):
            pump = asyncio.get_running_loop().create_task(self._pump(source, sink))
            self._pumps.add(pump)
            pump.add_done_callback(self._pumps.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        """Read as bytes come, and send each chunk once its delay has passed (in order)."""
        loop = asyncio.get_running_loop()
        late: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sender = loop.create_task(self._send_late(late, sink))
        due = 0.0
        try:
            while data := await source.read(65536):
                due = max(due, loop.time() + self.rng.uniform(self.least, self.most))
                late.put_nowait((due, data))
        except (ConnectionError, OSError):
            pass
        finally:
            late.put_nowait((due, b""))  # then close
            with contextlib.suppress(BaseException):
                await sender

    @staticmethod
    async def _send_late(
        late: asyncio.Queue[tuple[float, bytes]], sink: asyncio.StreamWriter
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                due, data = await late.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if not data:
                    break
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            sink.close()
