"""The party: one server's members, the parts that look after them, and each message sent to
the part whose concern it is (checked whole by mypy: a message type nobody handles fails it).

The server's plumbing (`server.py`) feeds every checked message from a connection to
`Party.receive`; the party answers through the members' `send`. What a client sent is
repeated to it, and to the host's log, only made `visible`.

Limits a stranger cannot turn against a friend: each person (a key's name, a party guest's
login, or the address of a plain `join`) and each address may have only a few live tables at
once (`admission.py`, as at the other doors), and a table that waits `table_wait_limit`
seconds with nothing happening closes; refusals are logged summed, and a connection that keeps
sending what is refused is closed.

The clock (`Timekeeper.tick`, run by the server) moves seats whose person is away past the
takeover time to a bot standing in, and ends the tables that are no longer live. It is
injected, as the store is (`Party(clock=..., wall_clock=...)`): a test moves a `VirtualClock`
on instead of waiting. The host (`close TABLE`: `Tables.close_by_hand`) may end one at any
time; its creator as `owners.py` says. Whoever is at a table that ends is told why and goes to
the lobby.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import assert_never

from ...names import name_key
from ...rules import IllegalAction
from ...store import Store
from ...text import visible
from ..admission import Admission, Visitor
from ..guard import AttemptLimiter, RefusalTally
from ..hosting import HostedTable
from ..messages import (
    MAX_TEXT,
    Act,
    AskLobby,
    Bye,
    Claim,
    ClientMessage,
    CloseTable,
    Create,
    Error,
    ErrorCode,
    Farewell,
    GiveSeat,
    Hello,
    Join,
    Leave,
    Ping,
    Pong,
    Prove,
    Ready,
    Rejoin,
    Rematch,
    Say,
    Start,
    kind_of,
)
from ..seat_life import Whereabouts
from .clock import Timekeeper
from .doors import Doors
from .lobby import LobbyRoom
from .members import Member, PartyConfig
from .owners import Owners
from .seating import Seating
from .tables import Tables

log = logging.getLogger("tablegames.server")
#: What each connection may ask only so often: each one tells a whole table, or the lobby, and
#: the host's log (a join/leave loop would otherwise flood them all).
RATE_LIMITED = (Create, Join, Leave, Ready, Start, GiveSeat, Rematch, AskLobby, CloseTable)
#: What a connection offering a key may say before it has proven it.
BEFORE_PROOF = (Prove, Ping, Pong, Bye)


class Party:
    """One server's members and tables: the lobby, the tables, the people at them, the
    party's own door and its clock, each a part (`lobby`, `tables`, `seating`, `owners`,
    `doors`, `timekeeper`)."""

    def __init__(
        self,
        config: PartyConfig,
        store: Store | None,
        started: Callable[[HostedTable], None],
        guard: AttemptLimiter | None = None,
        ended: Callable[[HostedTable], None] = lambda hosted: None,
        clock_changed: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.store = store  # where the tables, names and ratings are kept (None: nowhere)
        self.clock = clock  # what `tick` and the tables' times away and waits go by
        self.admission = Admission(
            config.code,
            guard or AttemptLimiter(),
            config.max_tables_per_person,
            config.max_tables_per_address,
        )
        self.admission.doors.append(self)
        self.members: set[Member] = set()
        self.refusals = RefusalTally(log)
        self.whereabouts = Whereabouts()
        self.server_id = (
            store.fact("server_id", lambda: secrets.token_hex(16))
            if store is not None
            else secrets.token_hex(16)
        )
        by_code: dict[str, HostedTable] = {}
        self.lobby = LobbyRoom(config, store, by_code, self.members, wall_clock())
        self.tables = Tables(
            config, store, self.lobby, self.whereabouts, by_code, started, ended, clock
        )
        self.seating = Seating(
            store,
            self.tables,
            self.lobby,
            self.whereabouts,
            self.members,
            self.server_id,
            clock_changed,
        )
        self.owners = Owners(config, self.admission, self.tables, self.seating)
        self.doors = Doors(
            config,
            store,
            self.admission,
            self.refusals,
            self.members,
            self.tables,
            self.lobby,
            self.seating,
            self.server_id,
        )
        self.timekeeper = Timekeeper(config, self.tables, self.lobby)
        if store is not None:
            try:  # the history rated now, not in the middle of the night's first game's end
                store.update_ratings()
            except Exception:  # derived data: a mistake in it must never stop the party
                log.exception("the ratings were not brought up to date")

    @property
    def guard(self) -> AttemptLimiter:
        """Wrong join codes per address, at every door of the party (`Admission.guard`)."""
        return self.admission.guard

    @guard.setter
    def guard(self, guard: AttemptLimiter) -> None:
        self.admission.guard = guard

    def receive(self, member: Member, message: ClientMessage) -> None:
        """Do what `message` asks; a refusal is an `error` to `member` (sent here)."""
        # (The protocol layer has seen to it that hello comes first.)
        if member.proving is not None and not isinstance(message, BEFORE_PROOF):
            member.send(Error(code="prove-first", text="prove your key first: update tablegames"))
            member.close()
            return
        try:
            if isinstance(message, RATE_LIMITED) and not member.request_limit.allow():
                raise IllegalAction("too many requests at once: wait a moment")
            self._handle(member, message)
        except IllegalAction as refusal:
            self.refused(member, kind_of(message), str(refusal))

    def _handle(self, member: Member, message: ClientMessage) -> None:
        """Hand `message` to the part whose concern it is."""
        match message:
            case Hello():
                self.doors.hello(member, message)
            case Prove():
                self.doors.prove(member, message)
            case AskLobby():
                member.send(self.lobby.message())
            case Say():
                self.lobby.say(member, message)
            case Join():
                self.seating.join(member, message)
            case Rejoin():
                self.seating.rejoin(member, message)
            case Ready():
                self.seating.ready(member, message)
            case Leave():
                self.seating.leave(member)
            case Act():
                self.seating.act(member, message)
            case Claim():
                self.seating.make_claim(member, message)
            case Create():
                self.owners.create(member, message)
            case Start():
                self.owners.start(member)
            case GiveSeat():
                self.owners.give_seat(member, message)
            case CloseTable():
                self.owners.close(member, message)
            case Rematch():
                self.owners.rematch(member, message)
            case Ping():
                member.send(Pong(n=message.n))
            case Pong():
                pass  # any complete message keeps the connection alive
            case Bye():
                member.close()
            case _:
                assert_never(message)

    def refused(self, member: Member, kind: str, why: str, code: ErrorCode = "illegal") -> None:
        """Tell `member` why its `kind` message was refused; log it (summed); a connection that
        keeps earning refusals (a flood) is closed."""
        why = visible(why)[:MAX_TEXT]  # it may repeat what was sent: a table id, a game's name
        self.refusals.refused(
            f"{kind} messages", member.address, "refused %s from %s: %s", kind, member.name, why
        )
        member.send(Error(code=code, text=why))
        if not member.refusal_limit.allow():
            member.send(Error(code="flood", text="too many refused messages: goodbye"))
            self.refusals.refused(
                "connections (floods)", member.address, "closing %s: a flood", member.name
            )
            member.close()

    def send_away(self, person: str, why: str) -> Visitor:
        """End the connections of the person whose name key is `person` (the host's `kick`
        and `ban`), each told `why`; their seat at a game under way goes to a bot for good (one
        before the deal is free again). Returns their keys, logins and addresses."""
        found = Visitor(person)
        for member in [m for m in self.members if name_key(m.name) == person]:
            found.keys |= {member.key} if member.key is not None else set()
            found.holders |= {member.identity} if member.identity is not None else set()
            found.addresses.add(member.address)
            found.sessions += 1
            member.send(Farewell(code="sent-away", text=why))
            self.seating.goodbye(member)
            member.close()
        for hosted in list(self.tables.values()):
            playing = hosted.table is not None and not hosted.table.over
            for seat in hosted.seats:
                theirs = name_key(seat.name) == person or seat.identity in found.holders
                if playing and seat.human and theirs:
                    hosted.hand_to_bot(seat.number, self.config.takeover_level)
                    found.tables.append(hosted.code)
        self.lobby.changed()
        return found
