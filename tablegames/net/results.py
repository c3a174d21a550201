"""How a hosted table's game ended: the winners in the host's log, and each seat's new
rating told to everyone there; and who made each move, for the ratings."""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..ratings import UNPROVEN, bot_mover
from ..store import Store
from ..table import Accepted
from .seats import Seats

log = logging.getLogger("tablegames.host")  # what the host's terminal shows of each table


class Results:
    """One table's results: its seats' ratings once the game is rated (the store rates it)."""

    def __init__(
        self,
        code: str,
        seats: Seats,
        store: Store | None,
        store_id: int | None,
        tell: Callable[[], None],
    ) -> None:
        self._code, self._seats, self._store, self._store_id = code, seats, store, store_id
        self._tell = tell  # tells everyone at the table who sits where (ratings included)
        self.ratings: dict[int, tuple[float, float]] = {}  # seat -> (rating, change), once rated

    def mover(self, accepted: Accepted) -> str:
        """Who made an accepted move, for the ratings: the bot playing its seat, or the person
        whose connection sent it (`hosting.player_of`, passed by `HostedTable.act`)."""
        bot = self._seats[accepted.seat].bot
        if bot is not None:
            return bot_mover(bot)
        return accepted.meta.get("by", UNPROVEN)

    def heard(self, accepted: Accepted) -> None:
        """At the game's end: the winners go to the host's log; once it is rated (by the
        store's saver, which hears of it first), everyone at the table is told each seat's new
        rating, before the last update, so the results screen has them."""
        if accepted.result is None:
            return
        winners = [self._seats[seat].name for seat in accepted.result["winners"]]
        log.info("table %s: the game is over; won: %s", self._code, ", ".join(winners))
        if self._store is not None and self._store_id is not None:
            self.ratings = self._store.rating_changes(self._store_id)
            if self.ratings:
                self._tell()
