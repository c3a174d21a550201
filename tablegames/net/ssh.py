"""The SSH front door of `tablegames serve`: friends join with plain `ssh -p 2222 NAME@HOST`.

It knows nothing about games. It accepts SSH connections (asyncssh), decides who each one is
(`ssh_login`), keeps the limits, and runs one program per session on a pseudo-terminal of its
own (`ssh_session`, `pty_program`): the program is whatever the `launch` callback says for that
identity and terminal. Exec requests, subsystems (sftp), port, agent and X11 forwarding are
refused; passwords are not offered; environment variables sent by the client are ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import asyncssh

from ..paths import data_dir, owner_only_dir, owner_only_draft, owner_only_file
from .guard import AttemptLimiter
from .names import name_key
from .ssh_login import Doorman, guest_name
from .ssh_session import TableSession
from .ssh_types import Identity, Launch, NameBook, SshConfig, Terminal

__all__ = [
    "Identity",
    "Launch",
    "NameBook",
    "SshConfig",
    "SshFrontDoor",
    "Terminal",
    "load_host_key",
]

HOST_KEY_NAME = "ssh_host_ed25519_key"
CLOSING_SENTENCE = "The host has closed the table server."


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's ed25519 host key at `path`, made (readable by its owner only) if missing.

    The same key on every run is what lets a friend's `ssh` recognise the server again.
    """
    if path.exists() and path.stat().st_size > 0:
        owner_only_file(path)  # tightened if loose; refused if another user's
        return asyncssh.read_private_key(path)
    if not path.parent.exists():
        owner_only_dir(path.parent)
    key = asyncssh.generate_private_key("ssh-ed25519")
    # Written whole to a private file, then linked into place: no reader ever sees half a key,
    # and of two servers starting at once the second uses the first one's key.
    draft = owner_only_draft(path)
    try:
        draft.write_bytes(key.export_private_key())
        try:
            path.unlink(missing_ok=True)  # an empty file left by an interrupted first run
            os.link(draft, path)
        except FileExistsError:
            return load_host_key(path)
    finally:
        draft.unlink(missing_ok=True)
    return key


class SshFrontDoor:
    """An SSH server that runs `launch(identity, terminal)` on a pty for each session."""

    def __init__(
        self,
        config: SshConfig,
        names: NameBook,
        launch: Callable[[Identity, Terminal], Launch],
        limiter: AttemptLimiter | None = None,
        log: logging.Logger | None = None,
    ) -> None:
        self.config = config
        self.names = names
        self.launch = launch
        self.limiter = limiter if limiter is not None else AttemptLimiter()
        self.log = log if log is not None else logging.getLogger("tablegames.ssh")
        self.sessions: set[TableSession] = set()  # sessions with a program, or about to have one
        self.connections: set[Doorman] = set()  # every open connection, logged in or not
        self.guest_keys: set[str] = set()  # name keys of the guests now connected
        self.host_key: asyncssh.SSHKey | None = None
        self.port = 0
        self._server: asyncssh.SSHAcceptor | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def host_fingerprint(self) -> str:
        """What a friend's `ssh` shows for this server the first time (`SHA256:...`)."""
        assert self.host_key is not None, "start() first"
        return self.host_key.get_fingerprint()

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        config = self.config
        self.host_key = load_host_key(config.host_key or data_dir() / HOST_KEY_NAME)
        self._server = await asyncssh.create_server(
            lambda: Doorman(self),
            config.host,
            config.port,
            server_host_keys=[self.host_key],
            login_timeout=config.login_timeout,
            keepalive_interval=config.keepalive_interval,
            keepalive_count_max=config.keepalive_count_max,
            public_key_auth=True,
            kbdint_auth=True,
            password_auth=False,
            host_based_auth=False,
            gss_host=None,
            gss_kex=False,
            gss_auth=False,
            allow_pty=True,
            line_editor=False,  # keys go to the program as typed, not as edited lines
            x11_forwarding=False,
            agent_forwarding=False,
            allow_scp=False,
            encoding=None,  # bytes both ways: the program's output is not ours to decode
        )
        self.port = self._server.get_port()
        self.log.info(
            "ssh: listening on %s port %d (host key %s)",
            config.host,
            self.port,
            self.host_fingerprint,
        )
        return self.port

    async def close(self) -> None:
        """Stop listening and end every session; returns once every program has been reaped."""
        if self._server is not None:
            self._server.close()
        await asyncio.gather(
            *(session.close_with(CLOSING_SENTENCE) for session in list(self.sessions))
        )
        for doorman in list(self.connections):
            doorman.close(CLOSING_SENTENCE)
        for doorman in list(self.connections):
            if doorman.conn is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(doorman.conn.wait_closed(), 5)
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        self.log.info("ssh: closed")

    # -- for the connections -------------------------------------------------------------------
    def guest_name(self, name: str) -> str:
        """A name for a guest who connected as `name`: unused by guests, owned by no key."""

        def in_use(candidate: str) -> bool:
            key = name_key(candidate)
            return key in self.guest_keys or self.names.name_owner(key) is not None

        chosen = guest_name(name, in_use)
        self.guest_keys.add(name_key(chosen))
        return chosen

    def reached_as(self, conn: asyncssh.SSHServerConnection | None) -> tuple[str, int]:
        """The address and port the client connected to, for "connect with ..." sentences."""
        local = conn.get_extra_info("sockname") if conn is not None else None
        return (str(local[0]), int(local[1])) if local else (self.config.host, self.port)

    def track(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` in the background; `close` waits for it."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.log.error("ssh: a session task failed", exc_info=task.exception())
