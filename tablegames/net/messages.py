"""Every message of the protocol as a typed value, both ways: what a client says, what a server
says, each a msgspec Struct tagged by its `t` (the wire form is a msgpack map with `"t"`).

A message is decoded and validated in one call (`protocol.decode`) and checked when sent
(`protocol.encode`): a field of the wrong type, a field missing or one nobody knows is refused.
Fields at their default are left out of the map, as older peers expect; the Python names of a
few fields say more than their wire names (`v`, `pass`). What a game puts in a view, an action
or a claim is the game's own plain data (`Plain`), checked for shape and size by the protocol.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

MAX_TEXT = 500  # the longest string a message's own fields may hold

Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
#: A game's plain data (a view, an action, a claim, options): maps with string keys, lists,
#: strings, numbers, booleans and None (`protocol` checks its nesting and sizes on arrival).
Plain = dict[str, object]


class Message(
    msgspec.Struct,
    tag_field="t",
    forbid_unknown_fields=True,
    omit_defaults=True,
    kw_only=True,
):
    """A message of the protocol (the subclasses are the messages; `t` is their tag)."""


class Part(msgspec.Struct, omit_defaults=True, kw_only=True):
    """A record inside a message (a seat, a table of the lobby, a row of the standings): a
    newer server may say more of it, which an older client ignores."""


def kind_of(message: Message | type[Message]) -> str:
    """A message's type as the wire says it: `hello`, `update`..."""
    kind = message if isinstance(message, type) else type(message)
    return str(kind.__struct_config__.tag)


# -- what both ends say ---------------------------------------------------------------------------
class Ping(Message, tag="ping"):
    """Are you there? (answered at once with a `pong` carrying the same `n`)"""

    n: int | None = None


class Pong(Message, tag="pong"):
    n: int | None = None


# -- what a client says ---------------------------------------------------------------------------
class Hello(Message, tag="hello"):
    """The first message of a connection: who we are, and what lets us in."""

    version: int = msgspec.field(name="v")
    name: Text
    code: Text | None = None  # the party's join code
    # A proof of identity the party server gave a session it started (SSH and browser logins).
    ticket: Text | None = None
    # What the server gave for a right join code, shown instead of the code.
    code_pass: Text | None = msgspec.field(default=None, name="pass")
    # `tablegames join`'s lasting public key (`proofs.ClientKey`): `prove` follows the welcome.
    key: Text | None = None


class Prove(Message, tag="prove"):
    """The hello's key signs the welcome's challenge (`proofs.ClientKey.sign`)."""

    signature: Text


class Rejoin(Message, tag="rejoin"):
    """Take back a seat at `table`, proven by the answer its token gives to this connection's
    challenge (`proofs.seat_proof`): the token itself is never sent after it is given."""

    table: Text
    proof: Text


class AskLobby(Message, tag="lobby"):
    """What are the tables? (a `lobby` answers)"""


class Create(Message, tag="create"):
    """Open a table and sit in its first seat (the creator may start it and give seats away)."""

    game: Text
    players: int
    options: Plain = msgspec.field(default_factory=dict)
    bots: Text | None = None  # the level of the bots that fill empty seats
    humans: int | None = None  # the game begins once this many are seated and ready


class Join(Message, tag="join"):
    """Take a seat at a table (the one asked for, or the first free), or watch it."""

    table: Text
    seat: int | None = None
    spectate: bool = False
    # A seat we hold there (we went back to the lobby), proven as `rejoin` proves one.
    proof: Text | None = None


class Ready(Message, tag="ready"):
    ready: bool


class Start(Message, tag="start"):
    """The table's owner: deal now, empty seats become bots."""


class GiveSeat(Message, tag="seat"):
    """The table's owner: seat `seat` to a bot (`bot` or a level), or `free` for someone else."""

    seat: int
    to: Text


class Leave(Message, tag="leave"):
    """Back to the lobby (a seat at a game under way is held)."""


class Rematch(Message, tag="rematch"):
    """After a game: the same seats, a new deal."""


class CloseTable(Message, tag="close"):
    """The table's owner: end it now (everyone there goes to the lobby)."""

    table: Text


class Act(Message, tag="action"):
    """Play `action`, chosen on the view of version `seen`."""

    seen: int = msgspec.field(name="v")
    action: Plain


class Say(Message, tag="chat"):
    """A line of chat, for the table we are at (or the lobby)."""

    text: Text


class Claim(Message, tag="claim"):
    """A structured public claim in the game's vocabulary (`rules/<game>/talk.py`),
    rate-limited with chat; everyone gets it back in the view's `talk`."""

    claim: Plain


class Bye(Message, tag="bye"):
    """We are leaving."""


ClientMessage = (
    Hello
    | Prove
    | Rejoin
    | AskLobby
    | Create
    | Join
    | Ready
    | Start
    | GiveSeat
    | Leave
    | Rematch
    | CloseTable
    | Act
    | Say
    | Claim
    | Ping
    | Pong
    | Bye
)


# -- what a server says ---------------------------------------------------------------------------
class Welcome(Message, tag="welcome"):
    """The answer to a right `hello`."""

    version: int = msgspec.field(name="v")
    server: Text
    heartbeat: float
    server_id: Text  # this server's lasting identity: seat tokens are kept under it
    name: Text  # the name the server knows us by
    nonce: Text  # this connection's challenge: seats and keys are proven by answers to it
    # For a right join code: shown in later hellos, it lets us in without the code (and is
    # never held back for wrong codes others gave from our address).
    code_pass: Text | None = msgspec.field(default=None, name="pass")


class SeatNews(Part):
    """One seat of a table, as `presence` and the lobby tell it."""

    seat: int
    name: str
    taken: bool
    connected: bool
    bot: bool
    ready: bool
    owner: bool
    away: int | None = None  # seconds its person has been away, when they are
    standin: bool = False  # a bot plays it meanwhile
    will_be_bot: str | None = None  # before the deal, for a free seat: the bot's level
    rating: tuple[float, float] | None = None  # after a rated game: (rating, change)


class TableNews(Part):
    """One table of the lobby."""

    code: str
    game: str
    title: str
    players: int
    started: bool
    over: bool
    seats: list[SeatNews]


class Standing(Part):
    """One player's night at one game (see `Store.standings`)."""

    game: str
    name: str
    played: int
    won: int
    change: float
    rating: float


class Lobby(Message, tag="lobby"):
    """The tables (waiting for players first, then playing, then finished) and the night's
    standings."""

    tables: list[TableNews]
    standings: list[Standing] = msgspec.field(default_factory=list)


class Seated(Message, tag="seated"):
    """We are at a table: in `seat` (None: watching), proven by `token` (None: a seat taken
    back keeps the token we hold)."""

    table: Text
    game: Text
    seat: int | None
    token: Text | None
    names: list[str]
    title: Text
    owner: bool = False  # we may start the game and hand seats to bots
    dealt: bool = False  # the game is on: nobody waits for us to be ready


class Presence(Message, tag="presence"):
    """Who sits where at our table, and news of it in words (`text`)."""

    seats: list[SeatNews]
    spectators: int
    text: Text | None = None
    starts: Text = ""  # when the game begins, in words (before the deal)


class ViewUpdate(Message, tag="update"):
    """The seat's view at `version`. The view's `log` holds only new entries: the client drops
    `log_drop` entries from the front of the log it has and adds these; its `talk`, only the
    records not sent yet on this connection."""

    version: int
    view: Plain
    log_drop: int
    events: list[Plain]
    over: bool
    legal: list[Plain]
    waiting: list[int]
    asked: int  # the version since which the seat is asked what it is asked now


class Ack(Message, tag="ack"):
    """An action sent again from version `seen` was applied already."""

    seen: int = msgspec.field(name="v")


#: What an `error` says went wrong, in a word: a refused frame (`bad-frame`...), a refused
#: hello (`version`, `banned`...), a refused request (`illegal`), the table gone.
ErrorCode = Literal[
    # the frame (`protocol`): unreadable, too big, cut off, or not a message of its kind
    "bad-frame",
    "bad-message",
    "frame-size",
    "truncated",
    "hello-first",
    # the door (`Party`'s arrivals): who may come in
    "version",
    "bad-ticket",
    "bad-key",
    "banned",
    "name-taken",
    "held-back",
    "need-code",
    "bad-code",
    "prove-first",
    "bad-proof",
    "bad-token",
    # a request refused, refused too often, or a connection silent too long
    "illegal",
    "flood",
    "timeout",
    # the table
    "table-closed",
    "not-installed",  # (said by the client itself: a table of a game not installed here)
]
#: Why the server sends someone away for good (`Farewell`).
FarewellCode = Literal["replaced", "removed", "sent-away"]


class Error(Message, tag="error"):
    """Something was refused or went wrong; `code` says what in a word, `text` in a sentence."""

    code: ErrorCode
    text: Text


class Chat(Message, tag="chat"):
    """A line someone said (at our table, or in the lobby)."""

    name: Text
    seat: int | None
    text: Text
    watching: bool = False
    earlier: bool = False  # said where we arrive (the lobby, or the table) before we came


class HostSays(Message, tag="host"):
    """A line the host said at the server's console: shown as the host's, never as chat (no
    client may send this message, and no guest's name reads as the host's)."""

    text: Text


class Farewell(Message, tag="bye"):
    """The server sends us away for good (`replaced` by another terminal, `removed` by the
    table's owner or host, `sent-away` by the host: the whole session ends)."""

    text: Text | None = None
    code: FarewellCode | None = None


ServerMessage = (
    Welcome
    | Lobby
    | Seated
    | Presence
    | ViewUpdate
    | Ack
    | Error
    | Chat
    | HostSays
    | Ping
    | Pong
    | Farewell
)
