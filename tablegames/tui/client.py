"""What a screen needs of a table: a narrow port (`TableClient`: the seats, their updates, what
they play and say) that the local, the network and the replay clients all fit, and optional
capabilities that only some have: a game saved here (`Saving`), news of who is away at a
network table (`SeatPresence`), bots this terminal paces (`Pacing`).

Screens use a client only through these (a test checks every client has the port's members and
exactly the capabilities it claims), and ask for a capability with `saving(client)`,
`seat_presence(client)` or `pacing(client)` (None: this table has none), never by the kind of
client.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..net.messages import Presence
    from ..rules import Game
    from ..table import Update


class TableClient(Protocol):
    """Seats at one table: their updates, their actions and claims, and the game's end."""

    # Whether nothing may be played through it (a replay).
    read_only: bool

    @property
    def names(self) -> list[str]: ...

    @property
    def seats(self) -> list[int]: ...

    @property
    def game(self) -> Game | None: ...

    def listen(self, listener: Callable[[Any, Update], None]) -> None: ...

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """`listener(kind, text)` for news that is not an update: why an action or claim was
        refused (`error`), and a network table's chat and news of the seats."""
        ...

    def update(self, seat: int) -> Update | None: ...

    def submit(self, seat: int, action: dict[str, object], seen: int | None = None) -> None:
        """Play `action` for `seat`, chosen on its view of version `seen` (None: the latest).
        A refusal comes one way whatever the table, on this machine or over the network: to
        the notice listeners, as an `error` (the reason, in the engine's words)."""
        ...

    def claim(self, seat: int, claim: dict[str, object]) -> None:
        """Make a public claim for `seat` (see `talk.py`); a refusal comes as `submit`'s."""
        ...

    def waiting_for(self) -> frozenset[int]: ...

    def rating_changes(self) -> dict[int, tuple[float, float]]:
        """Once the game is over and rated: each seat's rating (openskill's ordinal, see
        `ratings.py`) after it and how much this game moved it; {} otherwise."""
        ...


@runtime_checkable
class Saving(Protocol):
    """A game saved on this machine as it is played (`tablegames resume` brings it back)."""

    def saved_game(self) -> tuple[int, Path] | None:
        """The saved game's id and file while it is being saved here, else None."""
        ...

    def discard_save(self) -> None:
        """Forget the saved copy of this game (the player chose not to keep it)."""
        ...


@runtime_checkable
class SeatPresence(Protocol):
    """A seat at a network table: who sits where and who is away, and the way back to it."""

    # When the presence came (seats' time away counts on from then).
    presence_at: float

    @property
    def presence(self) -> Presence | None:
        """Who sits where and who is away, as the server last said (None: not yet)."""
        ...

    def way_back(self) -> str:
        """How a player who leaves comes back to this seat while the game goes on, in words
        (the `join` line); "" when there is no seat to come back to."""
        ...


@runtime_checkable
class Pacing(Protocol):
    """A table whose bots this terminal drives (and may slow or pause)."""

    # Seconds between the bots' moves (read when they start).
    pace: float

    @property
    def paces_bots(self) -> bool:
        """True when there are bots to pace (turn-based ones: see `drivers.drive_bots`)."""
        ...

    async def run_bots(self) -> None: ...


def saving(client: TableClient) -> Saving | None:
    """`client`'s saving, if its game is saved on this machine."""
    return client if isinstance(client, Saving) else None


def seat_presence(client: TableClient) -> SeatPresence | None:
    """`client`'s news of the seats, if it sits at a network table."""
    return client if isinstance(client, SeatPresence) else None


def pacing(client: TableClient) -> Pacing | None:
    """`client`'s bots to pace, if this terminal drives them."""
    return client if isinstance(client, Pacing) else None
