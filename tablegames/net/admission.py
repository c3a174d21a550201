"""Who may come in, one policy at every door (the join port, SSH logins, browsers): the join
code, read one way; the host's bans; the names nobody may take; and how many tables one
person, and one address, may keep going.

- **The join code** is compared as people type it (`normal_code`): any case, spaces and any
  dash left out, full-width letters (a phone's keyboard) read as letters. A wrong one counts
  against the address in the party's `AttemptLimiter`, whichever door it came to.
- **Bans** (`ban NAME` at the host's console) hold what the banned person was known by: their
  keys (an SSH key, `tablegames join`'s key), their browsers' ids and their addresses, until
  the server stops. Each door asks `turned_away` before it lets anyone in, and each door
  `Door` registered here ends its own sessions of a person the host sends away.
- **Names** kept for the host (`RESERVED`: host, admin, server, moderator, root, system... and
  "the host", and anything that looks like one of them, by `names.look_alike_key` with
  everything but letters and digits left out) are nobody's; the look-alikes of names someone
  holds are refused too (`names.look_alike_problem`).
- **Tables**: one person may keep `tables_per_person` live tables (waiting or playing) and one
  address `tables_per_address` (everyone behind a router shares one), counted together, so one
  guest cannot take every table from a friend.

This machine's own address (`THIS_MACHINE`: 127.0.0.1, ::1) is everyone's who logged into it
(`ssh` to the same box, a session's program): it is never banned nor capped as an address, as
the SSH door lets as many players in from it as it has sessions; its people are told apart by
their keys, logins and browsers. Other 127.x addresses are as other machines.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from ..names import look_alike_key, look_alike_problem
from .guard import AttemptLimiter, wait_in_words

#: Names people read as the host's or as the server's staff ("the host" too, and look-alikes).
RESERVED = (
    "host",
    "admin",
    "administrator",
    "server",
    "moderator",
    "root",
    "system",
    "sysop",
    "operator",
    "staff",
    "tablegames",
)
TURNED_AWAY = "the host has turned you away"
THIS_MACHINE = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
#: A join code's alphabet and length: no 0/O, 1/I/L or U, so a code read aloud survives.
JOIN_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
JOIN_CODE_LENGTH = 10  # 30**10 codes, 49 bits: hopeless to guess at the rate the guard allows
_DASHES = "\u2212\ufe63\uff0d"  # minus signs a keyboard may give for a dash (not "Pd")


def new_join_code() -> str:
    """A party's secret join code in groups easy to read aloud, e.g. `7KQM-XH4P-2R`."""
    code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def normal_code(code: str) -> bytes:
    """A join code as compared: full-width letters as letters (NFKC), upper case, without
    spaces or dashes of any kind (a phone may turn "-" into "–")."""
    text = unicodedata.normalize("NFKC", code)
    kept = (
        c for c in text if not c.isspace() and c not in _DASHES and unicodedata.category(c) != "Pd"
    )
    return "".join(kept).upper().encode("utf-8", "surrogatepass")


def code_matches(given: str, expected: str) -> bool:
    """True if `given` is the join code (in time that does not depend on how close it was)."""
    return hmac.compare_digest(normal_code(given), normal_code(expected))


def _plain_looks(name: str) -> str:
    """What a name reads as, letters and digits only, without a leading "the"."""
    looks = "".join(c for c in look_alike_key(name) if c.isalnum())
    return looks.removeprefix("the") or looks


_RESERVED_LOOKS = frozenset(_plain_looks(word) for word in RESERVED)


def reserved(name: str) -> bool:
    """True if `name` is, or looks like, one kept for the host ("The host", "h0st", "[admin]")."""
    return _plain_looks(name) in _RESERVED_LOOKS


def own_name() -> str:
    """The name a player joins under unless they say: their login's, or "player" for a login
    whose name is kept for the host (root, admin...)."""
    import getpass

    login = getpass.getuser()
    return "player" if reserved(login) else login


def name_problem(name: str, held: Iterable[str] = ()) -> str | None:
    """Why `name` cannot be anyone's here (None: it can): it is kept for the host, or could be
    taken for a name someone holds (`names.look_alike_problem`). Whose a name is, the doors'
    own rules say."""
    if reserved(name):
        return f"{name} is kept for the host"
    return look_alike_problem(name, held)


def is_loopback(address: str) -> bool:
    """True if `address` is this machine's own (127.x, ::1): where the party's sessions run."""
    try:
        return ipaddress.ip_address(address.removeprefix("::ffff:")).is_loopback
    except ValueError:
        return False


def crowded(address: str, limit: int) -> str:
    """Why one more player from `address` cannot come in (every door says it so)."""
    return (
        f"Too many players from {address} at once (at most {limit}): one of you must leave "
        "first, or the host can allow more with --max-per-address."
    )


def held_back(address: str, wait: float) -> str:
    """What an address that guessed too many wrong join codes is told (SSH and browsers)."""
    return (
        f"Too many wrong join codes from {address}: try again in {wait_in_words(wait)} (or ask "
        "the host for the code: whoever gave it once is not asked again)."
    )


@dataclass
class Visitor:
    """What a person was known by at the doors: their name, keys, browser ids, addresses."""

    name_key: str
    keys: set[str] = field(default_factory=set)  # key fingerprints (SSH, `join`)
    holders: set[str] = field(default_factory=set)  # browser guests' ids ("web:...")
    addresses: set[str] = field(default_factory=set)
    sessions: int = 0  # sessions ended
    tables: list[str] = field(default_factory=list)  # where a bot took their seat

    def merge(self, other: Visitor) -> None:
        self.keys |= other.keys
        self.holders |= other.holders
        self.addresses |= other.addresses
        self.sessions += other.sessions
        self.tables += other.tables


class Door(Protocol):
    """A door the host's kicks reach: it ends its sessions of a person, saying `why`, and
    tells what it knew of them (see `Visitor`)."""

    def send_away(self, name_key: str, why: str) -> Visitor: ...


class Admission:
    """One party's admission policy: its join code, bans and table caps (see the module)."""

    def __init__(
        self,
        code: str | None = None,
        guard: AttemptLimiter | None = None,
        tables_per_person: int = 3,
        tables_per_address: int = 6,
    ) -> None:
        self.code = code  # None: no code is asked for
        self.guard = guard if guard is not None else AttemptLimiter()
        self.tables_per_person = tables_per_person
        self.tables_per_address = tables_per_address
        self.banned = Visitor("")  # every ban, merged (until the server stops)
        self.doors: list[Door] = []

    # -- the join code --------------------------------------------------------------------------
    def held_back(self, address: str) -> float:
        """Seconds before `address` may give a join code again (0: now)."""
        return self.guard.refused_for(address)

    def try_code(self, address: str, given: str) -> bool:
        """True if `given` is the join code (or none is asked); a wrong one counts against
        `address`, a right one forgives it."""
        if self.code is None:
            return True
        if code_matches(given, self.code):
            self.guard.succeeded(address)
            return True
        self.guard.failed(address)
        return False

    def new_code(self) -> str:
        """A fresh join code from now on (whoever is in stays); returns it."""
        self.code = new_join_code()
        return self.code

    # -- bans -----------------------------------------------------------------------------------
    def turned_away(
        self, address: str | None = None, key: str | None = None, holder: str | None = None
    ) -> bool:
        """True if the host banned this address, key or browser."""
        banned = self.banned
        return address in banned.addresses or key in banned.keys or holder in banned.holders

    def send_away(self, name_key: str, ban: bool = False) -> Visitor:
        """End every session of the person called `name_key` at every door (and with `ban`,
        turn away all they were known by until the server stops); returns what was known."""
        found = Visitor(name_key)
        why = "the host sent you away"
        for door in self.doors:
            found.merge(door.send_away(name_key, why))
        if ban:
            self.banned.keys |= found.keys
            self.banned.holders |= found.holders
            self.banned.addresses |= found.addresses - THIS_MACHINE
        return found

    # -- tables ---------------------------------------------------------------------------------
    def tables_problem(self, person: list[str], address: list[str], where: str = "") -> str | None:
        """Why one more table cannot be opened by someone whose person holds the live tables
        `person` and whose address (`where`) holds `address` (their codes); None: it can."""
        if len(person) >= self.tables_per_person:
            return (
                f"you already have {len(person)} tables going ({', '.join(person)}), as many "
                "as one person may: finish or close one first"
            )
        if len(address) >= self.tables_per_address and where not in THIS_MACHINE:
            return (
                f"your address already has {len(address)} tables going, as many as one "
                "address may: join one of them, or finish or close one first"
            )
        return None
