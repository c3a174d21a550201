"""Roach dialogs: the card you peeked at before the hand-off, and who lost at the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Label

from ...rules.roach_types import RoachView
from ..widgets.seats import cut_mark, table_box
from .handoff import Notice
from .results import ViewOver
from .roach_view import final_display, loser_line, with_article
from .size import BUTTONS_FROM


class PeekNotice(Notice):
    """The card a hot-seat player peeked at, shown to them before the next player takes over;
    it takes a key once it has been seen (`Deliberate`), not a second Enter of the claim."""

    CSS_PATH = "roach.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "Pass it on", show=False)
    ]

    def __init__(self, card: str, to: str, claim: str, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.card, self.to, self.claim = card, to, claim

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(f"You peeked: it is {with_article(self.card)}."), classes="title")
            yield Label(Text(f'It goes to {self.to} as "{self.claim}".'))
            yield Button("Pass it on (Enter)", id="close", variant="primary", compact=True)


def result_table(
    view: RoachView,
    names: Sequence[str],
    ascii: bool = False,
    colour: bool = True,
    name_width: int = 20,
) -> Table:
    """One row per player: lost or won, cards left in hand, face-up cards in words."""
    table = Table(box=table_box(ascii), expand=True, pad_edge=False)
    table.add_column("Player", no_wrap=True, overflow=cut_mark(ascii), max_width=name_width)
    table.add_column("", no_wrap=True)
    table.add_column("Hand", justify="right", no_wrap=True)
    table.add_column("Face up", ratio=1, overflow="fold")
    loser = view["loser"]
    for seat, name in enumerate(names):
        outcome = Text("LOSES", style="bold reverse") if seat == loser else Text("wins")
        shown = final_display(
            view["front_counts"][seat], view["fronts"][seat], view["lose_at"], colour
        )
        table.add_row(name, outcome, str(view["hand_sizes"][seat]), shown)
    return table


class RoachResult(ViewOver[RoachView]):
    """The game is over: the loser named, every display shown; returns "menu" or "quit"."""

    CSS_PATH = "roach.tcss"

    def _headline(self) -> str:
        return loser_line(self.view, self.names)

    def _table(self) -> Table:
        narrow = self.app.size.width < BUTTONS_FROM  # (names give way to the cards)
        colour = not self.app.no_color
        return result_table(self.view, self.names, self.ascii, colour, 12 if narrow else 20)

    def _hint(self) -> str:
        if self.view["loser_rule"] == "most":
            return "The most face-up cards lose; everyone else wins."
        return "Whoever collects too much loses; everyone else wins."
