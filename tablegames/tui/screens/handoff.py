"""The hot-seat hand-off: an opaque screen asking to pass the keyboard before a hand is shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label

from .typeahead import TypeAhead


@dataclass
class Aside:
    """Something the player leaving the keyboard may still do before it goes on (say
    "Crates!"): the key, what it does in words, and the doing, which returns what to say."""

    key: str
    words: str
    do: Callable[[], str]


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

    def __init__(self, name: str, ascii: bool = False, aside: Aside | None = None) -> None:
        super().__init__()
        self.player = name
        self.ascii = ascii
        self.dash = "-" if ascii else "—"
        self.aside = aside

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff"):
            yield Label(
                Text(
                    f"Pass to {self.player} {self.dash} press Enter when only {self.player} can see"
                )
            )
            yield Label("Everyone else: please look away.", classes="hint")
            if self.aside is not None:
                yield Label(Text(self.aside.words), id="aside")
            with Center():
                yield ReadyButton(
                    Text(f"I am {self.player}: show my cards"), id="ready", compact=self.ascii
                )
        yield Footer()

    async def on_key(self, event: events.Key) -> None:
        aside = self.aside
        if aside is not None and event.key == aside.key and self.is_current:
            event.stop()
            event.prevent_default()
            self.aside = None  # once
            self.query_one("#aside", Label).update(Text(aside.do()))

    def action_ready(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(True)
