"""What the SSH front door and its host pass each other: settings, who joined, their terminal."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..names import GUEST_PREFIX, name_key

__all__ = ["GUEST_PREFIX"]  # (names starting so are guests' alone: no key can own one)
DEFAULT_TERM = "xterm-256color"
#: The largest terminal a session's program is given: a 4K screen in a small font. A program
#: draws every cell it has, so a client that says 9999x9999 would cost a gigabyte.
MAX_COLUMNS, MAX_ROWS = 640, 240
#: Exit statuses a session's program ends with to say why (the door tells the guest in words).
EXIT_OUT_OF_MEMORY = 86  # it reached its memory limit
EXIT_FAILED = 70  # it failed (what went wrong is in the host's problems log, not on screen)
_TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


@dataclass
class SshConfig:
    """How the SSH front door listens and what it allows; every limit can be changed."""

    host: str = "127.0.0.1"  # loopback unless the host passes --lan
    port: int = 2222  # 0: any free port (tests)
    host_key: Path | None = None  # default data_dir()/"ssh_host_ed25519_key", made on first run
    max_sessions: int = 20  # programs running at once
    idle_timeout: float = 1800.0  # no keystroke for this long: say so and close
    join_code: str | None = None  # when set, every client must give it once at login
    # Before login, as OpenSSH's LoginGraceTime and MaxStartups: a connection has `login_grace`
    # seconds to finish the key exchange and ask to log in (an idle socket goes then); at most
    # `startups_per_source` from one address may be at that stage at once, and of all of them,
    # past `startups[0]` a new one is dropped with chance `startups[1]`%, rising to 100% at
    # `startups[2]`. Logged-in connections count in none of these.
    login_grace: float = 10.0
    startups: tuple[int, int, int] = (20, 30, 100)
    startups_per_source: int = 10  # (guests typing the join code count: a NAT'd party)
    login_timeout: float = 30.0  # from connecting: the join code, a terminal, a program
    max_per_address: int | None = None  # logged in at once from one address; None: max_sessions
    # A guest (no key) who comes back from the same address under the same name within this
    # many seconds is the same guest: the same name, their seat, no join code asked again.
    guest_hold: float = 1200.0
    names_kept_days: float = 30.0  # a name its key has not used for this long is free again
    max_connections: int = 256  # every connection at once, a last stop for a flood
    # Each session's program: its data (heap) at most `session_memory_mb`, its CPU time at most
    # `session_cpu_seconds`, run at a lower priority than the server (`session_nice`).
    session_memory_mb: int = 256
    session_cpu_seconds: int = 3600
    session_nice: int = 5
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

    @property
    def holder(self) -> str:
        """What the seats this login takes are held under: the name (its key owns it), or for
        a guest the name and the address it came from (a guest has nothing else to show)."""
        key = name_key(self.name)
        return f"{key}@{self.address}" if self.guest else key


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

    def name_used(self, name_key: str) -> None: ...

    def release_names_unused_since(self, when: float) -> list[str]: ...

    def owned_names(self) -> list[tuple[str, str, float]]: ...


def out_of_memory(error: BaseException | None) -> bool:
    """True if `error`, or what it came from, is a MemoryError."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, MemoryError):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


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
    """A size a pty can take: 80x24 for an unknown (0) side, at most `MAX_COLUMNS` x `MAX_ROWS`."""
    return (min(columns, MAX_COLUMNS) or 80, min(rows, MAX_ROWS) or 24)
