"""Who is at the SSH door: a name from the SSH user name, used by one key at a time.

Before login (as OpenSSH's LoginGraceTime and MaxStartups): a connection must finish the key
exchange and ask to log in within `login_grace` seconds; at most `startups_per_source` from
one address may be that far at once, and past `startups[0]` half-made logins in all, new
connections are dropped at random, more surely as they near `startups[2]`. Idle or slow
sockets from one address hold back nobody else's login. The join code is part of the login:
a client with a key that waits at the code prompt is still one of those "startups" (not a
player, not one of `max_sessions`, holding no name and no seat) until it gives the code, and
is closed `login_timeout` seconds after it connected if it has not (`admit` lets it in).

A client with a key plays under the user name it connected as. A name belongs to the key that
owns it (`NameBook`: a key owns a name once it has sat at a table) or, until then, to the key
using it now: whoever came in under it first (past the code; a login at the prompt uses
nothing). Another key offered for it is refused with a sentence, and the owner's key is always
let in, whatever others tried from wherever: nothing a stranger does counts against it.
A client without a key (keyboard-interactive) is a guest, "guest-NAME": names starting
"guest-" are never given to a key, and a name a key holds is refused to keyless clients. A
guest who comes back as the same name from the same address within `guest_hold` seconds is
the same guest (their name, their seat, no join code again). Passwords are not offered.

With a join code set, a keyless client gives it in the keyboard-interactive exchange. asyncssh
cannot ask for keyboard-interactive after a key has succeeded (it never sends "partial
success"), so a client with a key is asked for the code in its session instead (see
`ssh_session`). A key or a guest that gave the right code is not asked again while the server
runs. Wrong codes count against the client's address in the `AttemptLimiter`; an address held
back is refused at once (told how long to wait) whenever it would have to give the code.

A refusal during login is a disconnect carrying a sentence, which OpenSSH prints: the person at
the keyboard learns why, not just "Permission denied". A connection dropped before the key
exchange gets no sentence (there is no way to show one yet), only a line in the host's log.
"""

from __future__ import annotations

import random
import shlex
import time
from functools import partial
from typing import Protocol

import asyncssh
from asyncssh.auth import KbdIntChallenge, KbdIntResponse

from ..names import clean_name, name_key
from .admission import TURNED_AWAY, Admission, code_matches, crowded, held_back
from .guard import RefusalTally, startup_drop_chance, wait_in_words
from .guest_list import GuestList
from .ssh_screen import Deadline
from .ssh_session import SessionDoor, TableSession
from .ssh_types import GUEST_PREFIX, Identity

JOIN_CODE_PROMPT = "Join code: "
early_drop = random.Random()  # which half-made logins a busy door drops (no secret in it)


class Door(SessionDoor, Protocol):
    """What a login asks of the SSH door (`ssh.SshFrontDoor`), besides what its session does."""

    @property
    def connections(self) -> set[Doorman]: ...  # every open connection, logged in or not

    @property
    def refusals(self) -> RefusalTally: ...

    @property
    def code_keys(self) -> set[str]: ...  # key fingerprints that gave the join code

    @property
    def admission(self) -> Admission: ...

    @property
    def max_connections(self) -> int: ...

    def logging_in(self) -> list[Doorman]: ...

    def logged_in_from(self, address: str) -> int: ...

    def max_per_address(self) -> int: ...

    @property
    def guest_list(self) -> GuestList: ...  # who came in under which name

    def reached_as(self, conn: asyncssh.SSHServerConnection | None) -> tuple[str, int]: ...


class Doorman(asyncssh.SSHServer):
    """One connection at the door: decides who it is, whether it may enter, and its session."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.config = door.config
        self.log = door.log
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.name = ""  # the cleaned SSH user name
        self.identity: Identity | None = None  # who it proved to be, once authenticated
        self.code_given = door.join_code is None
        self.admitted = False  # in as a player: it gave the code, holds its name, counts
        self.session: TableSession | None = None
        self.connected_at = time.monotonic()
        # What the authentication method in progress would make of this client; the last
        # one accepted is the one that succeeded, as asyncssh runs them one at a time.
        self._candidate: Identity | None = None
        self._refused = False
        self._dropped = False  # cut off before the key exchange
        self._key_refusal_counted = False
        # As OpenSSH's LoginGraceTime: the key exchange done and a login asked for in time,
        # or the connection is dropped (asking to log in, `begin_auth`, stops this clock).
        grace = wait_in_words(self.config.login_grace)
        self._grace = Deadline(partial(self._drop, f"no login asked for within {grace}"))
        self._session_deadline = Deadline(self._too_slow)  # a program running, in time

    @property
    def logging_in(self) -> bool:
        """True while this connection is in the handshake or the login, the join code
        included (not in, not dropped): OpenSSH's "startups"."""
        return not self.admitted and not self._dropped

    # -- connection ------------------------------------------------------------------------
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        door, config = self.door, self.config
        door.connections.add(self)
        startups = [other for other in door.logging_in() if other is not self]
        from_here = sum(1 for other in startups if other.address == self.address)
        if len(door.connections) > door.max_connections:
            self._drop(f"the server has its {door.max_connections} connections")
        elif from_here >= config.startups_per_source:
            self._drop(f"{from_here} logins from this address are under way")
        elif early_drop.random() < startup_drop_chance(len(startups), *config.startups):
            self._drop(f"{len(startups)} logins are under way")
        else:
            self._grace.start(config.login_grace)
            self.log.debug("ssh: connection from %s", self.address)

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.connections.discard(self)
        self._grace.cancel()
        self._session_deadline.cancel()
        identity = self.identity
        if identity is None or not self.admitted:
            return  # it held nothing
        if identity.guest:
            self.door.guest_list.guest_left(self.name, self.address)
        else:
            self.door.guest_list.key_left(identity.name)
        minutes = (time.monotonic() - self.connected_at) / 60
        self.log.info(
            "ssh: %s left (%s, %s) after %.0f min",
            identity.name,
            self.address,
            identity.short_key,
            minutes,
        )

    # -- authentication ----------------------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self._grace.cancel()  # the handshake is done: the login timeout runs on
        self.name = clean_name(username)
        limit = self.door.max_per_address()
        if self._refused:
            return True
        if self.door.admission.turned_away(address=self.address):
            self._refuse(TURNED_AWAY[:1].upper() + TURNED_AWAY[1:] + ".", "banned by the host")
        elif self.door.logged_in_from(self.address) >= limit:
            self._refuse(crowded(self.address, limit), "too many players from one address")
        elif not self.name:
            self._refuse(
                "That user name cannot be a player's name: connect as the name you want to "
                f"play under, e.g. {self.how_to_connect('ben')}",
                "unusable name",
            )
        elif (look_alike := self.door.guest_list.look_alike_problem(self.name)) is not None:
            self._refuse(
                f"{look_alike}: connect under another name, e.g. {self.how_to_connect('ben')}",
                "a look-alike name",
            )
        return True  # everyone logs in, by key or as a guest

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self._refused or not self.name or name_key(self.name).startswith(GUEST_PREFIX):
            return False  # "guest-..." names are for guests: this client goes on as one
        fingerprint = key.get_fingerprint()
        if self.door.admission.turned_away(key=fingerprint):
            self._refuse(TURNED_AWAY[:1].upper() + TURNED_AWAY[1:] + ".", "a key banned")
            return False
        holder = self.door.guest_list.name_holder(name_key(self.name))
        if holder is not None and holder != fingerprint:
            # Never a lock: another key can never have this name, and its owner's key is let
            # in whatever was tried before. Counted per address and name, for the log only.
            if not self._key_refusal_counted:  # once per connection, however many keys it has
                self._key_refusal_counted = True
                # Said now, as a client in batch mode tries no keyboard-interactive after keys.
                assert self.conn is not None
                self.conn.send_auth_banner(f"This key does not own the name {self.name}.\r\n")
                self.door.refusals.refused(
                    f"keys for the name {self.name}",
                    self.address,
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
        if self._refused or not self.name:
            return False
        if self.door.guest_list.name_holder(name_key(self.name)) is not None:
            self._refuse(
                f"The name {self.name} belongs to another player's key. Connect with that key, "
                f"or under another name: {self.how_to_connect('OTHERNAME')}",
                "name held by a key, no key given",
            )
            return False
        record = self.door.guest_list.guest_record(self.name, self.address)
        if record is not None and record.code_given:
            self.code_given = True  # this guest gave it lately: not asked again
        if not self.code_given:
            wait = self.door.limiter.refused_for(self.address)
            if wait > 0:
                self._refuse(held_back(self.address, wait), "held back after wrong join codes")
                return False
            return code_challenge("This party needs its join code (the host has it).")
        self._candidate = Identity(self.name, None, True, self.address)  # a guest
        return True

    def validate_kbdint_response(self, username: str, responses: KbdIntResponse) -> KbdIntChallenge:
        join_code = self.door.join_code
        if self._refused or join_code is None or len(responses) != 1:
            return False
        if code_matches(responses[0], join_code):
            self.code_given = True
            self._candidate = Identity(self.name, None, True, self.address)  # a guest
            return True
        if self.wrong_code():
            wait = self.door.limiter.refused_for(self.address)
            self._refuse(held_back(self.address, wait), "wrong join codes")
            return False
        return code_challenge("That is not the join code: ask the host for it.")

    def auth_completed(self) -> None:
        candidate, door = self._candidate, self.door
        assert candidate is not None
        self.identity = candidate  # who it is; until it has given the code it holds nothing
        if candidate.fingerprint is not None and candidate.fingerprint in door.code_keys:
            self.code_given = True
        if self.code_given:
            why_not = self.admit()
            if why_not is not None:
                self.close(why_not)
            return
        self.log.debug("ssh: %s from %s is asked for the join code", self.name, self.address)
        # Until the code is given: as long as the login may take, counted from connecting.
        self._session_deadline.start(
            self.config.login_timeout - (time.monotonic() - self.connected_at)
        )

    def admit(self) -> str | None:
        """Let this login in as a player (it has given the join code, or none is needed): from
        now on it holds its name and counts against the limits on players. Returns why it
        cannot come in (a sentence for the person at the keyboard), or None."""
        door, identity = self.door, self.identity
        assert identity is not None and not self.admitted
        limit = door.max_per_address()
        if door.logged_in_from(self.address) >= limit:
            self.note_refusal("too many players from one address")
            return crowded(self.address, limit)
        if identity.guest:
            given = door.guest_list.guest_arrived(self.name, self.address, self.code_given)
            identity = self.identity = Identity(given, None, True, self.address)
        else:
            assert identity.fingerprint is not None
            if door.guest_list.name_holder(name_key(self.name)) not in (None, identity.fingerprint):
                # Another key came in under the name first: a name is whoever's proved it first.
                self.note_refusal("name just taken")
                return f"The name {self.name} was just taken by another player."
            door.guest_list.key_arrived(self.name, identity.fingerprint)
        self.admitted = True
        if door.join_code is not None:
            door.limiter.succeeded(self.address)
        door.guest_list.release_unused_names()
        self.log.info(
            "ssh: %s logged in from %s (%s)", identity.name, self.address, identity.short_key
        )
        # The login timeout covers the rest of the way in: opening a terminal and a program.
        self._session_deadline.start(self.config.login_timeout)
        return None

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
        self.door.refusals.refused(
            "port forwardings",
            f"{who} ({self.address})",
            "ssh: refused port forwarding for %s (%s)",
            who,
            self.address,
        )

    def code_accepted(self) -> str | None:
        """The join code was given in the session: this key is not asked again, this address
        is forgiven its earlier misses, and the login comes in (see `admit`: why not, or None)."""
        self.code_given = True
        if self.identity is not None and self.identity.fingerprint is not None:
            self.door.code_keys.add(self.identity.fingerprint)
        self.door.limiter.succeeded(self.address)
        return self.admit()

    def wrong_code(self) -> bool:
        """Count a wrong join code against this address; True if it is now held back."""
        self.door.limiter.failed(self.address)
        self.door.refusals.refused(  # never the code tried
            "wrong join codes", self.address, "ssh: wrong join code from %s", self.address
        )
        return self.door.limiter.refused_for(self.address) > 0

    def launched(self) -> None:
        """The program is running: the login deadline is met."""
        self._session_deadline.cancel()

    def close(self, reason: str = "Disconnected by the table server") -> None:
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, reason)

    # -- helpers -----------------------------------------------------------------------------
    def _drop(self, why: str) -> None:
        """Cut the connection off before the key exchange (no sentence can be shown yet)."""
        self._dropped = True
        self.door.refusals.refused(
            "connections", self.address, "ssh: dropped a connection from %s: %s", self.address, why
        )
        assert self.conn is not None
        self.conn.abort()

    def _refuse(self, sentence: str, reason: str) -> None:
        """Turn the client away during login, telling them why (OpenSSH prints the reason)."""
        if self._refused or self.conn is None:
            return
        self._refused = True
        self.note_refusal(reason)
        self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, sentence)

    def note_refusal(self, reason: str) -> None:
        """One refused login, for the host's log (summed per reason and address)."""
        self.door.refusals.refused(
            f"logins ({reason})",
            self.address,
            "ssh: refused %s (%s): %s",
            self.address,
            self.name or "no name",
            reason,
        )

    def how_to_connect(self, name: str, *flags: str) -> str:
        """The command a player types to come in as `name` (as this connection reached us)."""
        host, port = self.door.reached_as(self.conn)
        return shlex.join(["ssh", *flags, "-p", str(port), f"{name}@{host}"])

    def _too_slow(self) -> None:
        if self.session is not None and self.session.asking_for_code:
            self.note_refusal("no join code given in time")
            self.session.refuse("No join code given in time.")
        elif self.session is None or self.session.program is None:
            self.door.refusals.refused(
                "logins (no session opened in time)",
                self.address,
                "ssh: %s from %s opened no session in time",
                self.name,
                self.address,
            )
            self.close()


def code_challenge(instructions: str) -> KbdIntChallenge:
    """The keyboard-interactive challenge asking for the join code, under `instructions`."""
    return ("", instructions, "", [(JOIN_CODE_PROMPT, False)])
