"""The hot-seat hand-off: an opaque screen asking to pass the keyboard before a hand is shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label

from . import typeahead
from .typeahead import TypeAhead, drop

#: Seconds a hand-off is shown before a key may dismiss it: the player who just moved may
#: still be pressing keys (a second Enter), and the next player needs the screen in hand.
HANDOFF_SETTLE = 1.0
#: A key dismisses it only after the keyboard has been still this long: a deliberate press,
#: not one more of a stream of keys (a keyboard changes hands in a pause, never mid-stream).
QUIET = 0.5


@dataclass
class Aside:
    """Something the player leaving the keyboard may still do before it goes on (say
    "Crates!"): the key, what it does in words, and the doing, which returns what to say."""

    key: str
    words: str
    do: Callable[[], str]


class ReadyButton(Button, can_focus=False):
    """Clicking it says the named player has the screen; Enter does the same."""


class HandoffScreen(TypeAhead, Screen[int | None]):
    """Covers everything until the named player presses Enter; returns the seat it named then
    (None if they chose to quit).

    The hand-off is a deliberate act: it takes a key only once it has been up for
    `HANDOFF_SETTLE` seconds and the keyboard has been still for `QUIET` before it. If the
    table moves on while it is up, `hand_to` names whoever comes next instead, and the wait
    starts again, so it never shows one player's name and then another's hand.
    """

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
    settle = HANDOFF_SETTLE

    def __init__(
        self, seat: int, name: str, ascii: bool = False, aside: Aside | None = None
    ) -> None:
        super().__init__()
        self.seat = seat
        self.player = name
        self.ascii = ascii
        self.dash = "-" if ascii else "—"
        self.aside = aside
        self.last_key = -float("inf")  # when the last key came, taken or not

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff"):
            yield Label(self._asking(), id="asking")
            yield Label("Everyone else: please look away.", classes="hint")
            if self.aside is not None:
                yield Label(Text(self.aside.words), id="aside")
            with Center():
                yield ReadyButton(self._ready(), id="ready", compact=self.ascii)
        yield Footer()

    def _asking(self) -> Text:
        name = self.player
        return Text(f"Pass to {name} {self.dash} press Enter when only {name} can see")

    def _ready(self) -> Text:
        words = f"I am {self.player}: show my cards (Enter)"
        if cell_len(words) + 8 > self.app.size.width:  # (a narrow terminal: the name and the key)
            words = f"I am {self.player} (Enter)"
        return Text(words)

    def on_resize(self) -> None:
        self._show_name()

    def on_mount(self) -> None:
        self._show_name()  # (renamed between composing and mounting: say the name now)
        self.ask_anew()

    def _show_name(self) -> None:
        self.query_one("#asking", Label).update(self._asking())
        self.query_one("#ready", ReadyButton).label = self._ready()

    def ask_anew(self) -> None:
        """Asked anew: the button looks unready until the hand-off takes a key."""
        super().ask_anew()
        if self.is_mounted:
            ready = self.query_one("#ready", ReadyButton)
            ready.disabled = True
            self.set_timer(self.settle * typeahead.SETTLE_SCALE, self._settled)

    def _settled(self) -> None:
        """Ready once a key would be taken (asked anew, or drawn late, since: wait on)."""
        left = self.asked_at + self.settle * typeahead.SETTLE_SCALE - typeahead.moment()
        if left > 0:
            self.set_timer(left, self._settled)
        else:
            self.query_one("#ready", ReadyButton).disabled = False

    def hand_to(self, seat: int, name: str) -> None:
        """The table now waits for `seat` (`name`): ask for them instead, from now."""
        if seat == self.seat:
            return
        self.seat, self.player = seat, name
        if self.is_mounted:
            self._show_name()
        self.ask_anew()

    def deliberate(self, event: events.Key) -> bool:
        """True if `event` is a press meant for this hand-off: after it settled, and after a
        still moment (every key counts for the stillness, taken or not)."""
        before, self.last_key = self.last_key, event.time
        still = event.time - before >= QUIET * typeahead.SETTLE_SCALE
        return self.typed_in_time(event) and still

    async def on_key(self, event: events.Key) -> None:
        aside = self.aside
        if aside is not None and event.key == aside.key and self.is_current:
            drop(event)
            self.aside = None  # once
            self.query_one("#aside", Label).update(Text(aside.do()))
            return
        if self.is_current and not self.deliberate(event):
            drop(event)
            return
        await super().on_key(event)

    def action_ready(self) -> None:
        self.dismiss(self.seat)

    def action_leave(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.typed_in_time(event):  # (a click while it settles presses nothing)
            self.dismiss(self.seat)
