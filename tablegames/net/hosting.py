"""A table as the server hosts it: seats with tokens, who is connected, readiness, and bots.

This is the server's game-agnostic bookkeeping, free of sockets: the server calls it with a
`Peer` (anything with `send(message)`), and it answers by sending messages to peers.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from ..bots import get_bot
from ..rules import Action, Game, IllegalAction, get_game
from ..store import SavedSeat, SavedTable, Store
from ..table import Table, Update
from .protocol import log_difference

log = logging.getLogger("tablegames.host")  # what the host's terminal shows of each table
CODE_ALPHABET = "".join(c for c in string.ascii_uppercase if c not in "IO")


class Peer(Protocol):
    """A connection as the hosting layer sees it."""

    name: str

    def send(self, message: dict[str, Any]) -> None: ...


def _bot(game: str, level: str, seat: int) -> Any:
    # A bot's own randomness, never the game's: the game's generator must replay exactly.
    return get_bot(game, level, seat, random.Random(secrets.randbits(64)))


def new_code(length: int = 4) -> str:
    """A short join code, e.g. `KXPF`."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def token_key(token: str) -> bytes:
    """What the server keeps of a seat token: its SHA-256, so lookups reveal nothing by timing."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass
class Seat:
    """One seat: who holds it and how to prove it."""

    number: int
    name: str = ""
    token_key: bytes | None = None  # set once claimed
    peer: Peer | None = None
    ready: bool = False
    bot_level: str | None = None  # a server-side bot plays this seat
    dropped_at: float | None = None
    last_action: tuple[int, Action] | None = None  # (client version, action) for repeats

    @property
    def claimed(self) -> bool:
        return self.token_key is not None or self.bot_level is not None


@dataclass
class HostedTable:
    """A table on the server: the game, its seats, spectators and start rule."""

    code: str
    game: Game
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    fill_with_bots: str | None = None  # level for seats still empty when everyone is ready
    on_action: Callable[[HostedTable, int, Action, float], None] | None = None
    store: Store | None = None
    table: Table | None = None
    seats: list[Seat] = field(default_factory=list)
    spectators: list[Peer] = field(default_factory=list)
    store_id: int | None = None
    _acting_version: int | None = None  # the client version of the action being applied
    _stop_feed: Callable[[], None] | None = None  # the spectators' feed, only while they watch
    # What each peer was last sent of its view's log (forgotten with the peer).
    _logs_sent: WeakKeyDictionary[Peer, list[Any]] = field(default_factory=WeakKeyDictionary)

    def __post_init__(self) -> None:
        self.seats = [Seat(number) for number in range(self.players)]
        if self.store is not None and self.store_id is None:
            self.store_id = self.store.create_table(
                self.code,
                self.game.name,
                self.players,
                self.options,
                "server",
                self.fill_with_bots,
            )

    @classmethod
    def restore(cls, saved: SavedTable, store: Store, **kwargs: Any) -> HostedTable:
        """A table brought back from the store, its game replayed to the last saved action."""
        hosted = cls(
            code=saved.code,
            game=get_game(saved.game),
            players=saved.players,
            options=saved.options,
            seed=saved.seed,
            fill_with_bots=saved.fill_with_bots,
            store=store,
            store_id=saved.id,
            **kwargs,
        )
        for row in saved.seats:
            seat = hosted.seats[row.seat]
            seat.name, seat.token_key, seat.bot_level = row.name, row.token_key, row.bot_level
            seat.dropped_at = 0.0 if row.token_key is not None else None
        if saved.started is not None and saved.seed is not None:
            hosted.seed = saved.seed
            hosted._open(saved.seed, saved.log)
            for (seat_number, action, _), version in zip(
                saved.log, saved.client_versions, strict=True
            ):
                if version is not None:
                    hosted.seats[seat_number].last_action = (version, action)
        return hosted

    def _save_seat(self, seat: Seat) -> None:
        if self.store is not None and self.store_id is not None:
            self.store.save_seat(
                self.store_id, SavedSeat(seat.number, seat.name, seat.token_key, seat.bot_level)
            )

    # -- seats ----------------------------------------------------------------------------------
    def claim(self, peer: Peer, seat: int | None) -> tuple[int, str]:
        """Give `peer` a free seat (the one asked for, or the first free); returns (seat, token)."""
        if self.table is not None:
            raise IllegalAction("the game has started: join as a spectator or reconnect")
        free = [s for s in self.seats if not s.claimed]
        if seat is not None:
            if not 0 <= seat < self.players:
                raise IllegalAction(f"there is no seat {seat} at this table")
            free = [s for s in free if s.number == seat]
        if not free:
            raise IllegalAction("no free seat at this table")
        chosen = free[0]
        token = secrets.token_hex(32)
        chosen.token_key, chosen.peer, chosen.name = token_key(token), peer, peer.name
        self._save_seat(chosen)
        self.broadcast_presence(f"{peer.name} sits down.")
        return chosen.number, token

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat `token` proves, compared in constant time."""
        key = token_key(token)
        found = None
        for seat in self.seats:
            if seat.token_key is not None and hmac.compare_digest(seat.token_key, key):
                found = seat
        return found

    def attach(self, seat: Seat, peer: Peer) -> None:
        """`peer` (re)takes `seat`: a bot standing in steps back."""
        returning = seat.dropped_at is not None
        seat.peer, seat.dropped_at, seat.name = peer, None, seat.name or peer.name
        if self.table is not None and seat.number in self.table.bots and seat.bot_level is None:
            del self.table.bots[seat.number]
        self.broadcast_presence(f"{seat.name} is back." if returning else None)

    def watch(self, peer: Peer) -> None:
        """`peer` watches the table: it gets the spectators' view from now on."""
        self.spectators.append(peer)
        self.broadcast_presence(f"{peer.name} is watching.")
        if self.table is None:
            return
        if self._stop_feed is None:
            self._stop_feed = self.table.subscribe(None, self._deliver_spectators)
        else:
            peer.send(self.update_message(self.table.update_for(None), peer))

    def detach(self, peer: Peer, now: float) -> None:
        """`peer` went away: its seat is held for it; spectators are just forgotten."""
        self._logs_sent.pop(peer, None)
        if peer in self.spectators:
            self.spectators.remove(peer)
            if not self.spectators and self._stop_feed is not None:
                self._stop_feed()  # nobody watches: no spectator view is built after each action
                self._stop_feed = None
        for seat in self.seats:
            if seat.peer is peer:
                seat.peer, seat.dropped_at = None, now
                if self.table is None:  # before the game, a dropped seat is simply free again
                    seat.token_key, seat.ready, seat.name = None, False, ""
                    if self.store is not None and self.store_id is not None:
                        self.store.free_seat(self.store_id, seat.number)
                    self.broadcast_presence(f"{peer.name} left; the seat is free again.")
                elif self.table.over:
                    self.broadcast_presence(f"{peer.name} left.")
                else:
                    self.broadcast_presence(f"{peer.name} dropped out; their seat is held.")

    def take_over(self, seat: Seat, level: str) -> None:
        """A server-side bot plays `seat` until its player comes back."""
        if self.table is not None and seat.number not in self.table.bots:
            self.table.bots[seat.number] = _bot(self.game.name, level, seat.number)
            self.broadcast_presence(f"A bot plays for {seat.name} until they are back.")

    def set_ready(self, peer: Peer, ready: bool) -> None:
        for seat in self.seats:
            if seat.peer is peer:
                seat.ready = ready
        self.broadcast_presence(None)

    # -- the game -------------------------------------------------------------------------------
    def ready_to_start(self) -> bool:
        humans = [s for s in self.seats if s.token_key is not None]
        if self.table is not None or not humans or not all(s.ready for s in humans):
            return False
        return all(s.claimed for s in self.seats) or self.fill_with_bots is not None

    def start(self) -> Table:
        """Deal: fill empty seats with bots, create the table and tell everyone."""
        for seat in self.seats:
            if not seat.claimed:
                seat.bot_level = self.fill_with_bots or "normal"
                seat.name = f"Bot {seat.number + 1}"
        seed = self.seed if self.seed is not None else secrets.randbits(63)
        if self.store is not None and self.store_id is not None:
            self.store.start_table(
                self.store_id,
                seed,
                [SavedSeat(s.number, s.name, s.token_key, s.bot_level) for s in self.seats],
            )
        table = self._open(seed, [])
        self.broadcast_presence("The game begins.")
        return table

    def _open(self, seed: int, log: list[tuple[int, Action, float]]) -> Table:
        """Create the running table (replaying `log`), its bots, persistence and subscribers."""
        names = [seat.name for seat in self.seats]
        table = Table(
            self.game, self.players, names, seed=seed, options=dict(self.options), log=list(log)
        )
        for seat in self.seats:
            if seat.bot_level is not None:
                table.bots[seat.number] = _bot(self.game.name, seat.bot_level, seat.number)
        if self.store is not None and self.store_id is not None:
            self.store.follow(self.store_id, table, lambda: self._acting_version)
        if self.on_action is not None:
            listener = self.on_action
            table.on_action(lambda seat, action, now: listener(self, seat, action, now))
        table.on_action(lambda seat, action, now: self._log_if_over(table))
        for seat in self.seats:
            table.subscribe(seat.number, self._deliver(seat))
        if self.spectators:
            self._stop_feed = table.subscribe(None, self._deliver_spectators)
        self.table = table
        return table

    def act(self, peer: Peer, version: int, action: Action) -> None:
        """Apply `action` from the seat `peer` holds; a repeat of its last one is only answered."""
        seat = self.seat_of(peer)
        if seat is None or self.table is None:
            raise IllegalAction("you are not playing at this table")
        if seat.last_action == (version, action):
            peer.send({"t": "ack", "v": version})
            peer.send(self.update_message(self.table.update_for(seat.number), peer))
            return
        # What the clock decided is nobody's move: it is saved without this client's version.
        self.table.settle_clock()
        self._acting_version = version
        try:
            self.table.submit(seat.number, action)
        finally:
            self._acting_version = None
        seat.last_action = (version, action)

    def seat_of(self, peer: Peer) -> Seat | None:
        return next((s for s in self.seats if s.peer is peer), None)

    def update_message(self, update: Update, peer: Peer) -> dict[str, Any]:
        """`update` for `peer`: its view, with only the log entries `peer` has not been sent.

        A view's log grows within a round, and sending it whole after every action would make
        a round's traffic grow with its square; the client rebuilds the view's log.
        """
        view, drop = update.view, 0
        log = view.get("log")
        if isinstance(log, list):
            drop, added = log_difference(self._logs_sent.get(peer, []), log)
            self._logs_sent[peer] = list(log)  # a copy: a game may go on growing its list
            view = {**view, "log": added}
        return {
            "t": "update",
            "version": update.version,
            "view": view,
            "log_drop": drop,
            "events": update.events,
            "over": update.over,
            "legal": update.legal,
            "waiting": update.waiting,
        }

    def _deliver(self, seat: Seat) -> Callable[[Update], None]:
        def deliver(update: Update) -> None:
            if seat.peer is not None:
                seat.peer.send(self.update_message(update, seat.peer))

        return deliver

    def _deliver_spectators(self, update: Update) -> None:
        for peer in self.spectators:
            peer.send(self.update_message(update, peer))

    # -- telling people -------------------------------------------------------------------------
    def presence(self, text: str | None) -> dict[str, Any]:
        return {
            "t": "presence",
            "seats": [
                {
                    "seat": s.number,
                    "name": s.name,
                    "taken": s.claimed,
                    "connected": s.peer is not None or s.bot_level is not None,
                    "bot": s.bot_level is not None,
                    "ready": s.ready or s.bot_level is not None,
                }
                for s in self.seats
            ],
            "spectators": len(self.spectators),
            "text": text,
        }

    def broadcast_presence(self, text: str | None) -> None:
        if text is not None:
            log.info("table %s: %s", self.code, text)
        self.broadcast(self.presence(text))

    def _log_if_over(self, table: Table) -> None:
        if table.over:
            winners = [self.seats[seat].name for seat in table.state.result()["winners"]]
            log.info("table %s: the game is over; won: %s", self.code, ", ".join(winners))

    def broadcast(self, message: dict[str, Any]) -> None:
        for peer in self.peers():
            peer.send(message)

    def peers(self) -> list[Peer]:
        return [s.peer for s in self.seats if s.peer is not None] + list(self.spectators)

    def summary(self) -> dict[str, Any]:
        """One line of the lobby."""
        return {
            "code": self.code,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "started": self.table is not None,
            "over": self.table is not None and self.table.over,
            "seats": self.presence(None)["seats"],
        }
