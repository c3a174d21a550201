"""The party's clock: a bot stands in for each person away past the takeover time, and the
tables that are no longer live end."""

from __future__ import annotations

from ..guard import wait_in_words
from ..hosting import HostedTable
from .lobby import LobbyRoom
from .members import PartyConfig
from .tables import Tables


class Timekeeper:
    """What the clock decides (`tick`, run by the server; a test moves a `VirtualClock` on
    instead of waiting)."""

    def __init__(self, config: PartyConfig, tables: Tables, lobby: LobbyRoom) -> None:
        self.config, self.tables, self.lobby = config, tables, lobby

    def tick(self, now: float | None = None) -> float | None:
        """Do what the clock decides at `now`: a bot stands in for each person away past the
        takeover time, and tables no longer live end. Returns when a takeover is next due
        (None: none; the server also ticks every fraction of a heartbeat)."""
        now = self.tables.clock() if now is None else now
        config = self.config
        took = [
            hosted.take_over(now, config.takeover_after, config.takeover_level)
            for hosted in list(self.tables.values())
        ]
        if any(took):
            self.lobby.changed()
        self.expire_tables(now)
        due = [hosted.takeover_due(config.takeover_after) for hosted in self.tables.values()]
        return min((moment for moment in due if moment is not None), default=None)

    def why_ended(self, hosted: HostedTable, now: float) -> str | None:
        """Why `hosted` is no longer live (None: it is), in words for whoever is still there.

        A table is live while it waits for players (until `table_wait_limit` passes with
        nothing happening), while a game is under way and someone is at it or was within
        `table_idle_limit` (a table opened with `host` waits for its players whatever), and
        once finished, while anyone is still at it and for `finished_grace` after ("" ends it
        quietly: nobody is there; one who went back to the lobby is not waited for:
        `Tables.left`).
        """
        quiet = now - hosted.changed_at
        if hosted.table is None:
            if quiet < self.config.table_wait_limit:
                return None
            return (
                f"Table {hosted.code} waited {wait_in_words(self.config.table_wait_limit)} "
                "without starting and was closed: open a new one when everyone is here."
            )
        if hosted.peers():
            return None
        if hosted.table.over:
            return "" if quiet >= self.config.finished_grace else None
        limit = self.config.table_idle_limit
        if hosted.owner_seat is None or quiet < limit:
            return None
        return f"Nobody was at table {hosted.code} for {wait_in_words(limit)}: it ended."

    def expire_tables(self, now: float | None = None) -> list[str]:
        """End the tables that are no longer live now (`why_ended`); returns their codes."""
        now = self.tables.clock() if now is None else now
        ended = []
        for hosted in list(self.tables.values()):
            why = self.why_ended(hosted, now)
            if why is not None:
                self.tables.close(hosted, why)
                ended.append(hosted.code)
        return ended
