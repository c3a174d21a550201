"""The setup screen: how many players, how many at this keyboard, bot level, the game's options."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static

from ...bots import LEVELS, level_note
from ...local import local_table
from ...rules import get_game
from ...store import Store
from ..asks import StartGame
from ..widgets.footer import Footer
from .options import game_options, sitting_options, value_label

#: Up and Down move between a form's fields (every form's bindings include them).
FIELD_MOVES: list[BindingType] = [
    Binding("up", "app.focus_previous", "Previous", show=False),
    Binding("down", "app.focus_next", "Next", show=False),
]


class Stepper(Widget, can_focus=True):
    """A value chosen from a short list with left/right (or a click on the arrows)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Less", show=False),
        Binding("right", "step(1)", "More", show=False),
    ]

    @dataclass
    class Changed(Message):
        """The stepper now shows `value`."""

        stepper: Stepper
        value: Any

    values: reactive[list[object]] = reactive(list)  # (the stepper redraws when either changes)
    index = reactive(0)

    def __init__(
        self, values: Sequence[object], value: Any, ascii: bool = False, id: str = ""
    ) -> None:
        super().__init__(id=id)
        self.values = list(values)
        self.index = self.values.index(value)
        self.arrows = ("<", ">") if ascii else ("◀", "▶")

    @property
    def value(self) -> Any:
        return self.values[self.index]

    def set_values(self, values: Sequence[object], instead: Any = None) -> None:
        """Offer `values`, keeping the current value if it is still among them (else `instead`
        if offered, else the last)."""
        keep = self.value if self.value in values else instead if instead in values else values[-1]
        self.values = list(values)
        self.index = self.values.index(keep)

    def render(self) -> Text:
        left, right = self.arrows
        return Text(f"{left} {value_label(self.value):^12} {right}")

    def action_step(self, step: int) -> None:
        index = max(0, min(len(self.values) - 1, self.index + step))
        if index != self.index:
            self.index = index
            self.post_message(self.Changed(self, self.value))

    def on_click(self, event: events.Click) -> None:
        self.action_step(-1 if event.x < self.size.width // 2 else 1)


class SetupScreen(Screen[None]):
    """Set up a local game; Enter (or the Start button) starts it, Escape goes back."""

    CSS_PATH = "menus.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start"),
        Binding("escape", "back", "Back"),
        *FIELD_MOVES,
    ]

    def __init__(self, game: str, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.game = get_game(game)
        self.ascii = ascii
        self.options = game_options(game) + sitting_options(game)

    def compose(self) -> ComposeResult:
        game = self.game
        players = list(range(game.min_players, game.max_players + 1))
        rows: list[tuple[str, Widget, str]] = [
            ("Players", Stepper(players, game.default_players, self.ascii, "players"), ""),
            ("Humans", Stepper([1, *players], 1, self.ascii, "humans"), "sharing this keyboard"),
            (
                "Bot level",
                Stepper(list(LEVELS), "normal", self.ascii, "bots"),
                level_note(game, brief=True) or "",
            ),
        ]
        rows += [
            (
                option.title,
                Stepper(list(option.values), option.default, self.ascii, option.name),
                option.help,
            )
            for option in self.options
        ]
        with Vertical() as box:
            box.border_title = f"New game of {game.title}"
            for label, widget, hint in rows:
                with Horizontal():
                    yield Label(label, classes="field")
                    yield widget
                    yield Label(hint, classes="hint")
            with Horizontal():
                yield Label("Names", classes="field")
                yield Input(
                    placeholder="optional, humans first: Sara, Tom", id="names", compact=True
                )
            yield Static("", id="error")
            yield Button("Start (Enter)", id="start", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._limit_humans()
        self.query_one("#players", Stepper).focus()

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        if event.stepper.id == "players":
            self._limit_humans()

    def _limit_humans(self) -> None:
        players = self.query_one("#players", Stepper).value
        self.query_one("#humans", Stepper).set_values(list(range(1, players + 1)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_start()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_start(self) -> None:
        names = [n.strip() for n in self.query_one("#names", Input).value.split(",") if n.strip()]
        chosen = {
            option.name: self.query_one(f"#{option.name}", Stepper).value for option in self.options
        }
        try:
            client = local_table(
                self.game.name,
                self.query_one("#players", Stepper).value,
                humans=self.query_one("#humans", Stepper).value,
                bot_level=self.query_one("#bots", Stepper).value,
                names=names,
                store=Store(),
                **{name: value for name, value in chosen.items() if value is not None},  # auto
            )
        except ValueError as problem:
            self.query_one("#error", Static).update(Text(str(problem)))
            return
        self.app.post_message(StartGame(client))
