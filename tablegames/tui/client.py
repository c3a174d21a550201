"""What a screen needs of a table client: the local and the network clients both fit."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..rules import Game
    from ..table import Update


class TableClient(Protocol):
    """Seats at one table: their updates, their actions, and (locally) the bots' pacing."""

    @property
    def names(self) -> list[str]: ...

    @property
    def seats(self) -> list[int]: ...

    @property
    def game(self) -> Game | None: ...

    def listen(self, listener: Callable[[Any, Update], None]) -> None: ...

    def update(self, seat: int) -> Update | None: ...

    def submit(self, seat: int, action: dict[str, Any]) -> str | None: ...

    def waiting_for(self) -> frozenset[int]: ...

    async def run_bots(self) -> None: ...
