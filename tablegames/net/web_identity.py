"""Who a browser is, without accounts: the name form's checks and the signed cookie that
remembers the guest a browser was given (free of sockets; the web door does the I/O).

A browser guest is like an SSH guest: it plays as "guest-NAME" (names starting so are guests'
alone: no key can own one), and a name an SSH key owns or uses now is refused. What a guest
has is a random id, kept in a cookie the server signs (HMAC-SHA256 with a key in the data
directory, owner-only): the seats they take are held under that id, so closing the tab and
opening the page again (even from another network) returns them to their seat.

A cookie is only a claim: the party keeps its own record of the guests it let in
(`GuestBook`: the store's, so a restart keeps them) and whether each gave the join code, and
the cookie names the party that issued it (its lasting id). `/forget` and the host's `ban`
strike a guest from the record, and every copy of their cookie, anywhere, is then no cookie;
a cookie of another party (another store on the same machine shares the key) is no cookie
either. A cookie that is not exactly what the server signed, or is older than `COOKIE_DAYS`,
is no cookie: the browser is shown the form again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..names import clean_name
from ..paths import owner_only_dir, owner_only_draft, owner_only_file

COOKIE_NAME = "tablegames_guest"
COOKIE_DAYS = 30  # a browser not seen for this long is a stranger again
COOKIE_LIMIT = 1024  # characters of a cookie value worth reading
KEY_NAME = "web_cookie_key"
KEY_BYTES = 32
FORM_LIMIT = 256  # characters of a form field worth reading (a name is at most 24)


class FormRefused(ValueError):
    """What the name form was given cannot be had; the message is the sentence to show."""


@dataclass(frozen=True)
class WebGuest:
    """A browser guest as its cookie remembers it."""

    guest_id: str  # random, the guest's only proof: their seats are held under it
    asked: str  # the name they typed (cleaned)
    name: str  # the name they were given ("guest-NAME")
    party: str  # the lasting id of the party that let them in (`Party.server_id`)
    issued: float  # when the cookie was signed (seconds since the epoch)

    @property
    def holder(self) -> str:
        """What this guest's seats are held under (see `Login.holder`)."""
        return f"web:{self.guest_id}"


def new_guest(asked: str, name: str, party: str, now: float | None = None) -> WebGuest:
    """A new browser guest of `party` who asked for `asked` and plays as `name`."""
    issued = time.time() if now is None else now
    return WebGuest(secrets.token_urlsafe(16), asked, name, party, issued)


class GuestBook(Protocol):
    """The party's own record of the browser guests it let in (a `Store` keeps one)."""

    def fact(self, key: str, make: Callable[[], str]) -> str: ...  # the party's id, "server_id"

    def web_guest_let_in(self, guest_id: str, code_given: bool) -> None: ...

    def web_guest(self, guest_id: str) -> bool | None:
        """None: not let in (or struck out since); else whether they gave the join code."""

    def web_guest_struck(self, guest_id: str) -> None: ...


class GuestsInMemory:
    """A `GuestBook` for a door without a store (tests): gone when the door goes."""

    def __init__(self) -> None:
        self._facts: dict[str, str] = {}
        self._guests: dict[str, bool] = {}

    def fact(self, key: str, make: Callable[[], str]) -> str:
        return self._facts.setdefault(key, make())

    def web_guest_let_in(self, guest_id: str, code_given: bool) -> None:
        self._guests[guest_id] = code_given

    def web_guest(self, guest_id: str) -> bool | None:
        return self._guests.get(guest_id)

    def web_guest_struck(self, guest_id: str) -> None:
        self._guests.pop(guest_id, None)


class CookieSigner:
    """Signs `WebGuest`s into cookie values and reads them back, refusing any other."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("a cookie key needs at least 16 bytes")
        self._key = key

    def sign(self, guest: WebGuest) -> str:
        """The cookie value for `guest`."""
        payload = json.dumps(
            [guest.guest_id, guest.asked, guest.name, guest.party, round(guest.issued)],
            ensure_ascii=True,
            separators=(",", ":"),
        ).encode()
        body = base64.urlsafe_b64encode(payload).rstrip(b"=").decode()
        return f"{body}.{self._mac(body)}"

    def read(self, value: str | None, now: float | None = None) -> WebGuest | None:
        """The guest `value` was signed for, or None: no cookie, a changed one, an old one."""
        if not value or len(value) > COOKIE_LIMIT or value.count(".") != 1:
            return None
        body, mac = value.split(".")
        if not hmac.compare_digest(mac.encode(), self._mac(body).encode()):
            return None
        try:
            fields = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
            guest_id, asked, name, party, issued = fields
            guest = WebGuest(str(guest_id), str(asked), str(name), str(party), float(issued))
        except (ValueError, TypeError, binascii.Error):  # (signed by us: never, but say so)
            return None
        age = (time.time() if now is None else now) - guest.issued
        if age > COOKIE_DAYS * 86400 or age < -86400:
            return None
        return guest

    def _mac(self, body: str) -> str:
        digest = hmac.new(self._key, b"guest\0" + body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def load_cookie_key(path: Path) -> bytes:
    """The key cookies are signed with, at `path` (owner-only), made on first use.

    The same key on every run keeps browsers' cookies valid across restarts of the server.
    """
    if path.exists() and path.stat().st_size >= KEY_BYTES:
        owner_only_file(path)  # tightened if loose; refused if another user's
        return path.read_bytes()
    owner_only_dir(path.parent)
    draft = owner_only_draft(path)
    try:
        draft.write_bytes(secrets.token_bytes(KEY_BYTES))
        try:
            path.unlink(missing_ok=True)  # an empty or short file left by an interrupted run
            os.link(draft, path)
        except FileExistsError:  # another server made it first: use theirs
            return load_cookie_key(path)
    finally:
        draft.unlink(missing_ok=True)
    return path.read_bytes()


def asked_name(field: str | None) -> str:
    """The name typed in the form, cleaned; refused with a sentence if nothing is left."""
    name = clean_name((field or "")[:FORM_LIMIT])
    if not name:
        raise FormRefused("Type the name you want to play under (letters, digits, emoji...).")
    return name


def name_refusal(name: str, holder: str | None, look_alike: str | None = None) -> str | None:
    """Why `name` cannot be a browser guest's (None: it can); `holder` is the key that owns
    or uses it now, if any; `look_alike` why it could be taken for someone else's, if so."""
    if holder is not None:
        return (
            f"The name {name} belongs to a player who joins with an SSH key: choose another "
            "name (or join over ssh with that key)."
        )
    if look_alike is not None:
        return f"That name will not do ({look_alike}): choose another name."
    return None
