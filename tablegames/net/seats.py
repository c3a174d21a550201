"""A hosted table's seats: one `Seat` value each, found by number, connection, login or proof,
and each seat's view sent to whoever is at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..names import name_key
from ..rules import IllegalAction
from ..table import Table, Update
from .feed import Feed
from .seat_life import Life, Peer, Seat


class Seats:
    """The seats of one table, as their transitions left them (`seat_life.py`): only
    `HostedTable._apply` puts a changed one back (`put`)."""

    def __init__(self, players: int) -> None:
        self._seats = [Seat(number) for number in range(players)]

    def __getitem__(self, number: int) -> Seat:
        return self._seats[number]

    def __len__(self) -> int:
        return len(self._seats)

    def __iter__(self) -> Iterator[Seat]:
        return iter(list(self._seats))  # a copy: a seat may change while the caller walks on

    def put(self, seat: Seat) -> None:
        """`seat` as a transition left it replaces the one of its number (`HostedTable._apply`
        only: what goes with the change is done there)."""
        self._seats[seat.number] = seat

    def numbered(self, number: int) -> Seat:
        """Seat `number`, or a refusal saying there is none."""
        if not 0 <= number < len(self._seats):
            raise IllegalAction(f"there is no seat {number + 1} at this table")
        return self._seats[number]

    def of(self, peer: Peer) -> Seat | None:
        """The seat `peer` is at (None: it watches, or is not here)."""
        return next((s for s in self._seats if s.peer is peer), None)

    def for_identity(self, identity: str) -> Seat | None:
        """The seat a proven party login holds here, if any."""
        return next((s for s in self._seats if s.human and s.identity == identity), None)

    def proven(self, proves: Callable[[bytes], bool]) -> Seat | None:
        """The seat whose token's key `proves` accepts (`proofs.proves_seat`: in constant
        time; every seat is tried, so the time taken says nothing of which)."""
        found = None
        for seat in self._seats:
            if seat.token_key is not None and proves(seat.token_key):
                found = seat
        return found

    def peers(self) -> list[Peer]:
        """The connections at the seats."""
        return [s.peer for s in self._seats if s.peer is not None]

    def why_no_seat(self, name: str) -> str:
        """Why someone holding no seat here cannot sit down once the game is on."""
        key = name_key(name)
        if any(s.life is Life.BOT and name_key(s.name) == key for s in self._seats):
            return "the host gave your seat at this table to a bot: you may watch the game"
        return "the game has begun: you may watch it (seats are taken before the deal)"

    def follow(self, table: Table, feed: Feed) -> None:
        """From now on each seat's updates at `table` go to whoever is at it (through `feed`)."""
        for seat in self._seats:
            table.subscribe(seat.number, self._deliver(seat.number, feed))

    def _deliver(self, number: int, feed: Feed) -> Callable[[Update], None]:
        def deliver(update: Update) -> None:
            peer = self._seats[number].peer
            if peer is not None:
                peer.send(feed.message(update, peer))

        return deliver
