"""What the SSH front door and its host pass each other: settings, who joined, their terminal."""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

GUEST_PREFIX = "guest-"  # names starting so are guests' alone: no key can own one
DEFAULT_TERM = "xterm-256color"
_TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


@dataclass
class SshConfig:
    """How the SSH front door listens and what it allows; every limit can be changed."""

    host: str = "127.0.0.1"  # loopback unless the host passes --lan
    port: int = 2222  # 0: any free port (tests)
    host_key: Path | None = None  # default data_dir()/"ssh_host_ed25519_key", made on first run
    max_sessions: int = 20  # programs running at once
    idle_timeout: float = 1800.0  # no keystroke for this long: say so and close
    login_timeout: float = 30.0  # to log in, give the join code and open a terminal
    join_code: str | None = None  # when set, every client must give it once at login
    max_connections: int = 64  # connections at once, logged in or not: a flood stops here
    max_connections_per_address: int = 10  # at once from one address
    # A connection that silently drops (a closed laptop) is noticed after about a minute.
    keepalive_interval: float = 15.0
    keepalive_count_max: int = 4
    hangup_grace: float = 2.0  # seconds between SIGHUP, SIGTERM and SIGKILL for a dropped session


@dataclass(frozen=True)
class Identity:
    """Who a connection plays as."""

    name: str  # the name to play under (cleaned)
    fingerprint: str | None  # the key that owns it; None for a guest
    guest: bool
    address: str  # the client's IP

    @property
    def short_key(self) -> str:
        """The key as a log line shows it ("guest" for none)."""
        return "guest" if self.fingerprint is None else short_fingerprint(self.fingerprint)


@dataclass(frozen=True)
class Terminal:
    """The client's terminal, from its pty request."""

    term: str  # e.g. "xterm-256color"
    columns: int
    rows: int


@dataclass(frozen=True)
class Launch:
    """The program to run for one session."""

    argv: list[str]
    env: dict[str, str]  # the child's whole environment: nothing from the client is added
    ended: Callable[[], None] | None = None  # called once the program has gone (or never ran)


class NameBook(Protocol):
    """Who owns which name (a `Store` is one)."""

    def name_owner(self, name_key: str) -> str | None: ...

    def claim_name(self, name_key: str, name: str, fingerprint: str) -> bool: ...


def short_fingerprint(fingerprint: str) -> str:
    """`SHA256:abcdefghijkl`: enough of a key's fingerprint to tell keys apart in a log."""
    kind, _, digest = fingerprint.partition(":")
    return f"{kind}:{digest[:12]}" if digest else fingerprint[:19]


def safe_term(term: str) -> str:
    """The client's terminal type if it is a plausible one, else a common default.

    It becomes the program's TERM, which names a file to look up: nothing like a path.
    """
    return term if _TERM_NAME.fullmatch(term) else DEFAULT_TERM


def safe_size(columns: int, rows: int) -> tuple[int, int]:
    """A size a pty can take: 80x24 for an unknown (0) side, at most 9999."""
    return (min(columns, 9999) or 80, min(rows, 9999) or 24)


def normal_code(code: str) -> bytes:
    """A join code as compared: upper case, without spaces or dashes."""
    return "".join(code.split()).replace("-", "").upper().encode("utf-8", "surrogatepass")


def code_matches(given: str, expected: str) -> bool:
    """True if `given` is the join code (in time that does not depend on how close it was)."""
    return hmac.compare_digest(normal_code(given), normal_code(expected))
