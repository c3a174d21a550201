"""Who came in under which name at the party's doors: the names keys use now, the guests who
came lately (the same name from the same address is the same guest), and the names keys own
(kept by the store, freed once unused for long)."""

from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from ..names import NAME_LIMIT, clean_name, name_key
from .admission import name_problem
from .ssh_types import GUEST_PREFIX, NameBook, SshConfig

GUESTS_KEPT = 2000  # guests remembered at most (the oldest who left are forgotten first)
NAMES_SWEPT_EVERY = 3600.0  # seconds between looks for names unused too long


@dataclass
class GuestRecord:
    """A guest the door has seen lately: the name they were given, whether they gave the code."""

    name: str
    code_given: bool = False
    connected: int = 0  # their connections open now
    left_at: float = 0.0  # when the last one closed


def guest_name(name: str, in_use: Callable[[str], bool]) -> str:
    """A guest's name from the name they asked for: "guest-NAME", numbered while in use."""
    base = name if name_key(name).startswith(GUEST_PREFIX) else GUEST_PREFIX + name
    for number in range(1, 100):
        suffix = "" if number == 1 else f"-{number}"
        candidate = clean_name(base[: NAME_LIMIT - len(suffix)] + suffix)
        if not in_use(candidate):
            return candidate
    return f"{GUEST_PREFIX}{secrets.token_hex(4)}"


class GuestList:
    """The names at the party's doors, for as long as the server runs (the SSH door keeps it;
    the browsers' door asks it too). `logged_in` says the names of the connections logged in
    at the SSH door now, `elsewhere` the names the party's tables hold."""

    def __init__(
        self,
        config: SshConfig,
        names: NameBook,
        log: logging.Logger,
        logged_in: Callable[[], list[str]],
        elsewhere: Callable[[], list[str]],
    ) -> None:
        self.config, self.names, self.log = config, names, log
        self._logged_in, self._elsewhere = logged_in, elsewhere
        self.guests: OrderedDict[tuple[str, str], GuestRecord] = OrderedDict()  # (asked, address)
        self.present: dict[str, tuple[str, int]] = {}  # name key -> (key using it, connections)
        self._names_swept = 0.0

    def name_holder(self, key: str) -> str | None:
        """The key fingerprint that owns the name `key`, or uses it now; None if nobody does."""
        owner = self.names.name_owner(key)
        if owner is None and key in self.present:
            owner = self.present[key][0]
        return owner

    def look_alike_problem(self, name: str) -> str | None:
        """Why `name` could be taken for someone else's here (None: it could not): it mixes
        scripts, or looks like a guest's or a bot's name, or like a name a key owns or someone
        logged in uses, or one at the party's tables. A name held itself is not a look-alike:
        whose it is, the keys say."""
        if self.name_holder(name_key(name)) is not None:
            return name_problem(name)  # (held: only the host's names are refused)
        owned = [owned for owned, _, _ in self.names.owned_names()]
        here = self._logged_in()
        guests = [r.name for r in self.guests.values() if r.connected or self._remembered(r)]
        return name_problem(name, owned + here + guests + self._elsewhere())

    def key_arrived(self, name: str, fingerprint: str) -> None:
        """A key logged in under `name`: nobody else's key may use it while it is here."""
        key = name_key(name)
        if self.names.name_owner(key) == fingerprint:
            self.names.name_used(key)
        _, count = self.present.get(key, (fingerprint, 0))
        self.present[key] = (fingerprint, count + 1)

    def key_left(self, name: str) -> None:
        """A key's connection under `name` closed (the name is free once its last one has)."""
        key = name_key(name)
        fingerprint, count = self.present.get(key, ("", 1))
        if count > 1:
            self.present[key] = (fingerprint, count - 1)
        else:
            self.present.pop(key, None)

    def guest_record(self, asked: str, address: str) -> GuestRecord | None:
        """The guest who came lately as `asked` from `address`, if still remembered."""
        key = (name_key(asked), address)
        record = self.guests.get(key)
        if record is None or record.connected or self._remembered(record):
            return record
        del self.guests[key]
        return None

    def guest_arrived(
        self, asked: str, address: str, code_given: bool, had: str | None = None
    ) -> str:
        """A guest logs in as `asked` from `address`; returns the name they play under: the
        one they had, if they were here lately (or `had`, the name a browser's cookie says
        they were given, if nobody uses it now), else a "guest-NAME" nobody uses."""
        record = self.guest_record(asked, address)
        if record is None:
            keep = had is not None and had.startswith(GUEST_PREFIX) and not self.name_in_use(had)
            record = GuestRecord(had if keep and had else guest_name(asked, self.name_in_use))
        self.guests[(name_key(asked), address)] = record
        self.guests.move_to_end((name_key(asked), address))
        record.connected += 1
        record.code_given = record.code_given or code_given
        gone = [key for key, guest in self.guests.items() if not guest.connected]
        for key in gone[: max(0, len(self.guests) - GUESTS_KEPT)]:
            del self.guests[key]
        return record.name

    def guest_left(self, asked: str, address: str) -> None:
        """A guest's connection closed: they are remembered `guest_hold` seconds from now."""
        record = self.guests.get((name_key(asked), address))
        if record is not None:
            record.connected = max(0, record.connected - 1)
            record.left_at = time.monotonic()

    def release_unused_names(self) -> None:
        """Free the names whose keys have not come for `names_kept_days` (at most hourly)."""
        now = time.monotonic()
        if self._names_swept and now - self._names_swept < NAMES_SWEPT_EVERY:
            return
        self._names_swept = now
        days = self.config.names_kept_days
        for name in self.names.release_names_unused_since(time.time() - days * 86400):
            self.log.info("ssh: the name %s is free again (unused for %d days)", name, days)

    def name_in_use(self, candidate: str) -> bool:
        """True if a key holds `candidate`, or a guest has it or had it lately."""
        key = name_key(candidate)
        guests = (r for r in self.guests.values() if r.connected or self._remembered(r))
        return self.name_holder(key) is not None or any(name_key(r.name) == key for r in guests)

    def _remembered(self, record: GuestRecord) -> bool:
        return time.monotonic() - record.left_at < self.config.guest_hold
