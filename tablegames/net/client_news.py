"""What a remote client heard, told on (`RemoteClient.news`): each seat update to the screens'
listeners, errors, chat and presence to the notice listeners, and every event, in order, to
whoever awaits the next one (the handshake, a headless bot)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..table import Update
from .client_protocol import HOST_LINE, Event, chat_line, update_of
from .messages import Chat, Error, HostSays, Presence, ViewUpdate


class News:
    """The listeners told of what the server said, and the events not yet awaited."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[int | None, Update], None]] = []
        self._notices: list[Callable[[str, str], None]] = []
        self._incoming: asyncio.Queue[Event] = asyncio.Queue()

    def listen(self, listener: Callable[[int | None, Update], None]) -> None:
        """Call `listener(seat, update)` for every update."""
        self._listeners.append(listener)

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """Call `listener(kind, text)` for errors, chat and presence news."""
        self._notices.append(listener)

    def notify(self, kind: str, text: str) -> None:
        for listener in self._notices:
            listener(kind, text)

    def tell(self, events: list[Event], seat: int | None, at_table: bool) -> None:
        """Tell the screens (and whoever awaits `next`) of `events`, the protocol's, already
        applied; updates go to the listeners only `at_table` (one we left says nothing)."""
        for event in events:
            if isinstance(event, ViewUpdate) and at_table:
                # Each with its own update: several may come in one read, and the client's
                # `latest` is only the newest (a screen keeps every update's log lines, once).
                update = update_of(event)
                for listener in self._listeners:
                    listener(seat, update)
            elif isinstance(event, Presence):
                self.notify("seats", "")
                if event.text:
                    self.notify("presence", event.text)
            elif isinstance(event, Error):
                self.notify("error", event.text)
            elif isinstance(event, Chat) and not event.earlier:
                who, text = chat_line(event)
                self.notify("chat", f"{who}: {text}")
            elif isinstance(event, HostSays):
                self.notify("host", f"{HOST_LINE}: {event.text}")
            self._incoming.put_nowait(event)

    async def next(self) -> Event:
        """What happened next: a message from the server, or `ConnectionLost`."""
        return await self._incoming.get()

    def waiting(self) -> bool:
        """True if events have come that `next` has not given yet."""
        return not self._incoming.empty()

    def start_afresh(self) -> None:
        """A new connection: nothing an earlier one heard and nobody took is given."""
        self._incoming = asyncio.Queue()
