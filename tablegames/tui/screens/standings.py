"""The night's standings at a party: per game, who played since the server started, their
games and wins tonight, their rating (openskill's, `tablegames stats`) and tonight's change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...net.messages import Standing
from ...rules import GAMES
from ..widgets.footer import Footer
from ..widgets.seats import table_box

NOBODY_YET = (
    "No game has finished since the server started. The standings fill in as games end: "
    "everyone's rating at each game, bots by level."
)


def standings_tables(rows: Sequence[Standing], ascii: bool = False) -> RenderableType:
    """A table per game, in the registry's order, best rating first (as the server sent them)."""
    played = {row.game for row in rows}
    games = [game for game in GAMES if game in played] + sorted(played - set(GAMES))
    tables = []
    for game in games:
        title = GAMES[game].title if game in GAMES else game
        table = Table(title=title, title_justify="left", box=table_box(ascii), expand=True)
        table.add_column("", justify="right", no_wrap=True)
        table.add_column("Player", ratio=1, no_wrap=True, overflow="ellipsis")
        for column in ("Games", "Won", "Rating", "Tonight"):
            table.add_column(column, justify="right", no_wrap=True)
        mine = [row for row in rows if row.game == game]
        for place, row in enumerate(mine, start=1):
            table.add_row(
                str(place),
                Text(row.name),
                str(row.played),
                str(row.won),
                f"{row.rating:.1f}",
                f"{row.change:+.1f}",
            )
        tables.append(table)
    return Group(*tables) if tables else Text(NOBODY_YET)


class StandingsScreen(ModalScreen[None]):
    """Tonight's standings over the lobby; `show` redraws them as news comes."""

    CSS_PATH = "menus.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s,q,enter", "close", "Back to the tables"),
    ]

    def __init__(self, rows: Sequence[Standing], ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.rows, self.ascii = list(rows), ascii

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Tonight's standings: games since the server started"
            yield Static(standings_tables(self.rows, self.ascii), id="standings")
        yield Footer()

    def show(self, rows: Sequence[Standing]) -> None:
        """Redraw with the standings the server sent last."""
        self.rows = list(rows)
        if self.is_mounted:
            self.query_one("#standings", Static).update(standings_tables(self.rows, self.ascii))

    def action_close(self) -> None:
        self.dismiss(None)
