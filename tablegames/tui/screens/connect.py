"""The waiting room of a network game: connecting, the seats and who is ready, until the deal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from .network import lobby_lines

if TYPE_CHECKING:
    from ...net.client import RemoteClient


class ConnectScreen(Screen[None]):
    """Shows the table being joined and its seats; r toggles ready, q leaves."""

    DEFAULT_CSS = """
    ConnectScreen { align: center middle; }
    ConnectScreen > Vertical { width: 64; max-width: 100%; height: auto; border: round $primary;
        padding: 0 1; }
    ConnectScreen.ascii > Vertical { border: ascii $primary; }
    ConnectScreen #news { text-style: bold; margin-bottom: 1; width: 100%; }
    ConnectScreen #seats { height: auto; }
    ConnectScreen #invite { margin-top: 1; color: $text-muted; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "ready", "Ready / not ready"),
        Binding("s", "start", "Start now"),
        Binding("q,escape", "leave", "Quit"),
    ]

    def __init__(
        self, where: str, ascii: bool = False, remote: RemoteClient | None = None, invite: str = ""
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.where = where
        self.ascii = ascii
        self.remote = remote
        self.invite = invite
        self.ready = False
        self.presence: dict[str, Any] | None = None
        self.news = f"Joining the table at {where}..."

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Network game"
            yield Label(Text(self.news), id="news")
            yield Static(self._seats(), id="seats")
            yield Static(Text(self.invite), id="invite")
        yield Footer()

    def say(self, text: str) -> None:
        """Show what is happening now (connected, refused, waiting...)."""
        self.news = text
        if self.children:  # (composed: else compose shows it)
            self.query_one("#news", Label).update(Text(text))

    def show_presence(self, message: dict[str, Any]) -> None:
        """Show who has taken which seat and who is ready."""
        self.presence = message
        if self.children:
            self.query_one("#seats", Static).update(self._seats())

    def _seats(self) -> Text:
        if self.remote is None or self.presence is None:
            return Text("")
        return lobby_lines(self.remote, self.presence)

    def seated(self) -> None:
        """We have a seat: explain how to start."""
        if self.remote is not None and self.remote.owner:
            self.say("Seated. Press r when you are ready, or s to start now (bots fill in).")
        else:
            self.say("Seated. Press r when you are ready.")
        self.refresh_bindings()

    def action_ready(self) -> None:
        if self.remote is None or self.remote.seat is None or not self.remote.connected:
            return
        self.ready = not self.ready
        self.remote.ready(self.ready)
        if self.ready:
            self.say("Ready. Waiting for the others... (r: not ready after all)")
        else:
            self.seated()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":  # only the table's creator may deal early
            return self.remote is not None and self.remote.owner
        return True

    def action_start(self) -> None:
        """As the table's creator: deal now; empty seats become bots."""
        if self.remote is not None and self.remote.owner and self.remote.connected:
            self.remote.start_now()
            self.say("Starting...")

    def action_leave(self) -> None:
        """Back to the party's lobby, or quit when this table is all there is."""
        follow = getattr(self.app, "follow", None)
        if follow is not None and self.remote is not None and self.remote.connected:
            follow.back_to_lobby()
        else:
            self.app.exit()
