"""The hot-seat hand-off: an opaque screen asking to pass the keyboard before a hand is shown."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label

from .typeahead import TypeAhead


class ReadyButton(Button, can_focus=False):
    """Clicking it says the named player has the screen; Enter does the same."""


class HandoffScreen(TypeAhead, Screen[bool]):
    """Covers everything until the named player presses Enter; returns False if they chose quit."""

    DEFAULT_CSS = """
    HandoffScreen { background: $background; align: center middle; }
    HandoffScreen #handoff { width: 100%; height: auto; align-horizontal: center; }
    HandoffScreen Label { width: 100%; content-align: center middle; text-style: bold;
        margin-bottom: 1; }
    HandoffScreen .hint { text-style: none; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Show my cards"),
        Binding("q", "leave", "Quit"),
    ]

    def __init__(self, name: str, ascii: bool = False) -> None:
        super().__init__()
        self.player = name
        self.ascii = ascii
        self.dash = "-" if ascii else "—"

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff"):
            yield Label(
                Text(
                    f"Pass to {self.player} {self.dash} press Enter when only {self.player} can see"
                )
            )
            yield Label("Everyone else: please look away.", classes="hint")
            with Center():
                yield ReadyButton(
                    Text(f"I am {self.player}: show my cards"), id="ready", compact=self.ascii
                )
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(True)
