"""Feed the Kraken's own dialogs: the eyes-closed pass-on notice and the end of the voyage."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Label

from ..widgets.seats import table_box
from .handoff import Notice
from .results import GameOver


class PassOnNotice(Notice):
    """An eyes-closed moment in hot-seat play: this player is done (or had nothing to do) and
    passes the keyboard on. Every player sees the same notice, so it gives nothing away. It
    takes a key once it has been seen (`Deliberate`): not a second Enter of the last answer."""

    CSS_PATH = "kraken.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "Pass on", show=False)
    ]

    def __init__(self, text: str, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.text), classes="title")
            yield Label("Press Enter, then pass the keyboard on.", classes="hint")
            yield Button("Pass on (Enter)", id="pass", variant="primary", compact=True)


class VoyageOver(GameOver):
    """The game is over: who won, and everyone's role; returns "menu" or "quit"."""

    def __init__(
        self,
        headline: str,
        rows: Sequence[tuple[str, str, bool]],
        you: Sequence[str] = (),
        ascii: bool = False,
    ) -> None:
        super().__init__(ascii)
        self.headline = headline
        self.rows = list(rows)
        self.you = list(you)

    def _headline(self) -> str:
        return self.headline

    def _table(self) -> Table:
        table = Table(box=table_box(self.ascii), expand=True)
        table.add_column("Player")
        table.add_column("Role")
        table.add_column("Result")
        for name, role, won in self.rows:
            table.add_row(name, role, Text("won", "bold") if won else Text("lost"))
        return table

    def _hint(self) -> str:
        return " ".join(self.you)
