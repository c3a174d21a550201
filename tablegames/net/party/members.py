"""Who is at a party and by what rules: its settings, a member (a connection as the party sees
it), a login a session proved, and who a member is for the limits per person."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..guard import RateLimit
from ..hosting import HostedTable
from ..seat_life import Peer


@dataclass
class PartyConfig:
    """The party's rules; every limit is a setting so tests can shrink them."""

    code: str | None = None  # when set, `hello` must carry it (always with --lan)
    spectator_chat: bool = False  # whether spectators may chat at the tables
    chat_per_second: float = 1.0  # chat lines a connection may send on average...
    chat_burst: int = 5  # ...and at once
    heartbeat: float = 5.0
    max_tables: int = 50
    # Live tables (waiting or playing) one person, and one address, may have at once.
    max_tables_per_person: int = 3
    max_tables_per_address: int = 6
    requests_per_second: float = 5.0  # lobby and seat requests (join, leave, ready...) a
    request_burst: int = 20  # connection may make on average, and at once
    table_wait_limit: float = 1800.0  # a table that waits this long with nothing happening closes
    # A game under way (opened in the lobby) that nobody has been at for this long ends: its
    # slot is not held for people who all left (a player dropped for longer has lost it).
    table_idle_limit: float = 180.0
    # A finished table nobody is at stays this long (the clients' reconnect window): a player
    # whose connection dropped at the results comes back to them and to the rematch.
    finished_grace: float = 30.0
    takeover_after: float | None = None  # seconds before a bot plays for someone away
    takeover_level: str = "normal"
    # Addresses the host forwards to this server (`--forwarded-at`, as `proofs.endpoint` writes
    # them): a proof a client made for one of them is good here too.
    forwarded_at: tuple[str, ...] = ()


class Member(Peer, Protocol):
    """A connection as the party sees it."""

    address: str
    reached: str  # the address this connection reached the server at (`proofs.endpoint`)
    nonce: str  # its challenge, sent in the welcome
    proving: str | None  # the public key its hello offered, until `prove` proves it
    greeted: bool
    table: HostedTable | None
    identity: str | None  # who a party login is (its name's key, a guest's name@address)
    key: str | None  # the key fingerprint of a party login with one
    chat_limit: RateLimit
    request_limit: RateLimit  # for the messages in RATE_LIMITED
    refusal_limit: RateLimit  # refusals it may earn before it is closed


@dataclass(frozen=True)
class Login:
    """Who a party session proved to be: the name they play under, their key, what their
    seats are held under (`Identity.holder`) and the address they came from."""

    name: str
    key: str | None = None  # a guest has none: their name is only lent
    holder: str | None = None
    address: str = ""


def person(member: Member) -> str:
    """Who a member is, for the limits per person: a key's name, a party guest's login (a name
    from an address, a browser), else an address (a plain `join` proves nothing else)."""
    if member.key is not None:
        return f"key {member.identity}"
    if member.identity is not None:
        return f"guest {member.identity}"
    return f"address {member.address}"


def reached_at(member: Member, config: PartyConfig) -> tuple[str, ...]:
    """The addresses a proof on `member`'s connection may be made for: the one its socket was
    reached at, and those the host forwards here. (A look-alike server elsewhere that relays
    our challenge collects answers made for its own address, which is none of these.)"""
    return (member.reached, *config.forwarded_at)


#: What a client whose proof was made for another address (or connection) hears.
FORWARD_HINT = (
    "if you reach this party through a port forward, its host names the address you connect "
    "to with --forwarded-at"
)
