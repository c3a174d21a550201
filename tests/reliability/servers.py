"""A server on a free loopback port made with what a test gives it: a store to keep its
tables and names in (the party's parts are handed it when the server is made), a clock."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.testing.harness import LOOPBACK


@contextlib.asynccontextmanager
async def server_with(
    store: Store | None = None, clock: Callable[[], float] = time.monotonic, **config: Any
) -> AsyncIterator[tuple[Server, int]]:
    """A server keeping what it knows in `store`, going by `clock`; closed on the way out."""
    server = Server(ServerConfig(host=LOOPBACK, port=0, **config), store=store, clock=clock)
    port = await server.start()
    try:
        yield server, port
    finally:
        await server.close()
