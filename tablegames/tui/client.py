"""What a screen needs of a table client: the local, the network and the replay clients all fit.

Screens use a client only through these members (a test checks every client has each), so a
screen never asks what kind of client it has.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..net.messages import Presence
    from ..rules import Game
    from ..table import Update


class TableClient(Protocol):
    """Seats at one table: their updates, their actions, and what else the screens show."""

    # Whether nothing may be played through it (a replay).
    read_only: bool
    # When the presence came (network games: seats' time away counts on from then).
    presence_at: float
    # Seconds between the bots' moves, where this terminal paces them (see `paces_bots`).
    pace: float

    @property
    def presence(self) -> Presence | None:
        """Who sits where and who is away (network games; None elsewhere)."""
        ...

    @property
    def names(self) -> list[str]: ...

    @property
    def seats(self) -> list[int]: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def paces_bots(self) -> bool:
        """True when this terminal drives the table's bots (and may slow or pause them)."""
        ...

    def listen(self, listener: Callable[[Any, Update], None]) -> None: ...

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """`listener(kind, text)` for news that is not an update (refusals, chat, seats)."""
        ...

    def update(self, seat: int) -> Update | None: ...

    def submit(self, seat: int, action: dict[str, Any], seen: int | None = None) -> str | None:
        """Play `action` for `seat`, chosen on its view of version `seen` (None: the latest):
        the reason it was refused, or None (a network client: sent, refusals come later)."""
        ...

    def claim(self, seat: int, claim: dict[str, Any]) -> str | None:
        """Make a public claim for `seat` (see `talk.py`); the reason it was refused, or None."""
        ...

    def waiting_for(self) -> frozenset[int]: ...

    async def run_bots(self) -> None: ...

    def saved_game(self) -> tuple[int, Path] | None:
        """The saved game's id and file while it is being saved here, else None."""
        ...

    def rating_changes(self) -> dict[int, tuple[float, float]]:
        """Once the game is over and rated: each seat's rating (openskill's ordinal, see
        `ratings.py`) after it and how much this game moved it; {} otherwise."""
        ...

    def discard_save(self) -> None:
        """Forget the saved copy of this game (the player chose not to keep it)."""
        ...

    def way_back(self) -> str:
        """How a player who leaves comes back to this seat while the game goes on, in words
        (a network seat: the `join` line); "" when there is no seat to come back to."""
        ...
