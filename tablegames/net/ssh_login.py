"""Who is at the SSH door: a name from the SSH user name, owned by the first key to use it.

A client with a key plays under the user name it connected as; the first key to use a name owns
it from then on, and any other key offered for it is refused (a failed attempt for its address).
A client without a key (keyboard-interactive) is a guest, "guest-NAME": names starting
"guest-" are never given to a key, so a guest never plays under a name a key owns, and a name
a key owns is refused to keyless clients outright. Passwords are not offered at all.

With a join code set, a keyless client gives it in the keyboard-interactive exchange. asyncssh
cannot ask for keyboard-interactive after a key has succeeded (it never sends "partial
success"), so a client with a key is asked for the code in its session instead (see
`ssh_session`). Wrong codes count against the client's address in the `AttemptLimiter`; an
address held back is refused at once, told how long to wait.

A refusal during login is a disconnect carrying a sentence, which OpenSSH prints: the person at
the keyboard learns why, not just "Permission denied".
"""

from __future__ import annotations

import asyncio
import secrets
import shlex
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import asyncssh
from asyncssh.auth import KbdIntChallenge, KbdIntResponse

from .guard import wait_in_words
from .names import NAME_LIMIT, clean_name, name_key
from .ssh_session import TableSession
from .ssh_types import GUEST_PREFIX, Identity, code_matches

if TYPE_CHECKING:
    from .ssh import SshFrontDoor

JOIN_CODE_PROMPT = "Join code: "


class Doorman(asyncssh.SSHServer):
    """One connection at the door: decides who it is, whether it may enter, and its session."""

    def __init__(self, door: SshFrontDoor) -> None:
        self.door = door
        self.config = door.config
        self.log = door.log
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.name = ""  # the cleaned SSH user name
        self.identity: Identity | None = None  # once logged in
        self.code_given = door.config.join_code is None
        self.session: TableSession | None = None
        self.connected_at = time.monotonic()
        # What the authentication method in progress would make of this client; the last
        # one accepted is the one that succeeded, as asyncssh runs them one at a time.
        self._candidate: Identity | None = None
        self._refusal: str | None = None  # why to turn this connection away at login
        self._refused = False
        self._key_refusal_counted = False
        self._session_deadline: asyncio.TimerHandle | None = None

    # -- connection ------------------------------------------------------------------------
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        door = self.door
        door.connections.add(self)
        if len(door.connections) > self.config.max_connections:
            # A flood: no key exchange, no sentence, just the door shut.
            self.log.warning(
                "ssh: refused %s: the server has its %d connections",
                self.address,
                self.config.max_connections,
            )
            self._refused = True
            conn.abort()
            return
        from_here = sum(1 for other in door.connections if other.address == self.address)
        if from_here > self.config.max_connections_per_address:
            self._refusal = (
                f"Too many connections from {self.address} at once (at most "
                f"{self.config.max_connections_per_address}): close one and try again."
            )
        self.log.info("ssh: connection from %s", self.address)

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.connections.discard(self)
        self._cancel_session_deadline()
        if self.identity is not None:
            self.door.guest_keys.discard(name_key(self.identity.name))
            minutes = (time.monotonic() - self.connected_at) / 60
            self.log.info(
                "ssh: %s left (%s, %s) after %.0f min",
                self.identity.name,
                self.address,
                self.identity.short_key,
                minutes,
            )

    # -- authentication ----------------------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.name = clean_name(username)
        if self._refusal is not None:
            self._refuse(self._refusal, "too many connections")
            return True
        if self._held_back():
            return True
        if not self.name:
            self._refuse(
                "That user name cannot be a player's name: connect as the name you want to "
                f"play under, e.g. {self.how_to_connect('ben')}",
                "unusable name",
            )
        return True  # everyone logs in, by key or as a guest

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self._refused or not self.name or name_key(self.name).startswith(GUEST_PREFIX):
            return False  # "guest-..." names are for guests: this client goes on as one
        fingerprint = key.get_fingerprint()
        owner = self.door.names.name_owner(name_key(self.name))
        if owner is not None and owner != fingerprint:
            if not self._key_refusal_counted:  # once per connection, however many keys it has
                self._key_refusal_counted = True
                self.door.limiter.failed(self.address)
                # Said now, as a client in batch mode tries no keyboard-interactive after keys.
                assert self.conn is not None
                self.conn.send_auth_banner(f"This key does not own the name {self.name}.\r\n")
                self.log.warning(
                    "ssh: refused key %s from %s for %s: the name belongs to another key",
                    Identity(self.name, fingerprint, False, self.address).short_key,
                    self.address,
                    self.name,
                )
            return False
        self._candidate = Identity(self.name, fingerprint, False, self.address)
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> KbdIntChallenge:
        if self._refused or not self.name or self._held_back():
            return False
        if self.door.names.name_owner(name_key(self.name)) is not None:
            self._refuse(
                f"The name {self.name} belongs to another player's key. Connect with that key, "
                f"or under another name: {self.how_to_connect('OTHERNAME')}",
                "name owned by a key, no key given",
            )
            return False
        if not self.code_given:
            return (
                "",
                "This table needs its join code (the host has it).",
                "",
                [(JOIN_CODE_PROMPT, False)],
            )
        self._candidate = self._guest()
        return True

    def validate_kbdint_response(self, username: str, responses: KbdIntResponse) -> KbdIntChallenge:
        join_code = self.config.join_code
        if self._refused or join_code is None or len(responses) != 1:
            return False
        if code_matches(responses[0], join_code):
            self.code_given = True
            self._candidate = self._guest()
            return True
        if self.wrong_code():
            wait = self.door.limiter.refused_for(self.address)
            self._refuse(self.held_back_sentence(wait), "wrong join codes")
            return False
        return (
            "",
            "That is not the join code: ask the host for it.",
            "",
            [(JOIN_CODE_PROMPT, False)],
        )

    def auth_completed(self) -> None:
        candidate, conn = self._candidate, self.conn
        assert candidate is not None and conn is not None
        if candidate.guest:
            identity = Identity(self.door.guest_name(candidate.name), None, True, self.address)
        else:
            assert candidate.fingerprint is not None
            if not self.door.names.claim_name(
                name_key(self.name), self.name, candidate.fingerprint
            ):
                # Another key took the name between the check and now: as if it had been first.
                self.log.warning(
                    "ssh: %s from %s lost the name to another key at login", self.name, self.address
                )
                conn.disconnect(
                    asyncssh.DISC_ILLEGAL_USER_NAME,
                    f"The name {self.name} was just taken by another player.",
                )
                return
            identity = candidate
        self.identity = identity
        if self.code_given:
            self.door.limiter.succeeded(self.address)
        self.log.info(
            "ssh: %s logged in from %s (%s)", identity.name, self.address, identity.short_key
        )
        # The login timeout covers the whole way in: opening a terminal and giving the code.
        self._session_deadline = asyncio.get_running_loop().call_later(
            self.config.login_timeout, self._too_slow
        )

    # -- the session -------------------------------------------------------------------------
    def session_requested(self) -> TableSession | bool:
        if self.identity is None or self.session is not None:
            return False  # one session per connection: a second one is refused
        self.session = TableSession(self)
        return self.session

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        self._log_forwarding()
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self._log_forwarding()
        return False

    def _log_forwarding(self) -> None:
        who = self.identity.name if self.identity is not None else self.name
        self.log.warning("ssh: refused port forwarding for %s (%s)", who, self.address)

    def code_accepted(self) -> None:
        """The join code was given in the session: this address is forgiven its earlier misses."""
        self.code_given = True
        self.door.limiter.succeeded(self.address)

    def wrong_code(self) -> bool:
        """Count a wrong join code against this address; True if it is now held back."""
        self.door.limiter.failed(self.address)
        self.log.warning("ssh: wrong join code from %s", self.address)  # never the code tried
        return self.door.limiter.refused_for(self.address) > 0

    def held_back_sentence(self, wait: float) -> str:
        return f"Too many failed tries from {self.address}: try again in {wait_in_words(wait)}."

    def launched(self) -> None:
        """The program is running: the login deadline is met."""
        self._cancel_session_deadline()

    def close(self, reason: str = "Disconnected by the table server") -> None:
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, reason)

    # -- helpers -----------------------------------------------------------------------------
    def _held_back(self) -> bool:
        wait = self.door.limiter.refused_for(self.address)
        if wait > 0:
            self._refuse(self.held_back_sentence(wait), "held back after failed tries")
        return wait > 0

    def _guest(self) -> Identity:
        return Identity(self.name, None, True, self.address)

    def _refuse(self, sentence: str, reason: str) -> None:
        """Turn the client away during login, telling them why (OpenSSH prints the reason)."""
        if self._refused or self.conn is None:
            return
        self._refused = True
        self.log.warning("ssh: refused %s (%s): %s", self.address, self.name or "no name", reason)
        self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, sentence)

    def how_to_connect(self, name: str, *flags: str) -> str:
        """The command a player types to come in as `name` (as this connection reached us)."""
        host, port = self.door.reached_as(self.conn)
        return shlex.join(["ssh", *flags, "-p", str(port), f"{name}@{host}"])

    def _too_slow(self) -> None:
        self._session_deadline = None
        if self.session is not None and self.session.asking_for_code:
            self.session.refuse("No join code given in time.")
        elif self.session is None or self.session.program is None:
            self.log.warning("ssh: %s from %s opened no session in time", self.name, self.address)
            self.close()

    def _cancel_session_deadline(self) -> None:
        if self._session_deadline is not None:
            self._session_deadline.cancel()
            self._session_deadline = None


def guest_name(name: str, in_use: Callable[[str], bool]) -> str:
    """A guest's name from the name they asked for: "guest-NAME", numbered while in use."""
    base = name if name_key(name).startswith(GUEST_PREFIX) else GUEST_PREFIX + name
    for number in range(1, 100):
        suffix = "" if number == 1 else f"-{number}"
        candidate = clean_name(base[: NAME_LIMIT - len(suffix)] + suffix)
        if not in_use(candidate):
            return candidate
    return f"{GUEST_PREFIX}{secrets.token_hex(4)}"
