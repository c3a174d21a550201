"""People at the party's tables: sitting down, watching, taking a seat back (a reconnect, a
login going back where it was), readiness, playing, and leaving for the lobby or for good."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from ...rules import IllegalAction
from ...store import Store
from ..hosting import DROPPED, HostedTable
from ..messages import Act, Claim, Error, Join, Ready, Rejoin, Seated
from ..proofs import proves_seat
from ..seat_life import LOBBY, Place, Seat, Whereabouts
from .lobby import LobbyRoom
from .members import FORWARD_HINT, Member, reached_at
from .tables import Tables

log = logging.getLogger("tablegames.server")
#: What a seat proof that proves nothing hears (a replayed or relayed one, a wrong one).
BAD_PROOF = (
    f"that seat's proof is not valid here: it answers another connection or server ({FORWARD_HINT})"
)


class Seating:
    """Who sits (or watches) where, and how they come and go."""

    def __init__(
        self,
        store: Store | None,
        tables: Tables,
        lobby: LobbyRoom,
        whereabouts: Whereabouts,
        members: set[Member],
        server_id: str,
        clock_changed: Callable[[], None],
    ) -> None:
        self.store, self.tables, self.lobby = store, tables, lobby
        self.whereabouts, self.members, self.server_id = whereabouts, members, server_id
        self.clock_changed = clock_changed  # something is due sooner: `tick` again

    def join(self, member: Member, message: Join) -> None:
        """`member` asks to sit at (or watch) a table: a seat it holds there is its again."""
        if member.table is not None:
            raise IllegalAction("you are already at a table")
        hosted = self.tables.find(message.table)
        # A seat this person holds here (they went back to the lobby) is theirs again: proven
        # by their login, or by their seat's token's answer to this connection's challenge.
        proof = message.proof
        seat = self._proven_seat(member, hosted, proof) if proof is not None else None
        if seat is None and member.identity is not None:
            seat = hosted.seats.for_identity(member.identity)
        if seat is not None:
            self.take_back(member, hosted, seat)
            return
        if message.spectate:
            self.watch(member, hosted)
            return
        self.claim(member, hosted, message.seat)

    def watch(self, member: Member, hosted: HostedTable) -> None:
        """`member` watches `hosted`."""
        hosted.check_name_free(member.name, None)
        self.sit(member, hosted, None, None)  # first: the views that follow are this table's
        hosted.watch(member)
        if hosted.table is not None:
            member.send(hosted.presence(None))
        self.lobby.changed()

    def claim(self, member: Member, hosted: HostedTable, seat: int | None) -> None:
        """`member` takes a free seat at `hosted` (`seat`, or the first free)."""
        number, token = hosted.claim(member, seat, member.identity)
        self._own_name(member)
        self.sit(member, hosted, number, token)
        member.send(hosted.presence(None))
        self.lobby.changed()

    def _own_name(self, member: Member) -> None:
        """A key that sat down owns its name from now on (not before: a login alone, or a
        refused command, takes nobody's name)."""
        if member.key is None or member.identity is None or self.store is None:
            return
        if not self.store.claim_name(member.identity, member.name, member.key):
            # The SSH door lets one key at a time use a name, so another cannot own it now.
            log.warning("%s sat down under a name another key owns", member.name)

    def sit(self, member: Member, hosted: HostedTable, seat: int | None, token: str | None) -> None:
        """`member` is at `hosted` now (at `seat`, or watching): it is told so, and what was
        said there."""
        member.table = hosted
        self.whereabouts.went(member.identity, Place(hosted.code, watching=seat is None))
        member.send(
            Seated(
                table=hosted.code,
                game=hosted.game.name,
                title=hosted.game.title,
                seat=seat,
                token=token,
                names=[s.name for s in hosted.seats],
                owner=seat is not None and seat == hosted.owner_seat,
                dealt=hosted.table is not None,
            )
        )
        hosted.chat.tell_earlier(member)

    def take_back(self, member: Member, hosted: HostedTable, seat: Seat) -> None:
        """`member` takes back `seat`, which it holds (its token proven, or its login)."""
        log.info("%s takes seat %d of table %s back", seat.name, seat.number + 1, hosted.code)
        member.name = seat.name or member.name
        self.sit(member, hosted, seat.number, token=None)
        hosted.attach(seat, member)
        if hosted.table is not None:
            member.send(hosted.feed.message(hosted.table.update_for(seat.number), member))

    def _proven_seat(self, member: Member, hosted: HostedTable, proof: str) -> Seat | None:
        """The seat at `hosted` whose token `proof` answers this connection's challenge with
        (`proofs`): made for this nonce, this server and the address this socket was reached
        at (or one the host forwards here), so what a listener or a look-alike server collected
        proves nothing here."""
        nonce, addresses = member.nonce, reached_at(member, self.tables.config)
        return hosted.seats.proven(
            lambda key: any(
                proves_seat(key, proof, nonce, self.server_id, reached, hosted.code)
                for reached in addresses
            )
        )

    def rejoin(self, member: Member, message: Rejoin) -> None:
        """`member` takes its seat back by its token's proof (a reconnect)."""
        if member.table is not None:
            raise IllegalAction("you are already at a table")
        hosted = self.tables.get(message.table.upper())
        seat = self._proven_seat(member, hosted, message.proof) if hosted is not None else None
        if hosted is None or seat is None:
            member.send(Error(code="bad-token", text=BAD_PROOF))
            return
        self.take_back(member, hosted, seat)

    def go_back(self, member: Member, identity: str) -> bool:
        """A party login arriving goes back where it was last (`Whereabouts`): its seat at the
        table it was at (or that table, to watch), or the lobby. Without a record (the server
        restarted) it goes back to a seat it holds at a game under way, the newest table's.
        True if it was seated (or sat down to watch) here."""
        place = self.whereabouts.last(identity)
        if place is None:
            held = [
                (hosted, seat)
                for hosted in self.tables.live()
                for seat in [hosted.seats.for_identity(identity)]
                if seat is not None
            ]
            if held:
                self.take_back(member, *held[-1])
                return True
            return False
        hosted = self.tables.get(place.code) if place.code is not None else None
        if hosted is None or (hosted.table is not None and hosted.table.over):
            return False
        seat = hosted.seats.for_identity(identity)
        if seat is not None:
            self.take_back(member, hosted, seat)
            return True
        if place.watching:
            with contextlib.suppress(IllegalAction):
                self.watch(member, hosted)
                return True
        return False

    def ready(self, member: Member, message: Ready) -> None:
        """`member` says whether it is ready: the game may begin, or it plays its own seat
        again (a bot played it since the deal)."""
        hosted = member.table
        if hosted is None or hosted.seats.of(member) is None:
            raise IllegalAction("take a seat first")
        if message.ready and hosted.play_own_seat(member):
            self.lobby.changed()
            return
        hosted.set_ready(member, message.ready)
        if hosted.ready_to_start():
            self.tables.start(hosted)

    def act(self, member: Member, message: Act) -> None:
        """`member` plays a move at its seat."""
        hosted = member.table
        if hosted is None:
            raise IllegalAction("you are not at a table")
        hosted.act(member, message.seen, message.action)

    def make_claim(self, member: Member, message: Claim) -> None:
        """`member` makes a claim at its seat (talk: the chat's rate holds for both)."""
        hosted = member.table
        if hosted is None:
            raise IllegalAction("you are not at a table")
        if hosted.seats.of(member) is None:
            raise IllegalAction("spectators cannot make claims")
        if not member.chat_limit.allow():
            raise IllegalAction("you are talking too fast: that claim was not made")
        hosted.make_claim(member, message.claim)

    def leave(self, member: Member) -> None:
        """`member` leaves its table for the lobby: its seat at a game under way is away (held;
        the takeover clock runs), and the lobby is where its next login comes back to."""
        if member.table is None:
            raise IllegalAction("you are not at a table")
        self.goodbye(member, gone="went back to the lobby")
        self.members.add(member)
        self.whereabouts.went(member.identity, LOBBY)
        self.lobby.chat.tell_earlier(member)
        member.send(self.lobby.message())

    def goodbye(self, member: Member, now: float | None = None, gone: str = DROPPED) -> None:
        """`member`'s connection is gone (or, `gone` says, it went back to the lobby): a seat
        it held at a game under way is away from now (the takeover clock runs)."""
        self.members.discard(member)
        hosted = member.table
        if hosted is not None:
            hosted.detach(member, now, gone)
            member.table = None
            self.clock_changed()
            self.tables.left(hosted, dropped=gone == DROPPED)
            self.lobby.changed()
