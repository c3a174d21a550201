"""The remote client: a seat (or a spectator's chair) at a table on a server, over TCP.

`RemoteClient` is the asyncio plumbing around the sans-I/O `ClientProtocol`: it opens the
connection, feeds the protocol what it reads, writes what the protocol sends, and tells the
screens (update listeners, notices, `next_event`) what happened, by its `news` (`News`). It
reconnects by itself with its seat token for `reconnect_window` seconds and resumes with a
fresh view. The TUI uses it like `LocalClient`; `join_bot.play_as_bot` drives a headless bot
with it. A server that has said nothing for a heartbeat is pinged (it answers at once); one
silent for `SILENCE_BEATS` heartbeats is taken for gone, as a closed connection is. The pass a
server gives for a right join code is shown on every reconnect. What the player asks goes by
`client.ask` (`Requests`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import TypeVar

from ..rules import Action
from ..table import Update
from .client_news import News
from .client_protocol import (
    NOT_INSTALLED,
    SILENCE_BEATS,
    ClientProtocol,
    ConnectionLost,
    Event,
    NotInstalled,
    ServerRefused,
)
from .messages import Error, Lobby, Message, Seated, ServerMessage, Welcome
from .proofs import ClientKey, endpoint
from .seat_tokens import SeatTokens
from .words import join_line

log = logging.getLogger("tablegames.client")
M = TypeVar("M", bound=Message)

__all__ = ["SILENCE_BEATS", "HungUp", "RemoteClient", "SeatTokens", "ServerRefused"]


class HungUp(ConnectionError):
    """The connection closed during the handshake (e.g. a server that was just dying)."""


def why_not_joined(problem: Exception, host: str, port: int) -> str:
    """A sentence for a player whose join failed with `problem`."""
    where = f"{host}:{port}"
    if isinstance(problem, ServerRefused):
        return f"The table at {where} said no: {str(problem).rstrip('.')}."
    if isinstance(problem, ConnectionRefusedError):
        return f"Nothing answers at {where}. Is `tablegames host` running there, on that port?"
    if isinstance(problem, socket.gaierror):
        return f"There is no machine called {host!r} that this one can find."
    if isinstance(problem, TimeoutError):
        return f"{where} did not answer in time."
    reason = problem.strerror if isinstance(problem, OSError) and problem.strerror else problem
    return f"Could not reach {where}: {reason}."


class RemoteClient(ClientProtocol):
    """One seat at a remote table (or a spectator when `spectate`)."""

    read_only = False

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        code: str | None = None,
        table: str | None = None,
        seat: int | None = None,
        spectate: bool = False,
        reconnect_window: float = 30.0,
        tokens: SeatTokens | None = None,
        ticket: str | None = None,
        key: ClientKey | None = None,
    ) -> None:
        super().__init__(
            name,
            f"{host}:{port}",
            code,
            table,
            seat,
            spectate,
            tokens=tokens,
            ticket=ticket,
            key=key,
        )
        self.host, self.port = host, port
        self.reconnect_window = reconnect_window
        self.why = ""  # why the last reconnect failed
        self.news = News()  # what it heard, told to the screens and to `next_event`
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._closing = False

    # -- the client interface the TUI uses ----------------------------------------------------
    @property
    def seats(self) -> list[int]:
        return [] if self.seat is None else [self.seat]

    def listen(self, listener: Callable[[int | None, Update], None]) -> None:
        """Call `listener(seat, update)` for every update."""
        self.news.listen(listener)

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """Call `listener(kind, text)` for errors, chat and presence news."""
        self.news.listen_notices(listener)

    def submit(self, seat: int | None, action: Action, seen: int | None = None) -> None:
        """Send `action` for our seat, chosen on the view of version `seen` (None: the latest).
        A refusal comes to the notice listeners as an `error`: the server's, later, or at once
        when it cannot be sent (not our seat, not connected)."""
        refused = self.ask.play(seat, action, seen)
        if refused is not None:
            self.news.notify("error", refused)

    def claim(self, seat: int | None, claim: dict[str, object]) -> None:
        """Send a claim for our seat; a refusal comes as `submit`'s does."""
        refused = self.ask.claim(seat, claim)
        if refused is not None:
            self.news.notify("error", refused)

    def update(self, seat: int | None = None) -> Update | None:
        return self.latest

    def waiting_for(self) -> frozenset[int]:
        return frozenset(self.latest.waiting) if self.latest else frozenset()

    def way_back(self) -> str:
        """How to take this seat back after leaving, while the game goes on: the same `join`
        (with the table's code), or for a party's guest the same login."""
        if self.seat is None or self.over or self.table_code is None or self.spectate:
            return ""
        if self.ticket:  # a party session, over SSH
            return "Your seat is kept while the game goes on: log in again the same way for it."
        line = join_line(self.host, self.port, self.name, self.table_code, self.code)
        return f"Your seat is kept while the game goes on; this takes you back to it:\n  {line}"

    # -- connection -----------------------------------------------------------------------------
    async def connect(self, timeout: float = 10.0, lobby: bool = False) -> None:
        """Connect, say hello and take a seat: ours again if we hold one, else a free one (or,
        with `lobby` and no table of ours, stay in the lobby).

        Raises ServerRefused, OSError, or TimeoutError when the whole exchange takes too long.
        """
        async with asyncio.timeout(timeout):
            first = await self.greet()
            if isinstance(first, Seated):  # a party login back at the seat it holds
                return
            if lobby and self.table_code is None:
                return  # we were in the lobby: back to it (our seats stay held)
            if await self.take_back():
                return
            self.sit_down(first)
            await self._expect(Seated)  # the token it carries is kept as it arrives

    async def greet(self) -> Lobby | Seated:
        """Connect and say hello; returns what follows the welcome (`lobby`, or `seated`)."""
        await self._stop_reading()
        self.news.start_afresh()  # nothing from an earlier connection leaks in
        reader, writer = await asyncio.open_connection(self.host, self.port)
        self._writer = writer
        self.reached = endpoint(writer.get_extra_info("peername"))
        self.say_hello()
        self._reader_task = asyncio.get_running_loop().create_task(self._read(reader))
        await self._expect(Welcome)
        first = await self._expect_one_of(Lobby, Seated)
        assert isinstance(first, Lobby | Seated)
        return first

    async def take_back(self) -> bool:
        """Sit back down with our seat's token, or one kept for this server; True if we did."""
        for table, token in self.held.to_try():
            self.rejoin(table, token)
            try:
                await self._expect(Seated)
            except NotInstalled:
                raise  # the seat is still ours: kept for when the game is installed here
            except ServerRefused:
                self.held.forget(table)  # an old game's
                continue
            self.keep_token(token)  # (kept as the newest: the table we were last at)
            return True
        self.token = None
        return False

    async def _expect_one_of(self, *kinds: type[Message]) -> ServerMessage:
        async with asyncio.timeout(10.0):
            while True:
                event = await self.news.next()
                if isinstance(event, kinds):
                    return event
                if isinstance(event, ConnectionLost):
                    raise HungUp(self.ended or "the server hung up")
                if isinstance(event, Error) and event.code == NOT_INSTALLED:
                    raise NotInstalled(event.text)
                if isinstance(event, Error):
                    raise ServerRefused(event.text)

    async def _expect(self, kind: type[M]) -> M:
        message = await self._expect_one_of(kind)
        assert isinstance(message, kind)
        return message

    def send(self, message: Message) -> None:
        """Send `message` now (the protocol checks it first)."""
        super().send(message)
        data = self.data_to_send()
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(data)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        """Feed the protocol what the server sends, until the connection ends."""
        try:
            while not self.hanging_up:
                try:
                    async with asyncio.timeout(self.heartbeat):
                        data = await reader.read(65536)
                except TimeoutError:
                    if self.heard_nothing():
                        log.info("%s: the server went silent", self.name)
                        break
                    continue
                if not data:
                    break
                self.receive_data(data)
                self._tell()
        except (ConnectionError, OSError):
            pass
        finally:
            log.info("%s: connection lost", self.name)
            if self._writer is not None:
                self._writer.close()  # a silent server's socket is given up, not kept
            self.connection_lost()
            self._tell()

    def _tell(self) -> None:
        """Tell the screens (and whoever awaits `next_event`) what the protocol heard."""
        self.news.tell(self.events_received(), self.seat, at_table=self.latest is not None)

    async def next_event(self) -> Event:
        """What happened next: a message from the server, or `ConnectionLost`."""
        return await self.news.next()

    def has_news(self) -> bool:
        """True if events have come that `next_event` has not given yet."""
        return self.news.waiting()

    async def reconnect(self, lobby: bool = False) -> bool:
        """Try to get our seat back for `reconnect_window` seconds (with `lobby`, back to the
        lobby when we had no table); True once resumed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_window
        delay = 0.2
        if self.ended:
            self.why = self.ended
            return False
        while not self._closing and loop.time() < deadline:
            try:
                log.info("%s: reconnecting", self.name)
                await self.connect(lobby=lobby)
                return True
            except (OSError, TimeoutError) as problem:
                log.info("%s: not yet (%r)", self.name, problem)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except ServerRefused as refusal:
                self.why = str(refusal)
                return False
        self.why = "closed" if self._closing else "the server did not come back in time"
        return False

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self.bye()
                self._writer.close()
        await self._stop_reading()

    async def _stop_reading(self) -> None:
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task
            self._reader_task = None
