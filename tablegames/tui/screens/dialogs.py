"""Small modal dialogs: leave the game, pick one of a few options (a suit, a player to catch).

Every question has a Back to tap (`BackButton`: what Esc does, for a phone that has no Esc
key), and the keys of the table under a question that make sense over it (help, leave, the
log, kraken's talk: `works_over_questions`) work from it, typed or tapped in the
table's footer (`UnderQuestion`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from rich.text import Text
from textual import events
from textual.actions import parse
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen, ScreenResultType
from textual.widgets import Button, Label, Static

from ..textual_private import FooterKey, key_bindings
from .typeahead import TypeAhead, drop, moment, pass_on, press_now

Value = TypeVar("Value")

#: What the Back button of every question says.
BACK = "Back (Esc)"


class Dialog(ModalScreen[Value]):
    """A question or a notice over the table, in a box: every one looks alike (`Dialog` in
    app.tcss), a game's own says how it differs in its game's sheet."""


class BackButton(Button, can_focus=False):
    """What Esc does in a question or a dialog, as a button to tap (a phone has no Esc key).

    Every question has one, in one place (its last line, at the right): it runs the action its
    screen binds to Escape, whatever that is there (go back, cancel, not now)."""

    def __init__(self, label: str = BACK) -> None:
        super().__init__(label, id="back", compact=True)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()  # (the dialog's own buttons mean something else)
        await go_back(self.screen)


async def go_back(screen: Screen[ScreenResultType]) -> None:
    """Do what Escape does on `screen`."""
    for binding in key_bindings(screen).get("escape", []):
        await screen.run_action(binding.action)
        return


def table_under(screen: Screen[ScreenResultType]) -> Screen[object] | None:
    """The nearest screen under `screen` that has a footer (the table a question is over)."""
    stack = screen.app.screen_stack
    if screen not in stack:
        return None
    below: Screen[object]  # (the app's stack is typed loosely)
    for below in reversed(stack[: stack.index(screen)]):
        if below.query("Footer"):
            return below
    return None


@runtime_checkable
class UnderQuestion(Protocol):
    """A screen some of whose keys work from a question over it (a game's table): those whose
    actions it names in `OVER_QUESTIONS`, when it allows them now (`check_action`)."""

    OVER_QUESTIONS: frozenset[str]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None: ...

    async def run_action(self, action: str) -> bool: ...


def works_over_questions(table: Screen[ScreenResultType], key: str) -> str | None:
    """The action `key` runs on `table` while a question is open over it (None: it waits for
    the question to be answered)."""
    if not isinstance(table, UnderQuestion):
        return None
    for binding in key_bindings(table).get(key, []):
        _, name, parameters = parse(binding.action)
        if name in table.OVER_QUESTIONS and table.check_action(name, parameters) is not False:
            return binding.action
    return None


class QuitDialog(TypeAhead, Dialog[str | None]):
    """Ask before leaving a game; returns "quit", "discard", "menu" or None (keep playing).

    With `saving`, the game is being saved: quitting keeps it to resume later, and "discard"
    quits and forgets it, once the player has said so a second time (`d` is a game key too).
    """

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


class PickDialog(TypeAhead, Dialog[Value | None], Generic[Value]):
    """Pick one of a few options with its key, arrows and Enter, or a click; Escape cancels.

    Nothing is highlighted at first, so nothing is chosen by default: Enter on an untouched
    list only points at the first option, and an Enter typed before the list had been on
    screen for a moment (`SETTLE`) chooses nothing at all (an Enter pressed for something
    else, as the dialog opened, must not choose guns or a navigator for the player). An
    option's own key chooses it at once: `Enter 2 3` offers a card to the second player with
    the third claim, as the player meant.
    """

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
            with Horizontal(classes="foot"):
                yield Label(self._hint(), classes="hint", id="hint")
                yield BackButton()

    def _hint(self) -> str:
        keys = "/".join(option.key for option in self.options)
        return self.hint or f"Press {keys}, or arrows and Enter."

    def _say(self, sentence: str) -> None:
        """Say `sentence` where the hint was (a key or a tap that does nothing here)."""
        hint = self.query_one("#hint", Label)
        hint.update(Text(sentence))
        hint.add_class("-refused")

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
        if event.key in key_bindings(self):
            await press_now(self, event)
            return
        if await self._for_the_table(event.key):  # q, ?, the log's keys, kraken's talk
            drop(event)
            return
        if event.is_printable and event.character:
            drop(event)  # a key that is no option: say so rather than do nothing in silence
            keys = "/".join(option.key for option in self.options)
            self._say(f"There is no option {event.character}: press {keys}, or Back (Esc).")
            return
        await press_now(self, event)

    async def _for_the_table(self, key: str) -> bool:
        """Run `key` on the table under this question if it works over one; True if it did."""
        table = table_under(self)
        action = works_over_questions(table, key) if table is not None else None
        if table is None or action is None:
            return False
        await table.run_action(action)
        return True

    async def on_click(self, event: events.Click) -> None:
        widget = event.widget
        if widget is self:  # around the question: the table's footer is drawn there
            await self._tapped_around(event)
            return
        if not self.typed_in_time(event):
            return
        if widget is not None and widget.id and widget.id.startswith("option-"):
            self.dismiss(self.options[int(widget.id.removeprefix("option-"))].value)

    async def _tapped_around(self, event: events.Click) -> None:
        """A tap beside the question: a key of the table's footer works as typed here (help,
        leave, talk...); a key the table takes only once the question is answered says so."""
        table = table_under(self)
        if table is None:
            return
        tapped, _ = table.get_widget_at(event.screen_x, event.screen_y)
        if not isinstance(tapped, FooterKey):
            return
        if not await self._for_the_table(tapped.key):
            self._say(f"First answer the question, or tap {BACK}: then {tapped.description}.")
