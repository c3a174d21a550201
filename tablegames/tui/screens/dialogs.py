"""Small modal dialogs: leave the game, pick one of a few options (a suit, a player to catch)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ..textual_private import key_bindings
from .typeahead import TypeAhead, drop, moment, pass_on, press_now

Value = TypeVar("Value")

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: auto; min-width: 36; max-width: 70; height: auto;
    border: thick $accent; background: $surface; padding: 0 1;
}}
{name}.ascii > Vertical {{ border: ascii $accent; }}
{name} .title {{ text-style: bold; width: 100%; content-align: center middle; }}
{name} .hint {{ color: $text-muted; }}
{name}.-above-hand {{ align: center top; }}
{name}.-above-hand > Vertical {{ margin-top: 1; }}
"""


class QuitDialog(TypeAhead, ModalScreen[str | None]):
    """Ask before leaving a game; returns "quit", "discard", "menu" or None (keep playing).

    With `saving`, the game is being saved: quitting keeps it to resume later, and "discard"
    quits and forgets it, once the player has said so a second time (`d` is a game key too).
    """

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="QuitDialog")
        + """
    QuitDialog > Vertical { width: 52; max-width: 100%; }
    QuitDialog .choices { height: auto; width: 100%; margin-top: 1; }
    QuitDialog Button { width: 100%; margin: 0 4; }
    QuitDialog #forgetting { display: none; }
    QuitDialog.-forgetting #forgetting { display: block; }
    QuitDialog.-forgetting #choices { display: none; }
    """
    )
    # Only the keys its buttons show: a hidden `q` once quit a player who thought the question
    # had gone (after `d`, then `n`, the leave question is back, not the table).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "yes", "Yes", show=False),
        Binding("d", "discard", "Discard", show=False),
        Binding("m", "choose('menu')", "Menu", show=False),
        Binding("n,escape", "no", "Keep playing", show=False),
    ]
    FORGET = "Forget this game for good? It cannot be continued later."

    def __init__(
        self,
        question: str,
        offer_menu: bool = True,
        ascii: bool = False,
        saving: bool = False,
        menu: str = "Menu",
        stay: str = "Keep playing",
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.question = question
        self.stay = stay  # the way back to the table ("Keep watching" for a spectator)
        self.offer_menu = offer_menu
        self.saving = saving
        self.menu = menu  # what "m" goes back to: the menu, or a party's lobby

    @property
    def forgetting(self) -> bool:
        """True while the dialog asks whether to forget the saved game."""
        return self.has_class("-forgetting")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.question), classes="title", id="question")
            # One button a line: all of them, keys included, fit the narrowest terminal.
            with Vertical(id="choices", classes="choices"):
                if self.saving:
                    yield Button("Save & quit (y)", id="quit", variant="error", compact=True)
                    yield Button("Discard (d)", id="discard", compact=True)
                else:
                    yield Button("Quit (y)", id="quit", variant="error", compact=True)
                if self.offer_menu:
                    yield Button(f"{self.menu} (m)", id="menu", compact=True)
                yield Button(f"{self.stay} (n)", id="stay", variant="primary", compact=True)
            with Vertical(id="forgetting", classes="choices"):
                yield Button("Forget it (y)", id="forget", variant="error", compact=True)
                yield Button("Keep it (n)", id="keep", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def _ask_to_forget(self, asking: bool) -> None:
        self.set_class(asking, "-forgetting")
        self.query_one("#question", Label).update(Text(self.FORGET if asking else self.question))
        self.query_one("#keep" if asking else "#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "quit": self.action_yes,
            "discard": self.action_discard,
            "menu": lambda: self.action_choose("menu"),
            "forget": self.action_yes,
        }
        actions.get(event.button.id or "", self.action_no)()

    def action_yes(self) -> None:
        self.dismiss("discard" if self.forgetting else "quit")

    def action_discard(self) -> None:
        if self.saving and not self.forgetting:
            self._ask_to_forget(True)

    def action_no(self) -> None:
        if self.forgetting:
            self._ask_to_forget(False)
        else:
            self.dismiss(None)

    def action_choose(self, choice: str) -> None:
        if self.forgetting or (choice == "menu" and not self.offer_menu):
            return
        self.dismiss(choice)


@dataclass
class Option(Generic[Value]):
    """One choice in a `PickDialog`: its key, its label and the value it returns."""

    key: str
    label: str
    value: Value


class PickDialog(TypeAhead, ModalScreen[Value | None], Generic[Value]):
    """Pick one of a few options with its key, arrows and Enter, or a click; Escape cancels.

    Nothing is highlighted at first, so nothing is chosen by default: Enter on an untouched
    list only points at the first option, and an Enter typed before the list had been on
    screen for a moment (`SETTLE`) chooses nothing at all (an Enter pressed for something
    else, as the dialog opened, must not choose guns or a navigator for the player). An
    option's own key chooses it at once: `Enter 2 3` offers a card to the second player with
    the third claim, as the player meant.
    """

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="PickDialog")
        + """
    PickDialog .option { width: 100%; padding: 0 1; }
    PickDialog .option.-highlight { text-style: bold reverse; }
    PickDialog .hint.-refused { color: $warning; text-style: bold; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,left", "move(-1)", "Previous", show=False),
        Binding("down,right", "move(1)", "Next", show=False),
        Binding("enter", "pick", "Choose", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    def __init__(
        self, title: str, options: list[Option[Value]], hint: str = "", ascii: bool = False
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.title_text = title
        self.options = options
        self.hint = hint
        self.ascii = ascii
        self.highlighted: int | None = None
        self.shown_at = math.inf  # when the list was drawn (chosen from by Enter only after)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.title_text), classes="title")
            for index in range(len(self.options)):
                yield Static(self._line(index), classes="option", id=f"option-{index}")
            yield Label(self._hint(), classes="hint", id="hint")

    def _hint(self) -> str:
        keys = "/".join(option.key for option in self.options)
        return self.hint or f"Press {keys}, or arrows and Enter. Esc: go back"

    def on_mount(self) -> None:
        self.shown_at = moment()

    def _line(self, index: int) -> Text:
        option = self.options[index]
        pointer = (">" if self.ascii else "▶") if index == self.highlighted else " "
        return Text(f"{pointer} [{option.key}] {option.label}")

    def _highlight(self, index: int | None) -> None:
        self.highlighted = None if index is None else index % len(self.options)
        for number in range(len(self.options)):
            line = self.query_one(f"#option-{number}", Static)
            line.update(self._line(number))
            line.set_class(number == self.highlighted, "-highlight")

    def action_move(self, step: int) -> None:
        start = self.highlighted if self.highlighted is not None else -1 if step > 0 else 0
        self._highlight(start + step)

    def action_pick(self) -> None:
        if self.highlighted is None:  # nothing chosen yet: Enter only points at the first
            self._highlight(0)
            return
        self.dismiss(self.options[self.highlighted].value)

    def action_cancel(self) -> None:
        self.dismiss(None)

    async def on_key(self, event: events.Key) -> None:
        if pass_on(self, event):
            return
        if not self.typed_in_time(event):
            drop(event)
            return
        if event.key == "enter" and not self.seen_for(self.shown_at, event):
            drop(event)  # the list was not seen yet: point at most
            if self.highlighted is None:
                self._highlight(0)
            return
        for option in self.options:
            if event.character and event.character.lower() == option.key.lower():
                drop(event)
                self.dismiss(option.value)
                return
        if event.is_printable and event.character and event.key not in key_bindings(self):
            drop(event)  # a key that is no option: say so rather than do nothing in silence
            hint = self.query_one("#hint", Label)
            keys = "/".join(option.key for option in self.options)
            hint.update(Text(f"There is no option {event.character}: press {keys}, or Esc."))
            hint.add_class("-refused")
            return
        await press_now(self, event)

    def on_click(self, event: events.Click) -> None:
        widget = event.widget
        if not self.typed_in_time(event):
            return
        if widget is not None and widget.id and widget.id.startswith("option-"):
            self.dismiss(self.options[int(widget.id.removeprefix("option-"))].value)
