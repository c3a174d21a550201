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

A `Seat` is a frozen value: a transition returns a `Change`, the seat as it is now and what
goes with the move (`Effect`: a bot sits down at the running table or stands up, the store
keeps or forgets the seat, a connection is sent away, everyone there hears the news), and
the hosted table applies it in one place (`HostedTable._apply`). So who holds a seat and who
plays it (the running table's bots) cannot drift apart: a bot plays a seat exactly when the
seat says so (`Seat.bot`).

AWAY and STOOD_IN hold the seat for its person: their seat token (or login) brings them back,
and a bot stands in (STOOD_IN) once they have been away `takeover` seconds, until they are.
The party's clock (`Clock.tick`) makes that move, whatever took the person away. A person is
in the lobby, at one table (seated or watching), or gone; `Whereabouts` remembers the table a
party login was last at, which its next login returns to (the lobby if it was there).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Protocol

from ..rules import Action
from .messages import FarewellCode, ServerMessage


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


# -- what goes with a move ----------------------------------------------------------------------
@dataclass(frozen=True)
class BotPlays:
    """A bot of `level` plays the seat at the running table from now on."""

    level: str


@dataclass(frozen=True)
class BotStops:
    """No bot plays the seat at the running table any more (its person is back)."""


@dataclass(frozen=True)
class Kept:
    """The store keeps the seat as it is now (who holds it, their token's key, a bot)."""


@dataclass(frozen=True)
class Forgotten:
    """The store forgets who held the seat: it is free again."""


@dataclass(frozen=True)
class SentAway:
    """`peer`, who held the seat, is told `text` and its connection closed."""

    peer: Peer
    code: FarewellCode
    text: str


@dataclass(frozen=True)
class Told:
    """Everyone at the table hears who sits where now, and `text` (None: only that)."""

    text: str | None


Effect = BotPlays | BotStops | Kept | Forgotten | SentAway | Told


@dataclass(frozen=True)
class Change:
    """A seat after a transition, and what goes with it, in the order it is done."""

    seat: Seat
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Seat:
    """One seat: who holds it, how they prove it, and where its life stands (a value: only the
    transitions below make a changed one)."""

    number: int
    name: str = ""
    token_key: bytes | None = None  # set once claimed
    identity: str | None = None  # the proven owner's name key (party logins), if any
    peer: Peer | None = None
    ready: bool = False
    bot_level: str | None = None  # a server-side bot plays this seat for good
    away_since: float | None = None  # when its person left it (AWAY, STOOD_IN)
    standin: str | None = None  # the level of a bot playing it meanwhile (STOOD_IN)

    @property
    def life(self) -> Life:
        if self.bot_level is not None:
            return Life.BOT
        if self.token_key is None:
            return Life.OPEN
        if self.peer is not None:
            return Life.SEATED
        return Life.STOOD_IN if self.standin is not None else Life.AWAY

    @property
    def claimed(self) -> bool:
        return self.token_key is not None or self.bot_level is not None

    @property
    def human(self) -> bool:
        return self.token_key is not None

    @property
    def bot(self) -> str | None:
        """The level of the bot that plays this seat once the game is on (None: its person)."""
        return self.bot_level or self.standin

    # -- transitions -------------------------------------------------------------------------
    def sit(
        self, peer: Peer, token_key: bytes, identity: str | None, ready: bool = False
    ) -> Change:
        """OPEN -> SEATED: `peer` takes the seat, proven by `token_key` (and `identity`)."""
        seat = Seat(self.number, peer.name, token_key, identity, peer, ready)
        return Change(seat, (Kept(), Told(f"{peer.name} sits down.")))

    def leave(self, now: float, dealt: bool, over: bool, gone: str) -> Change:
        """SEATED -> AWAY (held) once the game is dealt; before the deal -> OPEN. `gone` says
        how its person left, for the news ("went back to the lobby")."""
        name = self.peer.name if self.peer is not None else self.name
        if not dealt:
            return Change(
                Seat(self.number), (Forgotten(), Told(f"{name} left; the seat is free again."))
            )
        news = f"{name} left." if over else f"{name} {gone}; their seat is held."
        return Change(replace(self, peer=None, away_since=now), (Told(news),))

    def back(self, peer: Peer, why_replaced: str) -> Change:
        """AWAY, STOOD_IN (or SEATED, from another terminal) -> SEATED: a bot standing in
        steps back; a terminal that held the seat is sent away (`why_replaced`)."""
        seat = replace(self, peer=peer, away_since=None, standin=None, name=self.name or peer.name)
        effects: list[Effect] = []
        replaced = self.peer is not None and self.peer is not peer
        if self.peer is not None and replaced:
            effects.append(SentAway(self.peer, "replaced", why_replaced))
        if self.standin is not None:
            effects.append(BotStops())
        if replaced:
            effects.append(Told(f"{seat.name}'s seat moved to another terminal."))
        else:
            effects.append(Told(f"{seat.name} is back." if self.away_since is not None else None))
        return Change(seat, tuple(effects))

    def stand_in(self, level: str) -> Change:
        """AWAY -> STOOD_IN: a bot of `level` plays until the person is back."""
        news = f"A bot plays for {self.name} until they are back."
        return Change(replace(self, standin=level), (BotPlays(level), Told(news)))

    def to_bot(self, level: str, dealt: bool) -> Change:
        """any -> BOT: a bot of `level` plays it for good (the person's token stops working)."""
        name = self.name or f"Bot {self.number + 1}"
        seat = Seat(self.number, name, bot_level=level, ready=self.ready)
        effects: list[Effect] = self._send_away("the host gave your seat to a bot")
        effects.append(Kept())
        if dealt:
            effects += [BotPlays(level), Told(f"A {level} bot now plays {name}'s seat.")]
        else:
            effects.append(Told(f"Seat {self.number + 1} will be played by a {level} bot."))
        return Change(seat, tuple(effects))

    def free(self, now: float, dealt: bool, level: str) -> Change:
        """The host frees the seat: before the deal any -> OPEN, for anyone; during a game
        SEATED, AWAY -> STOOD_IN: its person goes to the lobby and a bot of `level` plays it
        until they come back with their token (nobody else ever takes it, and its hand)."""
        if not dealt:
            effects = self._send_away("the host freed your seat")
            effects += [Forgotten(), Told(f"Seat {self.number + 1} is free again.")]
            return Change(Seat(self.number), tuple(effects))
        why = "the host let a bot play your seat until you come back to it"
        effects = self._send_away(why)
        away_since = now if self.peer is not None else self.away_since
        seat = replace(self, peer=None, away_since=away_since, standin=level)
        effects += [BotPlays(level), Told(f"A bot plays for {self.name} until they are back.")]
        return Change(seat, tuple(effects))

    def readied(self, ready: bool) -> Change:
        """SEATED: its person says whether they are ready."""
        return Change(replace(self, ready=ready), (Told(None),))

    def plays_own(self) -> Change:
        """STOOD_IN (at its person's terminal) -> SEATED: they are ready and play it again."""
        news = f"{self.name} is ready and plays their own seat."
        return Change(replace(self, standin=None, ready=True), (BotStops(), Told(news)))

    def dealt(self, fill: str) -> Change:
        """At the deal: OPEN -> BOT (of level `fill`); a person not ready -> a bot plays for
        them until they are (`plays_own`)."""
        seat = self
        if not self.claimed:
            seat = Seat(self.number, f"Bot {self.number + 1}", bot_level=fill)
        elif self.human and not self.ready:
            seat = replace(self, standin="normal")
        return Change(seat, (BotPlays(seat.bot),) if seat.bot is not None else ())

    def resumed(self) -> Change:
        """A game brought back from the store: its bots play again; nobody is back yet, so
        every person's seat is AWAY; a seat nobody holds (an older version let the host free
        one mid-game) gets a bot standing in."""
        seat = self if self.claimed else replace(self, standin="normal")
        return Change(seat, (BotPlays(seat.bot),) if seat.bot is not None else ())

    def kept_bot(self, level: str, name: str) -> Change:
        """OPEN -> BOT before a rematch's deal: the bot of the last game plays it again."""
        return Change(Seat(self.number, name, bot_level=level), (Kept(),))

    def _send_away(self, why: str) -> list[Effect]:
        return [] if self.peer is None else [SentAway(self.peer, "removed", why)]

    def takeover_due(self, after: float | None) -> float | None:
        """When a bot should stand in for this seat's person (None: not now, or never)."""
        if after is None or self.life is not Life.AWAY or self.away_since is None:
            return None
        return self.away_since + after


def restored(
    number: int,
    name: str,
    token_key: bytes | None,
    bot_level: str | None,
    identity: str | None,
    now: float,
) -> Seat:
    """A seat as the store kept it; nobody is back yet: every person's seat is away from now."""
    away = now if token_key is not None else None
    return Seat(number, name, token_key, identity, bot_level=bot_level, away_since=away)


class Resends:
    """The actions applied for each seat by the client version they were sent from: the same
    action from the same version again is a resend (or a double press), only answered."""

    def __init__(self) -> None:
        self._applied: dict[int, dict[int, list[Action]]] = {}

    def applied_before(self, seat: int, version: int, action: Action) -> bool:
        """True if `action`, sent for `seat` from client version `version`, was applied."""
        return action in self._applied.get(seat, {}).get(version, ())

    def remember(self, seat: int, version: int, action: Action) -> None:
        """Note that `action`, sent for `seat` from client version `version`, was applied."""
        self._applied.setdefault(seat, {}).setdefault(version, []).append(action)


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
