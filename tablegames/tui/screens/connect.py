"""The waiting room of a network game: connecting, then who has sat down, until the deal."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, Static


def presence_text(message: dict[str, Any], ascii: bool = False) -> Text:
    """One line per seat: its name and whether it is taken, a bot, ready or away."""
    lines = []
    for seat in message.get("seats", []):
        if seat.get("bot"):
            state = "bot"
        elif not seat.get("taken"):
            state = "free seat"
        elif not seat.get("connected"):
            state = "away"
        else:
            state = "ready" if seat.get("ready") else "not ready"
        lines.append(f"{seat.get('seat', 0) + 1}. {seat.get('name', '?'):<20} {state}")
    return Text("\n".join(lines) or "No seats yet.")


class ConnectScreen(Screen[None]):
    """Shows progress while joining a server's table; q quits."""

    DEFAULT_CSS = """
    ConnectScreen { align: center middle; }
    ConnectScreen > Vertical { width: 60; max-width: 100%; height: auto; border: round $primary;
        padding: 0 1; }
    ConnectScreen.ascii > Vertical { border: ascii $primary; }
    ConnectScreen #news { text-style: bold; margin-bottom: 1; }
    ConnectScreen #seats { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "leave", "Quit")]

    def __init__(self, where: str, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.where = where
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Network game"
            yield Label(Text(f"Joining the table at {self.where}..."), id="news")
            yield Static("", id="seats")
        yield Footer()

    def say(self, text: str) -> None:
        """Show what is happening now (connected, refused, waiting...)."""
        self.query_one("#news", Label).update(Text(text))

    def show_presence(self, message: dict[str, Any]) -> None:
        """Show who has taken which seat."""
        self.query_one("#seats", Static).update(presence_text(message, self.ascii))

    def action_leave(self) -> None:
        self.app.exit()
