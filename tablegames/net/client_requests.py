"""What a player asks of the server (`client.ask`): each request is one message, sent now; the
server's answer (a seat, an update, a refusal) comes later among the client's events."""

from __future__ import annotations

from typing import Protocol

from ..rules import Action
from ..table import Update
from .held_seats import HeldSeats
from .messages import (
    MAX_TEXT,
    Act,
    Claim,
    CloseTable,
    Create,
    Join,
    Leave,
    Message,
    Ping,
    Ready,
    Rematch,
    Say,
    Start,
)


def fit(text: str | None) -> str:
    """What a player typed (a name, a code, a line), cut to the longest text a message holds:
    the server then says what is wrong with it, as it would with any wrong one."""
    return (text or "")[:MAX_TEXT]


class Asker(Protocol):
    """What the requests need of the client that says them (a `ClientProtocol`)."""

    seat: int | None
    ready: bool
    latest: Update | None
    spectate: bool
    held: HeldSeats

    @property
    def connected(self) -> bool: ...

    def send(self, message: Message) -> None: ...

    def forget_table(self) -> None: ...


class Requests:
    """The requests a player makes at a table or in the lobby, said by `client`'s connection."""

    def __init__(self, client: Asker) -> None:
        self._client = client
        self._pings = 0  # the last numbered ping sent (`barrier`)

    def _refusal(self, seat: int | None) -> str | None:
        """Why nothing can be asked for `seat` now (None: it can)."""
        client = self._client
        if client.seat is None or seat != client.seat:
            return "that seat is not yours"
        if not client.connected:
            return "not connected: reconnecting…"
        return None

    def play(self, seat: int | None, action: Action, seen: int | None = None) -> str | None:
        """Play `action` for our seat, chosen on the view of version `seen` (None: the latest);
        a refusal comes back later as an `error`. None: sent, else why not."""
        refused = self._refusal(seat)
        if refused is None:
            latest = self._client.latest
            seen = seen if seen is not None else latest.version if latest else 0
            self._client.send(Act(seen=seen, action=action))
        return refused

    def claim(self, seat: int | None, claim: dict[str, object]) -> str | None:
        """Make a public claim for our seat; a refusal comes back as an `error`. None: sent."""
        refused = self._refusal(seat)
        if refused is None:
            self._client.send(Claim(claim=claim))
        return refused

    def barrier(self) -> int:
        """Ask the server for a pong numbered by what this returns: the server answers what it
        was sent in order, so once that pong is back every update our earlier messages caused
        (an action applied or refused) has arrived before it."""
        self._pings += 1
        self._client.send(Ping(n=self._pings))
        return self._pings

    def chat(self, text: str) -> None:
        """Say `text` to the table we are at (or the lobby)."""
        self._client.send(Say(text=fit(text)))

    def ready(self, ready: bool = True) -> None:
        """Say we are ready to be dealt in (or, with False, not yet). The client keeps what
        we said and says it again when it takes our seat back before the deal."""
        self._client.ready = ready
        self._client.send(Ready(ready=ready))

    def start_now(self) -> None:
        """As the table's creator: deal now, empty seats become bots."""
        self._client.send(Start())

    def new_table(
        self,
        game: str,
        players: int,
        bots: str | None = None,
        options: dict[str, object] | None = None,
        humans: int | None = None,
    ) -> None:
        """Open a new table on the server and sit in its first seat (we may start it)."""
        table = Create(game=game, players=players, options=options or {}, bots=bots, humans=humans)
        self._client.send(table)

    def join(self, code: str, spectate: bool = False) -> None:
        """Take a seat at table `code` (or watch it); `seated` or an error answers. A seat we
        hold there (we went back to the lobby) is ours again, by its token."""
        client = self._client
        client.spectate = spectate
        token = None if spectate else client.held.token_at(code)
        proof = client.held.proof(code, token) if token is not None else None
        client.send(Join(table=fit(code), spectate=spectate, proof=proof))

    def close_table(self, code: str) -> None:
        """As the creator of table `code`: end it now (everyone there goes to the lobby)."""
        self._client.send(CloseTable(table=fit(code)))

    def leave(self) -> None:
        """Back to the lobby (a seat at a game under way is held for us)."""
        self._client.send(Leave())
        self._client.forget_table()

    def rematch(self) -> None:
        """After a game: ask for the same seats and a new deal."""
        self._client.send(Rematch())
