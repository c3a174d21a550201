"""Strangers at the SSH door: asyncssh clients with throwaway keys that log in, open a
terminal and wait at the join code prompt without the code (loopback only, bounded waits).

Each comes from a source address of its own choosing (other 127.x addresses stand in for
other machines of the LAN). They run on an event loop of their own thread, so a test may
block on a real OpenSSH client meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

import asyncssh

WAIT = 20.0  # seconds any one stranger may take to reach the prompt (a bound, not a measure)


class Stranger:
    """One keyed login at the code prompt (or turned away before it)."""

    def __init__(self) -> None:
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[str] | None = None
        self.screen = ""  # what the door said to it
        self.waiting = False  # it is at the code prompt
        self.refused = False  # the door turned it away (with or without a sentence)

    async def come(self, port: int, name: str, source: str) -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        try:
            self.conn = await asyncssh.connect(
                "127.0.0.1",
                port,
                username=name,
                client_keys=[key],
                known_hosts=None,
                local_addr=(source, 0),
                preferred_auth="publickey",
                agent_path=None,
                config=[],
                connect_timeout=WAIT,
            )
            self.process = await self.conn.create_process(term_type="xterm", term_size=(80, 24))
            async with asyncio.timeout(WAIT):
                while "Join code: " not in self.screen:
                    said = await self.process.stdout.read(1024)
                    if not said:
                        raise ConnectionError("closed before the prompt")
                    self.screen += said
            self.waiting = True
        except (OSError, asyncssh.Error, TimeoutError) as refusal:
            self.screen += f"\n[{type(refusal).__name__}: {refusal}]"
            self.refused = True

    async def type(self, text: str) -> str:
        """Type `text` and Enter at the prompt; returns what the door says until it closes."""
        assert self.process is not None
        self.process.stdin.write(text + "\r")
        return await self.read_to_end()

    async def read_to_end(self) -> str:
        """What the door says from now until it closes the connection."""
        assert self.process is not None
        said = ""
        with contextlib.suppress(OSError, asyncssh.Error, TimeoutError):
            async with asyncio.timeout(WAIT):
                while chunk := await self.process.stdout.read(1024):
                    said += chunk
        return said

    def leave(self) -> None:
        if self.conn is not None:
            self.conn.close()


class Strangers:
    """Keyed strangers waiting at the code prompt, served from a thread of their own."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.crowd: list[Stranger] = []

    def come(self, port: int, names: list[str], source: str) -> list[Stranger]:
        """Strangers for `names`, all at once from `source`; returns once each has reached the
        prompt or been turned away."""
        arriving = [Stranger() for _ in names]
        self.crowd += arriving

        async def all_of_them() -> None:
            await asyncio.gather(
                *(one.come(port, name, source) for one, name in zip(arriving, names, strict=True))
            )

        asyncio.run_coroutine_threadsafe(all_of_them(), self.loop).result(2 * WAIT)
        return arriving

    def type(self, stranger: Stranger, text: str) -> str:
        """`stranger` types `text` at the prompt; what the door says until it closes."""
        return asyncio.run_coroutine_threadsafe(stranger.type(text), self.loop).result(2 * WAIT)

    def rest(self, stranger: Stranger) -> str:
        """What the door says to `stranger` from now until it closes the connection."""
        return asyncio.run_coroutine_threadsafe(stranger.read_to_end(), self.loop).result(2 * WAIT)

    def leave(self) -> None:
        async def everyone_leaves() -> None:
            for one in self.crowd:
                one.leave()
            for one in self.crowd:
                if one.conn is not None:
                    with contextlib.suppress(Exception):
                        async with asyncio.timeout(5):
                            await one.conn.wait_closed()

        try:
            asyncio.run_coroutine_threadsafe(everyone_leaves(), self.loop).result(WAIT)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()
