"""The life of a seat at a party, and where each person was last: one state machine for every
door (SSH, browser and `tablegames join` all speak the same protocol to the party).

A seat is in one of five states (`Life`); only these transitions change it:

    OPEN ──sit──▶ SEATED ──leave (a drop, `m` to the lobby, a new table)──▶ AWAY
      ▲             ▲ ▲                                                    │ takeover time
      │             │ └────────────── back (a reconnect, Enter in the lobby) ◀──┤
      │             └─────────────────────────────── back ◀── STOOD_IN ◀───┘
      └── leave before the deal; the host frees it (before the deal only)
    SEATED, AWAY ──the host frees it during a game──▶ STOOD_IN (its player is in the lobby)
    any ──the host's `bot`, or a bot chosen for the seat──▶ BOT (for good)

Once the game is dealt no seat is OPEN: a seat's hand goes to nobody but the person holding
it (issue 47), so a newcomer only watches, and a seat the host freed waits for its own player.

AWAY and STOOD_IN hold the seat for its person: their seat token (or login) brings them back,
and a bot stands in (STOOD_IN) once they have been away `takeover` seconds, until they are.
The party's clock (`Party.tick`) makes that move, whatever took the person away. A person is
in the lobby, at one table (seated or watching), or gone; `Whereabouts` remembers the table a
party login was last at, which its next login returns to (the lobby if it was there).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Protocol

from ..rules import Action
from .messages import ServerMessage


class Peer(Protocol):
    """A connection as the hosting layer sees it."""

    name: str

    def send(self, message: ServerMessage) -> None: ...

    def close(self) -> None: ...


class Life(enum.Enum):
    """What a seat is now (see the module's diagram)."""

    OPEN = "open"  # nobody holds it (before the deal)
    SEATED = "seated"  # its person is at it
    AWAY = "away"  # held for its person, who is elsewhere: the takeover clock runs
    STOOD_IN = "stood in"  # held; away past the takeover time, a bot plays until they are back
    BOT = "bot"  # a bot plays it for good


@dataclass
class Seat:
    """One seat: who holds it, how they prove it, and where its life stands."""

    number: int
    name: str = ""
    token_key: bytes | None = None  # set once claimed
    identity: str | None = None  # the proven owner's name key (party logins), if any
    peer: Peer | None = None
    ready: bool = False
    bot_level: str | None = None  # a server-side bot plays this seat for good
    away_since: float | None = None  # when its person left it (AWAY, STOOD_IN)
    standin: bool = False  # a bot plays it meanwhile (STOOD_IN, or OPEN during a game)
    # The actions applied for this seat by the client version they were sent from: the same
    # action from the same version again is a resend (or a double press), only answered.
    applied: dict[int, list[Action]] = field(default_factory=dict)

    @property
    def life(self) -> Life:
        if self.bot_level is not None:
            return Life.BOT
        if self.token_key is None:
            return Life.OPEN
        if self.peer is not None:
            return Life.SEATED
        return Life.STOOD_IN if self.standin else Life.AWAY

    @property
    def claimed(self) -> bool:
        return self.token_key is not None or self.bot_level is not None

    @property
    def human(self) -> bool:
        return self.token_key is not None

    # -- transitions -------------------------------------------------------------------------
    def sit(self, peer: Peer, token_key: bytes, identity: str | None) -> None:
        """OPEN -> SEATED: `peer` takes the seat, proven by `token_key` (and `identity`)."""
        self.token_key, self.peer, self.name, self.identity = token_key, peer, peer.name, identity
        self.away_since, self.ready, self.standin = None, False, False

    def leave(self, now: float, dealt: bool) -> None:
        """SEATED -> AWAY (held) once the game is dealt; before the deal -> OPEN."""
        self.peer, self.away_since = None, now
        if not dealt:
            self.empty()

    def back(self, peer: Peer) -> bool:
        """AWAY, STOOD_IN (or SEATED, from another terminal) -> SEATED; True if it was away."""
        returning = self.away_since is not None
        self.peer, self.away_since, self.standin = peer, None, False
        self.name = self.name or peer.name
        return returning

    def stand_in(self) -> None:
        """AWAY -> STOOD_IN: a bot plays until the person is back."""
        self.standin = True

    def to_bot(self, level: str, name: str) -> None:
        """any -> BOT: a bot of `level` plays it for good (the person's token stops working)."""
        self.token_key, self.identity, self.peer, self.away_since = None, None, None, None
        self.bot_level, self.name, self.standin = level, name, False

    def empty(self, standin: bool = False) -> None:
        """any -> OPEN: anyone may take it (`standin`: a bot plays meanwhile)."""
        self.token_key, self.identity, self.ready, self.name = None, None, False, ""
        self.peer, self.bot_level, self.away_since, self.standin = None, None, None, standin

    def takeover_due(self, after: float | None) -> float | None:
        """When a bot should stand in for this seat's person (None: not now, or never)."""
        if after is None or self.life is not Life.AWAY or self.away_since is None:
            return None
        return self.away_since + after

    # -- resends -------------------------------------------------------------------------------
    def applied_before(self, version: int, action: Action) -> bool:
        """True if `action`, sent from client version `version`, was already applied."""
        return action in self.applied.get(version, ())

    def remember(self, version: int, action: Action) -> None:
        """Note that `action`, sent from client version `version`, was applied."""
        self.applied.setdefault(version, []).append(action)


@dataclass(frozen=True)
class Place:
    """Where a person was: at table `code` (watching it, or in a seat), or in the lobby."""

    code: str | None
    watching: bool = False


LOBBY = Place(None)


class Whereabouts:
    """Where each party login (by identity) was last: a table it sat at or watched, or the
    lobby. A dropped connection changes nothing here: the next login goes back there."""

    def __init__(self) -> None:
        self._places: dict[str, Place] = {}

    def went(self, identity: str | None, place: Place) -> None:
        """`identity` is now at `place` (a table, or the lobby)."""
        if identity is not None:
            self._places[identity] = place

    def last(self, identity: str) -> Place | None:
        """Where `identity` was last (None: not since the server started)."""
        return self._places.get(identity)

    def left(self, identity: str | None, code: str) -> None:
        """`identity` no longer holds its seat at table `code` (the host took it away): its
        next login goes to the lobby, not back to that table."""
        if identity is not None and self._places.get(identity, LOBBY).code == code:
            self._places[identity] = LOBBY

    def table_closed(self, code: str) -> None:
        """Whoever was last at table `code` was last in the lobby now."""
        for identity, place in list(self._places.items()):
            if place.code == code:
                self._places[identity] = LOBBY
