"""The waiting room of a network game: connecting, the seats and who is ready, until the deal."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Label, Static

from ..touch import on_the_page, press
from ..widgets.footer import Footer
from .lobby import CONFIRM_SECONDS
from .network import lobby_lines

if TYPE_CHECKING:
    from ...net.client import RemoteClient
    from ...net.messages import Presence


class ConnectScreen(Screen[None]):
    """Shows the table being joined and its seats; r toggles ready, q leaves."""

    CSS_PATH = "menus.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "ready", "Ready / not ready"),
        Binding("s", "start", "Start now"),
        Binding("x", "close", "Close table"),
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
        self.presence: Presence | None = None
        self.news = f"Joining the table at {where}..."
        self._news: Label | None = None
        self._seat_lines: Static | None = None
        self.closing_at: float | None = None  # when x was first pressed (x again closes)

    def compose(self) -> ComposeResult:
        # Kept, not looked up: news can come while the box is mounted but not yet its lines
        # (a query then finds no "#seats" and the session fails: seen over SSH).
        self._news = Label(Text(self.news), id="news")
        self._seat_lines = Static(self._seats(), id="seats")
        with Vertical() as box:
            box.border_title = "Network game"
            yield self._news
            yield self._seat_lines
            yield Static(Text(self.invite), id="invite")
        yield Footer()

    def say(self, text: str) -> None:
        """Show what is happening now (connected, refused, waiting...)."""
        self.news = text
        if self._news is not None:  # (composed: else compose shows it)
            self._news.update(Text(text))
            self.refresh_bindings()  # (refused, or the connection gone: r does nothing now)

    def show_presence(self, message: Presence) -> None:
        """Show who has taken which seat and who is ready."""
        self.presence = message
        if self._seat_lines is not None:
            self._seat_lines.update(self._seats())

    def _seats(self) -> Text:
        if self.remote is None or self.presence is None:
            return Text("")
        return lobby_lines(self.remote, self.presence)

    def seated(self) -> None:
        """We have a seat: explain how to start (or, once we said we are ready, how not to)."""
        if self.remote is not None and self.remote.ready:
            self.say("Ready. Waiting for the others... (r: not ready after all)")
            self.refresh_bindings()
            return
        ready = "Tap Ready when you are ready" if on_the_page() else "Press r when you are ready"
        if self.remote is not None and self.remote.owner:
            start = "or tap Start now" if on_the_page() else "or s to start now"
            self.say(f"Seated. {ready}, {start} (bots fill in).")
        else:
            self.say(f"Seated. {ready}.")
        self.refresh_bindings()

    def stood_in(self) -> None:
        """The game began before we said we were ready: a bot plays our seat until we do."""
        self.say(f"The game has begun: a bot plays your seat until you {press('r', 'Ready')}.")
        self.refresh_bindings()

    def action_ready(self) -> None:
        if self.remote is None or self.remote.seat is None or not self.remote.connected:
            return
        if self.remote.latest is not None:  # the game is on: our seat back from its bot
            self.remote.ask.ready(True)
            self.say("Taking your seat...")
            return
        self.remote.ask.ready(not self.remote.ready)
        self.seated()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("start", "close"):  # only the table's creator may deal early or close
            return self.remote is not None and self.remote.owner
        if action == "ready":  # at a seat only: not while joining, nor once refused
            return self.remote is not None and self.remote.seat is not None
        return True

    def action_start(self) -> None:
        """As the table's creator: deal now; empty seats become bots."""
        if self.remote is not None and self.remote.owner and self.remote.connected:
            self.remote.ask.start_now()
            self.say("Starting...")

    def action_close(self) -> None:
        """As the table's creator: end the table for everyone (x, then x again)."""
        remote = self.remote
        if remote is None or not remote.owner or not remote.connected or not remote.table_code:
            return
        now = time.monotonic()
        if self.closing_at is not None and now - self.closing_at < CONFIRM_SECONDS:
            self.closing_at = None
            remote.ask.close_table(remote.table_code)
            self.say("Closing the table...")
            return
        self.closing_at = now
        self.say("Close this table for everyone here? Press x again to close it.")

    def action_leave(self) -> None:
        """Back to the party's lobby, or quit when this table is all there is."""
        follow = getattr(self.app, "follow", None)
        if follow is not None and self.remote is not None and self.remote.connected:
            follow.back_to_lobby()
        else:
            self.app.exit()
