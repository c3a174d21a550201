"""End-of-round and end-of-game dialogs: every hand and how it scored, then the final standings."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import ClassVar, Generic, TypeVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from ..widgets.notices import NoticeLine
from ..widgets.seats import table_box
from .dialogs import Dialog
from .handoff import HANDOFF_SETTLE, Deliberate

View = TypeVar("View")

SETTLE_SECONDS = HANDOFF_SETTLE
"""How long the game-over dialog (and a round's scores) ignore keys and clicks after they open:
an Enter meant for the last move must not vote for a rematch (or leave the table) before the
player has seen the end. Keys also wait for a still keyboard (`Deliberate`)."""


def standings(totals: Sequence[int]) -> list[tuple[int, int]]:
    """(place, seat) pairs, lowest total first; equal totals share a place."""
    order = sorted(range(len(totals)), key=lambda seat: totals[seat])
    places: list[tuple[int, int]] = []
    for position, seat in enumerate(order):
        tied = position and totals[seat] == totals[order[position - 1]]
        places.append((places[-1][0] if tied else position + 1, seat))
    return places


def rating_line(changes: Mapping[int, tuple[float, float]], names: Sequence[str]) -> str:
    """Each seat's rating after the game and this game's change to it, in a line:
    `Ratings: Sara 4.2 (+2.1), Ada (bot) 1.3 (-0.4)`; "" when the game was not rated."""
    shown = [
        f"{names[seat]} {after:.1f} ({change:+.1f})"
        for seat, (after, change) in sorted(changes.items())
        if 0 <= seat < len(names)
    ]
    return f"Ratings: {', '.join(shown)}" if shown else ""


#: Under the end of a game: how to read the table and its log (the table's Enter brings it back).
LOOK = "Esc: look at the table and its log (Enter brings this back)."


class GameOver(Deliberate, Dialog[str]):
    """The end of a game: a headline, a table and a line under it; returns "menu" or "quit"
    (or "rematch" in a party game; "look", Esc, puts it aside to read the table under it), by a
    button's letter once the dialog has been open for `SETTLE_SECONDS` and the keyboard was
    still (`Deliberate`): keys and clicks before that are dropped, as Enters typed for the last
    move must not choose: every other choice leaves the table.
    No button takes the keyboard (an Enter would press it).

    Each game's ending says what goes in it (`_headline`, `_table`, `_hint`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "choose('menu')", "Menu", show=False),
        Binding("r", "choose('rematch')", "Rematch", show=False),
        Binding("q", "choose('quit')", "Quit", show=False),
        Binding("escape", "choose('look')", "Look at the table", show=False),
    ]
    AUTO_FOCUS = ""  # (a focused button would take Enter)
    settle = SETTLE_SECONDS
    READ_BY_ALL = True

    def __init__(self, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.ascii = ascii
        self.party = False  # a party game: a rematch, or back to the lobby (set on mount)
        self.asked_at = math.inf  # takes nothing until shown
        self.ratings = ""  # how the game moved each player's rating (set by the table screen)

    SHOWS_NOTICES = True  # a party's news (rematch wishes) under the standings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == ("rematch",):
            return self.party
        return True

    def compose(self) -> ComposeResult:
        hint = self._hint()
        with Vertical():
            yield Label(Text(f"Game over: {self._headline()}"), classes="title")
            yield Static(self._table())
            if hint:
                yield Label(Text(hint), classes="hint")
            if self.ratings:
                yield Label(Text(self.ratings), classes="hint", id="ratings")
            yield NoticeLine()  # a party's news (rematch wishes): under the standings
            self.party = bool(getattr(self.app, "in_party", False))
            with Horizontal():
                if self.party:
                    yield Button("Rematch (r)", id="rematch", variant="primary", compact=True)
                    yield Button("Back to the lobby (m)", id="menu", compact=True)
                else:
                    yield Button("Back to menu (m)", id="menu", variant="primary", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)
            yield Label(Text(LOOK), classes="hint", id="look")

    def _headline(self) -> str:
        """Who won (or lost), after "Game over: "."""
        raise NotImplementedError

    def _table(self) -> Table:
        raise NotImplementedError

    def _hint(self) -> str:
        """A line under the table (how the game is won); none by default."""
        return ""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.typed_in_time(event):  # (keys are held back by `TypeAhead`; this is a click)
            self.dismiss(event.button.id or "menu")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class ViewOver(GameOver, Generic[View]):
    """The end of a game told from its last `view`, with the players' `names`."""

    def __init__(self, view: View, names: Sequence[str], ascii: bool = False) -> None:
        super().__init__(ascii)
        self.view = view
        self.names = list(names)


class FinalStandings(GameOver):
    """The game is over: players ranked by total; returns "menu" or "quit"."""

    def __init__(self, totals: Sequence[int], names: Sequence[str], ascii: bool = False) -> None:
        super().__init__(ascii)
        self.totals = list(totals)
        self.names = list(names)

    def _headline(self) -> str:
        places = standings(self.totals)
        winners = [self.names[seat] for place, seat in places if place == 1]
        if len(winners) > 1:
            return f"{' and '.join(winners)} share the win!"
        return f"{winners[0]} wins!"

    def _table(self) -> Table:
        table = Table(box=table_box(self.ascii), expand=True)
        table.add_column("Place", justify="right")
        table.add_column("Player")
        table.add_column("Total", justify="right")
        for place, seat in standings(self.totals):
            table.add_row(str(place), self.names[seat], str(self.totals[seat]))
        return table

    def _hint(self) -> str:
        return "Lowest total wins."
