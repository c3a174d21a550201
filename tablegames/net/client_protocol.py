"""The client's side of the protocol, sans I/O: what the server said, and where that leaves us.

Feed it what the server sent (`receive_data`), tell it when the connection ended
(`connection_lost`) or a heartbeat passed in silence (`heard_nothing`); take the events
(`events_received`: the server's messages, each already applied, and `ConnectionLost`) and
the bytes to send (`data_to_send`). `client.RemoteClient` is the asyncio plumbing around it.
What a player asks of the server is `client.ask` (`client_requests.Requests`); the seats it holds
there, by their tokens, are `client.held` (`held_seats.HeldSeats`).

    LOST ──say_hello──▶ CONNECTING ──welcome──▶ GREETED ──lobby──▶ LOBBY ◀─┐ leave, or the
                                                   └──seated──▶ SEATED     │ table closed
                                                               WATCHING ───┘
    any ──the connection ends──▶ LOST (say hello again: its seat back by its token)
    any ──sent away (replaced by another terminal, removed by the host)──▶ ENDED (for good)
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..rules import GAMES, Game, get_game
from ..rules.plugins import VARIABLE
from ..table import Update
from .client_requests import Requests, fit
from .held_seats import HeldSeats
from .messages import (
    Bye,
    Chat,
    Error,
    Farewell,
    Hello,
    HostSays,
    Join,
    Lobby,
    Message,
    Ping,
    Pong,
    Presence,
    Prove,
    Ready,
    Rejoin,
    Seated,
    ServerMessage,
    Standing,
    TableNews,
    ViewUpdate,
    Welcome,
)
from .proofs import ClientKey
from .protocol import PROTOCOL_VERSION, ProtocolError, client_side, updated_log, updated_talk
from .seat_tokens import SeatTokens

CHAT_KEPT = 50  # chat lines a client keeps: a flood cannot grow it
#: Who the host's lines are said by, in the chat: no guest's name reads so (`admission`).
HOST_LINE = "⚑ the host"
#: The `bye` codes that end a session for good (no reconnecting): another terminal took the
#: seat, the host freed it, or the host sent the person away.
SENT_AWAY = ("replaced", "removed", "sent-away")
SILENCE_BEATS = 3  # heartbeats without a word from the server: it is gone


class Phase(enum.Enum):
    """Where the client stands (see the module's diagram)."""

    LOST = "lost"  # not connected: not yet, or the connection ended
    CONNECTING = "connecting"  # hello said, no welcome yet
    GREETED = "greeted"  # welcomed: the lobby or a seat comes next
    LOBBY = "lobby"  # at no table
    SEATED = "seated"  # in a seat at a table
    WATCHING = "watching"  # in a spectator's chair at a table
    ENDED = "ended"  # sent away for good (`ended` says why): no reconnecting


@dataclass(frozen=True)
class ConnectionLost:
    """The client's own event, not a message: the connection ended (the server closed it, went
    silent for `SILENCE_BEATS` heartbeats, or sent what we could not read)."""

    silent: bool = False


#: What the client hears: the server's messages (each applied before it is told) and its own.
Event = ServerMessage | ConnectionLost


def update_of(message: ViewUpdate) -> Update:
    """The seat's update `message` brought, its log and talk whole as they were when it came
    (each update of several that arrive together is told with its own lines)."""
    return Update(
        version=message.version,
        view=message.view,
        events=message.events,
        over=message.over,
        legal=message.legal,
        waiting=message.waiting,
        asked=message.asked,
    )


class ServerRefused(Exception):
    """The server said no (wrong code, no such table, no free seat...)."""


class NotInstalled(ServerRefused):
    """The table plays a game this program has not loaded (the server has it)."""


#: The `error` code a client gives itself for a table of a game it lacks (see `_receive`).
NOT_INSTALLED: Final = "not-installed"


def not_installed(game: str) -> str:
    """Why a client cannot play a table of `game`: a game from elsewhere (a plugin) that the
    server loads and this program does not."""
    return (
        f"this table plays {game}, which is not installed here: install its package (or name "
        f"it in {VARIABLE}) to play it"
    )


def chat_line(message: Chat) -> tuple[str, str]:
    """Who said a `chat` message (spectators marked as such) and what they said."""
    return message.name + (" (watching)" if message.watching else ""), message.text


class ClientProtocol:
    """One client's side of the protocol: where it stands, what it knows of its table and the
    lobby, and its connection's life (what it asks is `ask`, the seats it holds `held`).
    `tokens` keeps seat tokens (and the join code's pass) across runs;
    `where` is the server's address as typed (its pass is kept under it); `key` is `join`'s
    lasting key, proven after the welcome; `clock` says when news came. Seats are proven by
    answers to each welcome's challenge (`proofs`), never by sending their tokens."""

    def __init__(
        self,
        name: str,
        where: str = "",
        code: str | None = None,
        table: str | None = None,
        seat: int | None = None,
        spectate: bool = False,
        tokens: SeatTokens | None = None,
        ticket: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        key: ClientKey | None = None,
    ) -> None:
        self.name, self.where, self.code = name, where, code
        self.key = key
        # The address this connection reached the server at, as our socket says (`endpoint`):
        # proofs are bound to it, and seat tokens kept under it.
        self.reached = ""
        self.nonce = ""  # this connection's challenge, from the welcome
        self.table_code, self.wanted_seat, self.spectate = table, seat, spectate
        self.tokens = tokens
        self.ticket = ticket  # a party session's proof of who it is (SSH and browser logins)
        self.clock = clock
        self.phase = Phase.LOST
        self.code_pass: str | None = None  # the server's pass for our right join code
        self.heartbeat: float | None = None  # the server's, once it said welcome
        self.token: str | None = None  # the seat token of this connection's seat
        self.server_id = ""
        self.owner = False  # we created this table: we may start it and give seats away
        self.dealt = False  # the game at our table is on (nobody waits for us to be ready)
        self.ready = False  # we said we are ready to be dealt in at our table (`ask.ready`)
        self.ended = ""  # set when the server sent us away for good (no reconnecting)
        self.ended_code = ""  # why, in a word: "replaced" (another terminal) or "removed"
        self.silent = False  # the last connection ended with the server saying nothing
        self.chat_lines: deque[tuple[str, str]] = deque(maxlen=CHAT_KEPT)  # (who, line)
        self.seat: int | None = None
        self.game: Game | None = None
        self.names: list[str] = []
        self.presence: Presence | None = None
        self.presence_at = 0.0  # when it came (seats' time away counts on from then)
        self.lobby: list[TableNews] = []  # the server's tables, as its lobby last said
        self.lobby_at = 0.0  # when it said so (seats' time away counts on from then)
        self.standings: list[Standing] = []  # the night's ratings, as the lobby last said
        self.latest: Update | None = None
        self.over = False
        self.hanging_up = False  # we want this connection closed (the server spoke nonsense)
        self.ask = Requests(self)
        self.held = HeldSeats(self, tokens)
        self._log: list[object] = []  # the view's log as rebuilt from the updates' new entries
        self._talk: list[object] = []  # the view's talk, rebuilt the same way
        self._quiet = 0  # heartbeats without a word from the server
        self._open = False  # a connection is open (hello said, not yet lost)
        self._conn = client_side()
        self._events: list[Event] = []

    @property
    def connected(self) -> bool:
        return self.phase not in (Phase.LOST, Phase.ENDED)

    # -- the connection -----------------------------------------------------------------------
    def say_hello(self) -> None:
        """A new connection: forget what the last one was sent, and say hello."""
        self._conn = client_side()
        self._events = []  # nothing from an earlier connection leaks in
        self._log, self._talk = [], []  # differences are against what this connection was sent
        self.silent, self.hanging_up, self._quiet = False, False, 0
        self.phase, self._open = Phase.CONNECTING, True
        if self.code_pass is None and self.tokens is not None:
            self.code_pass = self.tokens.get_pass(self.where)
        hello = Hello(
            version=PROTOCOL_VERSION,
            name=fit(self.name),
            code=fit(self.code) or None,
            code_pass=self.code_pass or None,
            ticket=self.ticket or None,
            key=self.key.public if self.key is not None else None,
        )
        self.send(hello)

    def receive_data(self, data: bytes) -> None:
        """Take bytes from the server: each complete message is applied, then an event."""
        self._quiet = 0
        self._conn.receive_data(data)
        for message in self._conn.events_received():
            if isinstance(message, ProtocolError):
                self.hanging_up = True  # what the server sent cannot be read: this line is done
                return
            self._receive(message)

    def heard_nothing(self) -> bool:
        """A heartbeat passed without a word from the server: ping it (a server that is there
        answers at once). True once it has been silent `SILENCE_BEATS` times: it is gone."""
        self._quiet += 1
        if self._quiet >= SILENCE_BEATS:
            self.silent = True
            return True
        self.send(Ping())
        return False

    def connection_lost(self) -> None:
        """The connection ended (whoever ended it): LOST, or ENDED if we were sent away."""
        if not self._open:
            return
        self._open, self.heartbeat = False, None
        if self.phase is not Phase.ENDED:
            self.phase = Phase.LOST
        self._events.append(ConnectionLost(self.silent))

    def events_received(self) -> list[Event]:
        """What happened since the last call, in order."""
        events, self._events = self._events, []
        return events

    def send(self, message: Message) -> None:
        """Queue `message` for the server (see `data_to_send`)."""
        self._conn.send(message)

    def data_to_send(self) -> bytes:
        return self._conn.data_to_send()

    # -- what each message changes --------------------------------------------------------------
    def _receive(self, message: ServerMessage) -> None:
        if isinstance(message, Ping):
            self.send(Pong(n=message.n))
            return
        if isinstance(message, Welcome):
            self._welcomed(message)
        elif isinstance(message, Seated) and message.game not in GAMES:
            # A game from elsewhere the server has and this program has not: back to the
            # lobby, saying so; the connection stays (the lobby's other tables are playable).
            self.ask.leave()
            text = fit(not_installed(message.game))
            self._events.append(Error(code=NOT_INSTALLED, text=text))
            return
        elif isinstance(message, Seated):
            self._seated(message)
        elif isinstance(message, Lobby):
            self.lobby, self.lobby_at = message.tables, self.clock()
            self.standings = message.standings
            if self.phase is Phase.GREETED:
                self.phase = Phase.LOBBY
        elif isinstance(message, ViewUpdate | Presence) and self.table_code is None:
            return  # from a table we left before it knew (one of a game this program lacks)
        elif isinstance(message, Presence):
            self.presence, self.presence_at = message, self.clock()
            self.names = [seat.name for seat in message.seats]
        elif isinstance(message, ViewUpdate):
            self._updated(message)
        elif isinstance(message, Error) and message.code == "table-closed":
            self.forget_table()  # the server sent us back to the lobby
        elif isinstance(message, Chat):
            at_a_table = self.table_code is not None
            if (message.seat is not None or message.watching) != at_a_table:
                return  # said where we were a moment ago (the lobby's, or a table's we left)
            line = chat_line(message)
            if message.earlier and line in self.chat_lines:
                return  # (said before we came, and told again on a reconnect)
            self.chat_lines.append(line)
        elif isinstance(message, HostSays):
            self.chat_lines.append((HOST_LINE, message.text))
        elif isinstance(message, Farewell) and message.code in SENT_AWAY:
            self._end(message.text or "the server sent you away", message.code)
        self._events.append(message)

    def _welcomed(self, welcome: Welcome) -> None:
        self.phase = Phase.GREETED
        self.heartbeat = welcome.heartbeat
        self.server_id, self.name, self.nonce = welcome.server_id, welcome.name, welcome.nonce
        if self.key is not None:  # our key answers this connection's challenge, first thing
            self.send(Prove(signature=self.key.sign(self.nonce, self.server_id, self.reached)))
        given = welcome.code_pass
        if given is not None and given != self.code_pass:
            self.code_pass = given
            if self.tokens is not None:
                self.tokens.put_pass(self.where, given)

    def _seated(self, seated: Seated) -> None:
        # Our seat back (or another at the same table) before the deal: we say again that we
        # are ready, since a server that restarted, or freed our seat, has forgotten it.
        ready = self.ready and seated.table == self.table_code and not seated.dealt
        self.forget_table()  # a new table (a rematch, or one picked in the lobby)
        self.phase = Phase.SEATED if seated.seat is not None else Phase.WATCHING
        self.seat, self.names, self.table_code = seated.seat, list(seated.names), seated.table
        self.owner, self.dealt = seated.owner, seated.dealt
        self.game = get_game(seated.game)
        # A seat taken back comes without its token: the one we hold for it goes on.
        held = self.held.token_at(seated.table) if self.seat is not None else None
        self.keep_token(seated.token or held)
        if ready and self.seat is not None:
            self.ready = True
            self.send(Ready(ready=True))

    def _updated(self, message: ViewUpdate) -> None:
        # The server sends only the log entries (and talk) this connection has not had yet.
        view = message.view
        log = view.get("log")
        if isinstance(log, list):
            self._log = view["log"] = updated_log(self._log, message.log_drop, log)
        talk = view.get("talk")
        if isinstance(talk, list):
            self._talk = view["talk"] = updated_talk(self._talk, talk)
        self.latest = update_of(message)
        self.over = message.over
        if message.over and self.table_code is not None:
            self.held.forget(self.table_code)

    def _end(self, why: str, code: str = "") -> None:
        self.ended, self.ended_code = why, code
        self.phase = Phase.ENDED

    def removed_to_lobby(self) -> None:
        """Our seat was taken away (the host freed it): a party login goes on from the lobby
        on a new connection, knowing nothing of that table."""
        self.ended = self.ended_code = ""
        self.forget_table()
        self.phase = Phase.LOST

    def sits_back(self) -> None:
        """Our seat was given to a bot until we come back (the host freed it), and we come
        back: the next connection proves the seat ours again with its token."""
        self.ended = self.ended_code = ""
        self.phase = Phase.LOST

    def forget_table(self) -> None:
        """We are at no table now (we left, or the server sent us back to the lobby)."""
        self.seat = self.game = self.latest = self.presence = None
        self.table_code, self.token, self.owner, self.over = None, None, False, False
        self.dealt = self.ready = False
        self.chat_lines.clear()  # what was said there: where we go next tells its own
        self.names, self._log, self._talk = [], [], []
        if self.phase in (Phase.SEATED, Phase.WATCHING):
            self.phase = Phase.LOBBY

    # -- seat tokens ----------------------------------------------------------------------------
    def keep_token(self, token: str | None) -> None:
        """Hold `token` as this connection's seat's, for the table we are at (`held`)."""
        if token is None:
            return
        self.token = token
        if self.table_code is not None:
            self.held.keep(self.table_code, token)

    # -- what the connection says --------------------------------------------------------------
    def sit_down(self, lobby: Lobby) -> None:
        """Join the table asked for, or the first open one (`seated` or an error answers)."""
        tables = [table for table in lobby.tables if not table.over]
        code = self.table_code or (tables[0].code if tables else None)
        if code is None:
            raise ServerRefused("the server has no open table")
        game = next((table.game for table in lobby.tables if table.code == code), None)
        if game is not None and game not in GAMES:
            raise NotInstalled(not_installed(game))
        seat = None if self.spectate else self.wanted_seat
        self.send(Join(table=fit(code), seat=seat, spectate=self.spectate))

    def rejoin(self, table: str, token: str) -> None:
        """Take back our seat at `table`, proven by `token`'s answer to this connection's
        challenge (`seated` or an error answers)."""
        self.send(Rejoin(table=fit(table), proof=self.held.proof(table, token)))

    def bye(self) -> None:
        self.send(Bye())

    def rating_changes(self) -> dict[int, tuple[float, float]]:
        """Each seat's rating after the game and its change, as the server said with the seats
        once the game was rated ({} before, or from a server that keeps no ratings)."""
        seats = self.presence.seats if self.presence is not None else []
        return {seat.seat: seat.rating for seat in seats if seat.rating is not None}
