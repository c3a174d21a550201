"""The last lines said in a room (the lobby, or a table), told to whoever arrives."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Protocol

import msgspec

from .messages import Chat, ServerMessage


class Listener(Protocol):
    """Anyone who hears a room's chat (a party member, a table's connection)."""

    def send(self, message: ServerMessage) -> None: ...


class ChatLog:
    """A room's chat: each line told to everyone there, and the last `kept` told again to
    whoever arrives (marked `earlier`)."""

    def __init__(self, kept: int) -> None:
        self._lines: deque[Chat] = deque(maxlen=kept)

    def say(self, line: Chat, everyone: Iterable[Listener]) -> None:
        """Tell `everyone` in the room `line`, and keep it for whoever comes."""
        self._lines.append(line)
        for listener in everyone:
            listener.send(line)

    def tell_earlier(self, listener: Listener) -> None:
        """Tell `listener`, arriving, the last lines said here before they came."""
        for line in self._lines:
            listener.send(msgspec.structs.replace(line, earlier=True))

    def goes_on_from(self, earlier: ChatLog) -> None:
        """The same people moved here (a rematch): what they said there goes on here."""
        self._lines.extend(earlier._lines)
