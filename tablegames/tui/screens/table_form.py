"""The rows that describe a new network table: game, seats, bots for the empty ones, options.

Shared by the lobby's new-table dialog and the menu's host screen.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Label

from ...bots import LEVELS, level_note
from ...rules import get_game
from ..catalogue import listings
from .options import game_options
from .setup import Stepper

NO_BOTS = "none"


class TableForm(Vertical):
    """Steppers for a new table; `table` is what they say, as `client.ask.new_table` takes it."""

    def __init__(self, ascii: bool = False) -> None:
        super().__init__()
        self.ascii = ascii
        self.games = [entry.name for entry in listings()]

    def compose(self) -> ComposeResult:
        first = get_game(self.games[0])
        yield self._row("Game", Stepper(self.games, first.name, self.ascii, "game"))
        yield self._row(
            "Players",
            Stepper(players_of(first.name), first.default_players, self.ascii, "players"),
            "seats at the table",
        )
        yield self._row(
            "Bots",
            Stepper([NO_BOTS, *LEVELS], "normal", self.ascii, "bots"),
            bots_hint(first.name),
        )
        yield Vertical(id="options")

    @staticmethod
    def _row(label: str, widget: Widget, hint: str = "") -> Horizontal:
        named = f"{widget.id}-hint" if widget.id else None
        return Horizontal(
            Label(label, classes="field"), widget, Label(hint, classes="hint", id=named)
        )

    def on_mount(self) -> None:
        self._show_options()
        self.query_one("#game", Stepper).focus()

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        if event.stepper.id == "game":
            sizes, usual = players_of(event.value), get_game(event.value).default_players
            self.query_one("#players", Stepper).set_values(sizes, usual)
            self.query_one("#bots-hint", Label).update(bots_hint(event.value))
            self._show_options()

    def _show_options(self) -> None:
        box = self.query_one("#options", Vertical)
        box.remove_children()
        for option in game_options(self.query_one("#game", Stepper).value):
            stepper = Stepper(
                list(option.values), option.default, self.ascii, f"option-{option.name}"
            )
            box.mount(self._row(option.title, stepper, option.help))

    @property
    def table(self) -> dict[str, object]:
        """game, players, bots (None: none) and options, as the steppers say now."""
        game = self.query_one("#game", Stepper).value
        bots = self.query_one("#bots", Stepper).value
        chosen = {
            option.name: self.query_one(f"#option-{option.name}", Stepper).value
            for option in game_options(game)
        }
        return {
            "game": game,
            "players": self.query_one("#players", Stepper).value,
            "bots": None if bots == NO_BOTS else bots,
            "options": {name: value for name, value in chosen.items() if value is not None},
        }


def bots_hint(game: str) -> str:
    """The hint beside the bot level: what bots do, and that `game`'s levels are all random
    when they are (`bots.level_note`)."""
    note = level_note(get_game(game), brief=True)
    return f"empty seats; {note}" if note else "take the seats still empty when you start"


def players_of(game: str) -> list[int]:
    """Every table size `game` is played at."""
    info = get_game(game)
    return list(range(info.min_players, info.max_players + 1))
