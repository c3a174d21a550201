"""Who is ready at a hosted table: for the deal (each person at a seat says so), then, once the
game is over, for a rematch; and the table's start rule in words."""

from __future__ import annotations

from ..words import are, plural
from .seat_life import Seat
from .seats import Seats


class Readiness:
    """Who is ready for the next game at one table, read from its seats (a seat's `ready` is
    the seat's own, changed by its transitions), and who asked for a rematch (kept here)."""

    def __init__(
        self,
        seats: Seats,
        fill_with_bots: str | None,
        min_humans: int | None,
        owner_seat: int | None,
    ) -> None:
        self._seats = seats
        # The start rule the table was opened with (it never changes).
        self._fill, self._min_humans, self._owner_seat = fill_with_bots, min_humans, owner_seat
        self._rematch: set[int] = set()  # the seats whose players asked for a rematch

    def everyone_ready(self) -> bool:
        """True once a game may begin by itself: every seat taken, or enough humans (with
        `min_humans`); and every seated human ready."""
        humans = [s for s in self._seats if s.human]
        if not humans or not all(s.ready for s in humans):
            return False
        if all(s.claimed for s in self._seats):
            return True
        return self._min_humans is not None and len(humans) >= self._min_humans

    def unready(self) -> list[str]:
        """The names of the players at the table who have not said they are ready."""
        return [s.name for s in self._seats if s.human and not s.ready and s.peer is not None]

    def in_words(self) -> str:
        """When this table's game begins, as the waiting room says it."""
        empty = f"empty seats become {self._fill or 'normal'} bots"
        if self._min_humans is not None and self._fill is not None:
            players = plural(self._min_humans, "player")
            return f"The game begins when {players} {are(self._min_humans)} ready; {empty}."
        host = "its creator" if self._owner_seat is not None else "the host"
        return (
            f"The game begins when every seat is taken and everyone is ready, or when {host} "
            f"starts it ({empty}; a bot plays for anyone not ready until they are)."
        )

    def want_rematch(self, seat: Seat) -> list[str]:
        """`seat`'s player asks for a rematch; returns the names of the players here still
        to ask (none: it begins)."""
        self._rematch.add(seat.number)
        humans = [s for s in self._seats if s.human and s.peer is not None]
        return [s.name for s in humans if s.number not in self._rematch]

    def for_rematch(self, number: int) -> bool:
        """True if seat `number`'s player asked for a rematch."""
        return number in self._rematch
