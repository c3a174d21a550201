"""Network play from the menu: join a server, or host one here; and the chat line."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Static

from ...net.admission import own_name
from ...net.launch import DEFAULT_PORT, parse_address
from ..asks import HostAndJoin, JoinRemote
from ..widgets.footer import Footer
from .dialogs import BackButton
from .setup import FIELD_MOVES, Stepper
from .table_form import TableForm
from .typeahead import LineInput, TypeAhead, drop

if TYPE_CHECKING:
    from ...net.client import RemoteClient
    from ...net.messages import Presence


class NetworkForm(Screen[None]):
    """A form to join or host: Enter in a field, or its button, sends it (`send`); Escape
    goes back to the menu."""

    CSS_PATH = "menus.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(self, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.ascii = ascii

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.send()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.send()

    def action_back(self) -> None:
        self.app.pop_screen()

    def send(self) -> None:
        """Join or host with what the form holds, or say in it what is wrong."""
        raise NotImplementedError


class JoinScreen(NetworkForm):
    """Where to join: address, name and (for a LAN server) the join code."""

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Join a network game"
            for label, field, value, hint in (
                ("Server", "address", f"127.0.0.1:{DEFAULT_PORT}", "host:port"),
                ("Your name", "name", own_name(), ""),
                ("Join code", "code", "", "only for LAN servers"),
            ):
                with Horizontal():
                    yield Label(label, classes="field")
                    yield Input(value=value, placeholder=hint, id=field, compact=True)
            yield Static("", id="error")
            yield Button("Join (Enter)", id="join", variant="primary", compact=True)
        yield Footer()

    def send(self) -> None:
        from ...net.client import RemoteClient, SeatTokens
        from ...net.seat_tokens import load_client_key

        try:
            host, port = parse_address(self.query_one("#address", Input).value)
        except ValueError as problem:
            self.query_one("#error", Static).update(Text(str(problem)))
            return
        name = self.query_one("#name", Input).value.strip() or "guest"
        code = self.query_one("#code", Input).value.strip() or None
        client = RemoteClient(
            host, port, name, code=code, tokens=SeatTokens(), key=load_client_key()
        )
        self.app.post_message(JoinRemote(client))


class HostScreen(NetworkForm):
    """Host a table on this machine (or the LAN) and sit down at it."""

    BINDINGS: ClassVar[list[BindingType]] = [*FIELD_MOVES]

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Host a network game"
            yield TableForm(self.ascii)
            with Horizontal():
                yield Label("Open to", classes="field")
                yield Stepper(["this machine", "the LAN"], "this machine", self.ascii, "reach")
            with Horizontal():
                yield Label("Port", classes="field")
                yield Input(value=str(DEFAULT_PORT), id="port", compact=True)
            yield Static("", id="error")
            yield Button("Host (Enter)", id="host", variant="primary", compact=True)
        yield Footer()

    def key_enter(self) -> None:
        self.send()

    def send(self) -> None:
        try:
            port = int(self.query_one("#port", Input).value)
        except ValueError:
            self.query_one("#error", Static).update(Text("the port must be a number"))
            return
        lan = self.query_one("#reach", Stepper).value == "the LAN"
        self.app.post_message(HostAndJoin(self.query_one(TableForm).table, lan=lan, port=port))


CHAT_SHOWN = 8  # chat lines the chat dialog shows above its input


class ChatDialog(TypeAhead, ModalScreen[str | None]):
    """One line to say to the table; Enter sends, Escape cancels.

    Lines typed or pasted quickly (`/`, `a`, Enter, `/`, `b`, Enter) each find their dialog:
    Enter sends at once, from the line (`LineInput`) or before the line had the keyboard, and
    keys typed after it go on to the screen below (which opens the next chat); letters that
    reach this dialog before its line has the keyboard are typed into the line.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "send", "Send", show=False),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(
        self,
        ascii: bool = False,
        said: list[tuple[str, str]] | None = None,
        where: str = "the table",
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.said, self.where = said or [], where

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Say to {self.where} (Enter sends, Esc cancels)"
            if self.said:  # the last few lines, as plain text: nobody's markup reaches us
                recent = "\n".join(f"{who}: {line}" for who, line in self.said[-CHAT_SHOWN:])
                yield Static(Text(recent), id="said")
            with Horizontal(classes="foot"):
                yield LineInput(
                    placeholder="gg, nice crank…", id="line", max_length=300, compact=True
                )
                yield BackButton()

    async def on_key(self, event: events.Key) -> None:
        if not self.is_current:
            await super().on_key(event)  # (passed on to the screen on top)
            return
        line = self.query_one("#line", LineInput)
        if event.key == "enter":  # before the line had the keyboard (the line's sends itself)
            drop(event)
            self.action_send()
        elif event.is_printable and event.character:  # typed before the line had the keyboard
            drop(event)  # (a letter the line takes itself never comes here)
            line.focus()
            line.insert_text_at_cursor(event.character)
        else:
            await super().on_key(event)

    def action_send(self) -> None:
        self.dismiss(self.query_one("#line", LineInput).value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def lobby_lines(remote: RemoteClient, presence: Presence | None) -> Text:
    """The waiting room: the table, every seat with who sits there, and when the game begins."""
    from ...net.words import seat_words

    lines = []
    if remote.game is not None:
        lines.append(f"{remote.game.title}, table {remote.table_code or '?'}")
    for seat in presence.seats if presence is not None else []:
        you = " (you)" if seat.seat == remote.seat else ""
        lines.append(f"{seat.seat + 1}. {seat_words(seat)}{you}")
    if presence is not None and presence.starts:
        lines += ["", presence.starts]
    return Text("\n".join(lines) or "No seats yet.")
