"""What a table's creator may do from the lobby and at their table: open it, deal, give its
seats away and close it before the deal, and call a rematch with everyone there.

A creator's powers over other people's seats (start, free, hand to a bot) end at the deal, and
during a game only the host frees a seat (issue 47); a creator may close their table before
the deal, or while nobody else holds a seat there.
"""

from __future__ import annotations

import logging

from ...bots import LEVELS
from ...rules import GAMES, IllegalAction, SetupError, get_game
from ..admission import Admission
from ..hosting import HostedTable, Stage
from ..messages import CloseTable, Create, GiveSeat, Rematch
from .members import Member, PartyConfig, person
from .seating import Seating
from .tables import Tables

log = logging.getLogger("tablegames.server")


class Owners:
    """A table's creator's hand (the seat `owner_seat`: whoever holds it)."""

    def __init__(
        self, config: PartyConfig, admission: Admission, tables: Tables, seating: Seating
    ) -> None:
        self.config, self.admission, self.tables, self.seating = config, admission, tables, seating

    def create(self, member: Member, message: Create) -> None:
        """`member` opens a table from the lobby and sits at its first seat (the owner's)."""
        if member.table is not None:
            raise IllegalAction("leave your table first")
        if len(self.tables.live()) >= self.config.max_tables:
            raise IllegalAction("this server has as many tables as it takes: join one")
        game, players, bots, humans = message.game, message.players, message.bots, message.humans
        if game not in GAMES:
            raise IllegalAction(f"there is no game called {game}")
        if bots is not None and bots not in LEVELS:
            raise IllegalAction(f"bots are {', '.join(LEVELS)}, not {bots}")
        try:
            # Only the game's declared options (`Game.chosen`): never a stacked deal, a role...
            options = get_game(game).chosen(message.options)
            get_game(game).new(players, 0, **options)  # refuse impossible tables up front
        except (SetupError, TypeError, ValueError) as problem:
            raise IllegalAction(f"cannot set up that table: {problem}") from None
        if humans is not None and not 1 <= humans <= players:
            raise IllegalAction(f"humans must be between 1 and {players}")
        who = person(member)
        mine, here = self.tables.opened_by(who, member.address)
        too_many = self.admission.tables_problem(mine, here, member.address)
        if too_many is not None:
            raise IllegalAction(too_many)
        hosted = self.tables.open(
            game,
            players,
            options,
            fill_with_bots=bots,
            min_humans=humans,
            owner_seat=0,
            creator=who,
            address=member.address,
        )
        log.info("%s opens table %s (%s)", member.name, hosted.code, hosted.game.title)
        self.seating.claim(member, hosted, 0)

    def start(self, member: Member) -> None:
        """The creator deals now (ready themselves)."""
        hosted = self._owned(member)
        hosted.set_ready(member, True)
        self.tables.start_by_hand(hosted.code)

    def give_seat(self, member: Member, message: GiveSeat) -> None:
        """The creator frees a seat, or gives it to a bot, before the deal."""
        hosted = self._owned(member)
        number, to = message.seat, message.to
        if hosted.table is not None:  # a creator's powers end at the deal (issue 47)
            raise IllegalAction("the game has begun: only the host can change a seat now")
        if number == hosted.owner_seat:
            raise IllegalAction("that is your own seat")
        self.tables.give_seat(hosted.code, number, to)

    def _owned(self, member: Member) -> HostedTable:
        hosted = member.table
        seat = hosted.seats.of(member) if hosted is not None else None
        if hosted is None or seat is None or seat.number != hosted.owner_seat:
            raise IllegalAction("only the table's creator can do that")
        return hosted

    def close(self, member: Member, message: CloseTable) -> None:
        """The creator closes their table: before the deal, or while nobody else holds a seat."""
        hosted = self.tables.find(message.table)
        if not self._is_owner(member, hosted):
            raise IllegalAction("only the table's creator can close it")
        others = [s for s in hosted.seats if s.human and s.number != hosted.owner_seat]
        if Stage.of(hosted.table) is Stage.PLAYING and others:  # powers end at the deal (issue 47)
            raise IllegalAction("friends are playing at this table: only the host can end it now")
        self.tables.close_by_hand(hosted.code, member.name)

    @staticmethod
    def _is_owner(member: Member, hosted: HostedTable) -> bool:
        """True if `member` holds the owner's seat: at it now, or (a party login) away from it."""
        if hosted.owner_seat is None:
            return False
        seat = hosted.seats[hosted.owner_seat]
        if seat.peer is member:
            return True
        return member.identity is not None and seat.human and seat.identity == member.identity

    def rematch(self, member: Member, message: Rematch) -> None:
        """A player at a finished table asks for a rematch: once every player there has, it
        begins."""
        hosted = member.table
        seat = hosted.seats.of(member) if hosted is not None else None
        if hosted is None or seat is None or hosted.table is None or not hosted.table.over:
            raise IllegalAction("a rematch is for players at a finished table")
        waiting = hosted.readiness.want_rematch(seat)
        if waiting:
            wanted = f"{seat.name} wants a rematch (waiting for {', '.join(waiting)})."
            hosted.broadcast_presence(wanted)
            return
        self._rematch(hosted)

    def _rematch(self, old: HostedTable) -> None:
        """The same seats at a new table, dealt at once; everyone there moves with them."""
        new = self.tables.open(
            old.game.name,
            old.players,
            old.options,
            fill_with_bots=old.fill_with_bots,
            min_humans=old.min_humans,
            owner_seat=old.owner_seat,
            creator=old.creator,  # (a rematch counts against its table's opener as the first)
            address=self.tables.opened_from(old.code),
        )
        new.chat.goes_on_from(old.chat)  # the same people: what they said goes on with them
        movers = [(s, s.peer) for s in old.seats if s.human and s.peer is not None]
        for seat, peer in movers:
            assert peer is not None
            old.detach(peer)
            number, token = new.claim(peer, seat.number, seat.identity, ready=True)
            self.seating.sit(peer, new, number, token)  # type: ignore[arg-type]
        for seat in old.seats:
            if seat.bot_level is not None and not new.seats[seat.number].claimed:
                new.keep_bot(seat.number, seat.bot_level, seat.name)
        for watcher in list(old.spectators):  # the spectators follow the game to its new table
            old.detach(watcher)
            self.seating.sit(watcher, new, None, None)  # type: ignore[arg-type]
            new.watch(watcher)
        log.info("table %s: a rematch at table %s", old.code, new.code)
        self.tables.moved_on(old)
        self.tables.start(new)
