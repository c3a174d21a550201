"""The party's lobby: the server's tables, a new one, a seat or a chair to watch from, and chat.

Reached with `ssh -p 2222 NAME@HOST` (a party server's session) or `tablegames join HOST` when
the server has other than one open table. Everything here is one connection (`RemoteClient`):
a table is picked by sending `join`, made by `create`; the app follows the answers.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from ...net.messages import SeatNews, TableNews
from ...net.words import seat_words, seats_since
from ..widgets.keys_footer import KeysFooter
from ..widgets.seats import table_box
from .dialogs import BackButton
from .setup import FIELD_MOVES
from .standings import StandingsScreen
from .table_form import TableForm
from .typeahead import TypeAhead

if TYPE_CHECKING:
    from ...net.client import RemoteClient

LOBBY_CHAT_SHOWN = 6
HINT = "n opens a new table; Enter sits down at the highlighted one; w watches it."
CONFIRM_SECONDS = 5.0  # a second x within this closes the table


def table_state(table: TableNews) -> str:
    """A lobby line's state in a word or two."""
    if table.over:
        return "finished"
    return "playing" if table.started else "waiting"


def who_sits(seats: list[SeatNews], started: bool = False) -> str:
    """The people at a table in a line: `Sara, ready; Tom, away 2 min; Bot 3 (bot); 1 free`
    (once the game is on, nobody is said to be ready: that is the waiting room's word)."""
    if started:
        seats = [msgspec.structs.replace(seat, ready=False) for seat in seats]
    taken = [seat_words(seat) for seat in seats if seat.taken]
    free = sum(1 for seat in seats if not seat.taken)
    return "; ".join([*taken, *([f"{free} free"] if free else [])])


class LobbyScreen(TypeAhead, Screen[None]):
    """The tables, one highlighted; keys to open a table, sit down, watch, chat and leave.

    Keys typed while a dialog opens over it go on to the dialog (`TypeAhead`): a chat line
    typed quickly never sits the player down at a table.
    """

    CSS_PATH = "menus.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New table"),
        Binding("enter", "sit", "Sit down"),
        Binding("w", "watch", "Watch"),
        Binding("x", "close", "Close table"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("slash", "chat", "Chat", key_display="/"),
        Binding("s", "standings", "Standings"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "leave", "Quit"),
    ]

    def __init__(self, remote: RemoteClient, where: str, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.remote, self.where, self.ascii = remote, where, ascii
        self.tables: list[TableNews] = []
        self._grid: Table | None = None  # the tables as last drawn (a click finds its row)
        self.chosen = 0
        self.drawn = False  # mounted: what `show` and `say` change is on screen
        self.status = HINT  # what the lobby's own line says (shown once mounted)
        self.closing: tuple[str, float] | None = None  # (table, when x was first pressed)
        self.closed_asked: str | None = None  # the table we asked to close, till it goes
        self.standings: StandingsScreen | None = None  # tonight's standings, while shown

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with VerticalScroll(id="tables"):
            yield Static(id="list")
        yield Static(id="chat")
        yield Static(id="status")
        yield KeysFooter()  # (every key in sight: a phone held upright taps each one)

    def on_mount(self) -> None:
        self.drawn = True
        self.query_one("#tables").border_title = "Tables"
        self.query_one("#chat").border_title = "Lobby chat (/ to say something)"
        self.say(self.status)  # (news told before it was drawn: the host took a seat...)
        self._draw()
        self.show_chat()
        self.set_interval(1, self._count_away)  # time away, told once, counts on here

    def _title(self) -> None:
        at = f" at {self.where}" if self.where else ""
        title = f"tablegames{at}: you are {self.remote.name}"
        self.query_one("#title", Static).update(Text(title))

    def show(self, tables: list[TableNews]) -> None:
        """Redraw the list of tables (a `lobby` message's)."""
        code = self.tables[self.chosen].code if self.tables else None
        self.tables = list(tables)
        codes = [table.code for table in self.tables]
        if self.closed_asked is not None and self.closed_asked not in codes:
            self.say(f"Table {self.closed_asked} is closed.")
            self.closed_asked = None
        self.chosen = codes.index(code) if code in codes else min(self.chosen, len(codes) - 1)
        self.chosen = max(self.chosen, 0)
        self._draw()
        if self.standings is not None:
            self.standings.show(self.remote.standings)

    def _draw(self) -> None:
        if not self.drawn:
            return  # drawn once mounted
        self._title()
        if not self.tables:
            self.query_one("#list", Static).update(
                Text("No tables yet: press n to open one and invite your friends.")
            )
            self._grid = None
            return
        grid = Table(box=table_box(self.ascii), expand=True, pad_edge=False)
        grid.add_column("", width=1)
        grid.add_column("Table", no_wrap=True)
        grid.add_column("Game", no_wrap=True)
        grid.add_column("State", no_wrap=True)
        grid.add_column("Who", ratio=1)
        arrow = ">" if self.ascii else "▶"
        since = time.monotonic() - self.remote.lobby_at
        for number, table in enumerate(self.tables):
            seats = who_sits(seats_since(table.seats, since), table.started)
            grid.add_row(
                arrow if number == self.chosen else "",
                table.code,
                f"{table.title} ({table.players})",
                table_state(table),
                seats,
                style="bold" if number == self.chosen else "",
            )
        self.query_one("#list", Static).update(grid)
        self._grid = grid

    def _count_away(self) -> None:
        if any(seat.away is not None for table in self.tables for seat in table.seats):
            self._draw()

    def on_click(self, event: events.Click) -> None:
        """A click (a tap, on a phone: it has no arrow keys) on a table's row highlights it."""
        listing = self.query_one("#list", Static)
        offset = event.get_content_offset(listing)  # (None: the click was elsewhere)
        if offset is None or self._grid is None or not self.tables:
            return
        console = self.app.console
        width = listing.content_size.width
        lines = console.render_lines(self._grid, console.options.update_width(width), pad=False)
        codes = {table.code: number for number, table in enumerate(self.tables)}
        for y in range(min(offset.y, len(lines) - 1), -1, -1):  # a row's first line has its code
            words = "".join(segment.text for segment in lines[y]).split()[:2]
            found = [codes[word] for word in words if word in codes]
            if found:
                if found[0] != self.chosen:
                    self.chosen = found[0]
                    self._draw()
                return

    def show_chat(self) -> None:
        if not self.drawn:
            return
        lines = list(self.remote.chat_lines)[-LOBBY_CHAT_SHOWN:]
        text = "\n".join(f"{who}: {line}" for who, line in lines) or "Nobody has said anything."
        self.query_one("#chat", Static).update(Text(text))

    def say(self, text: str) -> None:
        """Put `text` on the lobby's own line (under the tables: it covers nothing)."""
        self.status = text
        if self.drawn:
            self.query_one("#status", Static).update(Text(text))

    def _highlighted(self) -> TableNews | None:
        return self.tables[self.chosen] if self.tables else None

    def action_move(self, step: int) -> None:
        if self.tables:
            self.chosen = (self.chosen + step) % len(self.tables)
            self._draw()

    def action_new(self) -> None:
        def made(table: dict[str, Any] | None) -> None:
            if table is not None:
                self.say("Opening the table...")
                self.remote.ask.new_table(**table)

        self.app.push_screen(NewTableDialog(self.ascii), made)

    def action_sit(self) -> None:
        table = self._highlighted()
        if table is None:
            self.say("There is no table yet: press n to open one.")
        elif table.over:
            self.say(f"Table {table.code} is finished: open a new one with n.")
        else:
            self.say(f"Joining table {table.code}...")
            self.remote.ask.join(table.code)

    def action_watch(self) -> None:
        table = self._highlighted()
        if table is None:
            self.say("There is no table to watch yet.")
        else:
            self.remote.ask.join(table.code, spectate=True)

    def action_close(self) -> None:
        """End the highlighted table, if it is ours: x, then x again to be sure."""
        table = self._highlighted()
        if table is None:
            self.say("There is no table to close.")
            return
        code = table.code
        mine = any(seat.owner and seat.name == self.remote.name for seat in table.seats)
        if not mine:
            self.say(f"Only the creator of table {code} can close it.")
            return
        now = time.monotonic()
        asked = self.closing
        if asked is not None and asked[0] == code and now - asked[1] < CONFIRM_SECONDS:
            self.closing = None
            self.say(f"Closing table {code}...")
            self.closed_asked = code
            self.remote.ask.close_table(code)
            return
        self.closing = (code, now)
        self.say(f"Close table {code} for everyone there? Press x again to close it.")

    def action_chat(self) -> None:
        from .network import ChatDialog

        if not self.is_current:  # (a chat line is open already)
            return

        def send(line: str | None) -> None:
            if line:
                self.remote.ask.chat(line)

        self.app.push_screen(
            ChatDialog(self.ascii, list(self.remote.chat_lines), "the lobby"), send
        )

    def action_help(self) -> None:
        self.say(
            "Up/Down pick a table. n: a new table (game, players, bots). Enter: sit down (or "
            "back at your seat). w: watch. x: close a table you opened. /: chat with everyone "
            "in the lobby. s: tonight's standings. q: leave the party."
        )

    def action_standings(self) -> None:
        """Tonight's standings over the tables, kept up to date until closed."""
        if not self.is_current:
            return

        def closed(_: None) -> None:
            self.standings = None

        self.standings = StandingsScreen(self.remote.standings, self.ascii)
        self.app.push_screen(self.standings, closed)

    def action_leave(self) -> None:
        self.app.exit()


class NewTableDialog(ModalScreen[dict[str, object] | None]):
    """Which game, how many seats, which bots take the empty ones, and the game's options."""

    CSS_PATH = "menus.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open the table"),
        Binding("escape", "cancel", "Cancel"),
        *FIELD_MOVES,
    ]

    def __init__(self, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "A new table (Left/Right change, Up/Down move)"
            yield TableForm(self.ascii)
            with Horizontal(classes="foot"):
                yield Button("Open the table (Enter)", id="open", variant="primary", compact=True)
                yield BackButton()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_open()

    def action_open(self) -> None:
        self.dismiss(self.query_one(TableForm).table)

    def action_cancel(self) -> None:
        self.dismiss(None)
