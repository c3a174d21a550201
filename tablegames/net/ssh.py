"""The SSH front door of `tablegames serve`: friends join with plain `ssh -p 2222 NAME@HOST`.

It knows nothing about games. It accepts SSH connections (asyncssh), decides who each one is
(`ssh_login`), keeps the limits, and runs one program per session on a pseudo-terminal of its
own (`ssh_session`, `pty_program`): the program is whatever the `launch` callback says for that
identity and terminal. Exec requests, subsystems (sftp), port, agent and X11 forwarding are
refused; passwords are not offered; environment variables sent by the client are ignored.

The door keeps, for as long as the server runs: which keys gave the join code (they are not
asked again), the guests who came lately (the same name from the same address is the same
guest), and which names keys use now (a name is owned for good only once its key sits at a
table: see `Party`). Its refusals are logged summed (`RefusalTally`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import unicodedata
from collections.abc import Callable, Coroutine
from pathlib import Path

import asyncssh
import asyncssh.connection
from asyncssh.saslprep import SASLPrepError

from ..names import name_key
from ..paths import data_dir, owner_only_dir, owner_only_draft, owner_only_file
from .admission import Admission, Visitor
from .guard import AttemptLimiter, RefusalTally
from .guest_list import GuestList
from .listening import door_share
from .pty_program import Forks
from .ssh_login import Doorman
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


def allow_any_user_name() -> None:
    """Let user names through that SASLprep would refuse (every emoji).

    asyncssh runs each SSH user name through SASLprep (RFC 4013), which refuses characters
    unassigned in Unicode 3.2, so a friend who connects as "ana🂡" was cut off with OpenSSH
    printing "Unassigned character: '\\360\\237\\202\\241'". Here a user name is only the name
    a player asked for: `clean_name` decides what is kept, and a refusal is a sentence. asyncssh
    has no option for this; its connection module's own `saslprep` is wrapped instead (only
    user names go through that one; passwords are prepared in its auth module and refused here).
    """
    prepare: Callable[[str], str] = getattr(asyncssh.connection, "saslprep")  # noqa: B009
    if getattr(prepare, "lenient", False):
        return

    def lenient(text: str) -> str:
        try:
            return prepare(text)
        except SASLPrepError:
            return unicodedata.normalize("NFKC", text)

    lenient.lenient = True  # type: ignore[attr-defined]
    setattr(asyncssh.connection, "saslprep", lenient)  # noqa: B010 (a module's name, on purpose)


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
        forks: Forks | None = None,
        admission: Admission | None = None,
    ) -> None:
        self.config = config
        self.forks = forks  # forks each session's program, when given (else a new process)
        self.names = names
        self.launch = launch
        # Who may come in: the party's own policy (`serve`), else one of this door's.
        self.admission = admission or Admission(config.join_code, limiter)
        self.admission.doors.append(self)
        self.log = log if log is not None else logging.getLogger("tablegames.ssh")
        self.sessions: set[TableSession] = set()  # sessions with a program, or about to have one
        self.connections: set[Doorman] = set()  # every open connection, logged in or not
        self.refusals = RefusalTally(self.log)
        self.code_keys: set[str] = set()  # key fingerprints that gave the join code
        # Sessions another door of the same party runs (the browsers'): the limits on
        # sessions in all and per address count them too (`address` None: all of them).
        self.elsewhere: Callable[[str | None], int] = lambda address: 0
        # The names the party's tables hold (a look-alike of one is refused here too).
        self.names_elsewhere: Callable[[], list[str]] = list
        self.guest_list = GuestList(
            config,
            names,
            self.log,
            lambda: [d.identity.name for d in self.connections if d.identity is not None],
            lambda: self.names_elsewhere(),
        )
        self.host_key: asyncssh.SSHKey | None = None
        self.max_connections = config.max_connections  # (fewer if files are short: `start`)
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
        allow_any_user_name()
        self.max_connections = door_share(config.max_connections)
        self.guest_list.release_unused_names()
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
        self.refusals.flush()
        self.log.info("ssh: closed")

    @property
    def limiter(self) -> AttemptLimiter:
        """Wrong join codes per address, counted with the party's other doors."""
        return self.admission.guard

    @property
    def join_code(self) -> str | None:
        """The join code asked for now (None: none); the host may change it (`code new`)."""
        return self.admission.code

    def send_away(self, person: str, why: str) -> Visitor:
        """End every connection of the person whose name key is `person` (the host's `kick`,
        `ban`), telling them `why`; returns their keys and addresses."""
        found = Visitor(person)
        for doorman in list(self.connections):
            identity = doorman.identity
            if identity is None or name_key(identity.name) != person:
                continue
            if identity.fingerprint is not None:
                found.keys.add(identity.fingerprint)
            found.addresses.add(doorman.address)
            found.sessions += 1
            self.track(self._see_out(doorman, why[:1].upper() + why[1:] + "."))
        return found

    async def _see_out(self, doorman: Doorman, sentence: str) -> None:
        if doorman.session is not None:
            await doorman.session.close_with(sentence)
        doorman.close(sentence)

    # -- for the connections -------------------------------------------------------------------
    def logging_in(self) -> list[Doorman]:
        """The connections still in the handshake or the login (OpenSSH's "startups")."""
        return [doorman for doorman in self.connections if doorman.logging_in]

    def logged_in_from(self, address: str) -> int:
        """Players in from `address` now: admitted connections (not those still at the join
        code), and other doors' sessions."""
        here = sum(1 for d in self.connections if d.admitted and d.address == address)
        return here + self.elsewhere(address)

    def full(self) -> bool:
        """True if the party runs its `max_sessions` sessions (this door's and others')."""
        return len(self.sessions) + self.elsewhere(None) >= self.config.max_sessions

    def max_per_address(self) -> int:
        config = self.config
        return config.max_per_address or config.max_sessions

    def reached_as(self, conn: asyncssh.SSHServerConnection | None) -> tuple[str, int]:
        """The address and port the client connected to, for "connect with ..." sentences."""
        local = conn.get_extra_info("sockname") if conn is not None else None
        return (str(local[0]), int(local[1])) if local else (self.config.host, self.port)

    def track(self, work: Coroutine[object, object, None]) -> None:
        """Run `work` in the background; `close` waits for it."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.log.error("ssh: a session task failed", exc_info=task.exception())
