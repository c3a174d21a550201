"""A table screen's end of the table port (`client.py`): each seat's latest update, and the
table's news turned into messages for the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.message_pump import MessagePump

from .said import Said

if TYPE_CHECKING:
    from ...table import Update
    from ..client import TableClient


class TablePort:
    """Follows `client` for a screen (`screen`): `keep(seat, update)` is told every update as
    it comes (a screen keeps its log lines in order), then the screen gets `Moved` to bring
    itself up to date; a run of them is handled once, as Textual handles a run of repaints.
    An action or claim of ours the table refused comes as a `Said` refusal, whatever the
    client (one on this machine or over the network).

    Each seat's update is read from the client once per change (`update`). Once `closed`, the
    port passes nothing on: the screen has left the table.
    """

    class Moved(Message, bubble=False):
        """The table changed: bring the screen up to date."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, TablePort.Moved)  # (one catch-up does for a run)

    def __init__(
        self, client: TableClient, screen: MessagePump, keep: Callable[[int | None, Update], None]
    ) -> None:
        self.client = client
        self.closed = False
        self._screen = screen
        self._keep = keep
        self._updates: dict[int, Update] = {}  # each seat's, until the table next changes

    def listen(self) -> None:
        """Start following the table."""
        self.client.listen(self._changed)
        self.client.listen_notices(self._notice)

    def close(self) -> None:
        """Stop passing the table's news on."""
        self.closed = True

    def update(self, seat: int) -> Update:
        """`seat`'s update as the table last sent it."""
        if seat not in self._updates:
            update = self.client.update(seat)
            assert update is not None, "the table screen opens after the first update"
            self._updates[seat] = update
        return self._updates[seat]

    def _changed(self, seat: Any, update: Update) -> None:
        if self.closed:
            return
        self._updates.clear()
        self._keep(seat, update)
        self._screen.post_message(self.Moved())

    def _notice(self, kind: str, text: str) -> None:
        if self.closed:
            return
        if kind == "error":
            self._screen.post_message(Said(text, refusal=True))
