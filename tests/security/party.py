"""A whole party in the test's event loop, wired as `tablegames serve` wires it: the join port,
the SSH door and the browser door (real session programs, forked), and the host's console.
Everything listens on 127.0.0.1; guests come from other 127.x addresses.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import asyncssh

from tablegames.net.console import HostConsole
from tablegames.net.server import Server, ServerConfig
from tablegames.serve import ssh_front_door
from tablegames.store import Store
from tablegames.testing.harness import LOOPBACK

WAIT = 30.0  # seconds any one step may take (a bound, never a measure)


@dataclass
class Party:
    server: Server
    store: Store
    console: HostConsole

    @property
    def port(self) -> int:
        assert self.server.port is not None
        return self.server.port

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.server.web_port}"

    def browser(self, source: str = "127.0.0.2") -> aiohttp.ClientSession:
        """A browser at the loopback address `source` (it keeps its cookies)."""
        return aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(source, 0)),
            cookie_jar=aiohttp.CookieJar(unsafe=True),
        )

    async def ssh(
        self, name: str, key: asyncssh.SSHKey | None = None, source: str = "127.0.0.2"
    ) -> asyncssh.SSHClientConnection:
        """An SSH login as `name` (a guest without `key`) from `source`."""
        assert self.server.ssh_port is not None
        return await asyncssh.connect(
            LOOPBACK,
            self.server.ssh_port,
            username=name,
            client_keys=[key] if key is not None else None,
            kbdint_auth=key is None,  # a guest: keyboard-interactive, with no prompt
            known_hosts=None,
            local_addr=(source, 0),
            agent_path=None,
            config=[],
            connect_timeout=WAIT,
            login_timeout=WAIT,
        )

    def member(self, name: str) -> bool:
        """True while someone called `name` is connected to the party (through any door: an
        SSH or browser session's program is connected as its player)."""
        return any(m.name == name for m in self.server.clients if m.greeted and not m.closed)


@contextlib.asynccontextmanager
async def open_party(home: Path, code: str | None = None) -> AsyncIterator[Party]:
    """The party of `tablegames serve --web 0 --ssh 0` (with `code`, as with --lan)."""
    store = Store(home / "party.db")
    server = Server(ServerConfig(host=LOOPBACK, port=0, code=code, heartbeat=2.0), store=store)
    await server.start()
    stop = await ssh_front_door(store, False, 0, 20, code, None, web_port=0)(server)
    try:
        yield Party(server, store, HostConsole(server.party))
    finally:
        async with asyncio.timeout(WAIT):
            await stop()
            await server.close()
        store.close()
