"""The party's lobby: what everyone at no table sees (the tables, the night's standings) and
hears (its chat, the host's lines), and the chat at the tables."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from ...names import clean_name
from ...rules import IllegalAction
from ...store import Store
from ...table import Accepted
from ...text import clean_text
from ..chat_log import ChatLog
from ..hosting import HostedTable, Stage
from ..messages import Chat, HostSays, Lobby, Say, Standing, TableNews
from .members import Member, PartyConfig

log = logging.getLogger("tablegames.server")
CHAT_LIMIT = 300
STANDINGS_SHOWN = 200  # rows of the night's standings a lobby message carries at most
LOBBY_CHAT_KEPT = 20  # the lobby's last lines, told to whoever arrives


class LobbyRoom:
    """What the lobby shows and says, to the members at no table."""

    def __init__(
        self,
        config: PartyConfig,
        store: Store | None,
        tables: Mapping[str, HostedTable],
        members: set[Member],
        opened: float,
    ) -> None:
        self.config, self.store, self.tables, self.members = config, store, tables, members
        self.opened = opened  # the night began: its standings count the games since
        self.chat = ChatLog(LOBBY_CHAT_KEPT)
        self.standings: list[Standing] = []

    def message(self) -> Lobby:
        """The tables: waiting for players first, then playing, then finished."""
        tables = sorted(self.tables.values(), key=lambda hosted: Stage.of(hosted.table))
        return Lobby(tables=[self._line(t) for t in tables], standings=self.standings)

    @staticmethod
    def _line(hosted: HostedTable) -> TableNews:
        """`hosted` as one line of the lobby."""
        return TableNews(
            code=hosted.code,
            game=hosted.game.name,
            title=hosted.game.title,
            players=hosted.players,
            started=hosted.table is not None,
            over=hosted.table is not None and hosted.table.over,
            seats=hosted.seat_news(),
        )

    def changed(self) -> None:
        """Tell everyone in the lobby (greeted, at no table) what the tables are now."""
        lobby = [m for m in self.members if m.table is None]
        if lobby:
            message = self.message()
            for member in lobby:
                member.send(message)

    def say(self, member: Member, message: Say) -> None:
        """`member` says a line: to its table (as the game and the table allow), or to the
        lobby."""
        hosted = member.table
        seat = hosted.seats.of(member) if hosted is not None else None
        if hosted is not None and not hosted.game.chat:
            raise IllegalAction(f"{hosted.game.title} has no chat: use gestures")
        if hosted is not None and seat is None and not self.config.spectator_chat:
            raise IllegalAction("spectators may not chat at this table")
        if hosted is not None and seat is not None and hosted.table is not None:
            silenced = hosted.table.may_talk(seat.number)  # the game's silences hold for chat too
            if silenced is not None:
                raise IllegalAction(silenced)
        if not member.chat_limit.allow():
            raise IllegalAction("you are chatting too fast: that line was not sent")
        text = clean_text(message.text, CHAT_LIMIT)
        if not text:
            return
        line = Chat(
            name=member.name,
            seat=None if seat is None else seat.number,
            text=text,
            watching=hosted is not None and seat is None,
        )
        if hosted is not None:
            hosted.chat.say(line, hosted.peers())
        else:
            self.chat.say(line, [m for m in self.members if m.table is None])

    def announce(self, text: str) -> int:
        """The host says `text` to everyone here, as the host (`HostSays`: no guest can send
        one); returns to how many."""
        line = HostSays(text=clean_text(text, CHAT_LIMIT))
        for member in self.members:
            member.send(line)
        return len(self.members)

    def table_action(self, hosted: HostedTable, accepted: Accepted) -> None:
        """An action at one of the tables (saved, and rated at the end, before this hears of
        it): a game's end changes the night's standings."""
        if accepted.result is not None:
            self.standings = self.night_standings()
            self.changed()

    def night_standings(self) -> list[Standing]:
        """The night's table: per game, everyone who finished a game at this server's tables
        since it started, with their games, wins and ratings (`Store.standings`)."""
        if self.store is None:
            return []
        try:
            rows = self.store.standings(self.opened)[:STANDINGS_SHOWN]
        except Exception:  # derived data: a mistake in it must never stop the party
            log.exception("the night's standings could not be read")
            return []
        return [Standing(**(row | {"name": clean_name(row["name"])})) for row in rows]
