"""What a screen asks of the app, as messages posted to it (`self.app.post_message(ShowMenu())`).

A screen knows no app class: it says what the player chose, and the app (`app.py`) alone
decides what follows — the menu, a party's lobby, a new table, the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from ..net.client import RemoteClient
    from .client import TableClient


class ShowMenu(Message):
    """Back to the menu of games, closing any table (in a party: back to the lobby)."""


class Rematch(Message):
    """After a party game: the same seats, a new deal."""


class Farewell(Message):
    """Close the app, saying `words` in the terminal once it has closed (where a game went)."""

    def __init__(self, words: str = "") -> None:
        super().__init__()
        self.words = words


class StartGame(Message):
    """Replace the setup screen with the table for `client`."""

    def __init__(self, client: TableClient) -> None:
        super().__init__()
        self.client = client


class JoinRemote(Message):
    """Follow `client` to its table over the network."""

    def __init__(self, client: RemoteClient) -> None:
        super().__init__()
        self.client = client


class HostAndJoin(Message):
    """Host `table` (game, players, bots, options) in this app, and sit down at it."""

    def __init__(self, table: dict[str, object], lan: bool, port: int) -> None:
        super().__init__()
        self.table, self.lan, self.port = table, lan, port
