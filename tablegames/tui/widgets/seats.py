"""The seat panel: every player in table order with cards held, score and what marks them."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich import box
from rich.cells import cell_len, set_cell_size
from rich.console import OverflowMethod
from rich.text import Text
from textual.widget import Widget

ASCII_HEAD = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
NAME_WIDTH = 20


def table_box(ascii: bool) -> box.Box:
    """A rule under the header and nothing else, in ASCII when asked."""
    return ASCII_HEAD if ascii else box.SIMPLE_HEAD


def cut_mark(ascii: bool) -> OverflowMethod:
    """How a table's cell too long for its column is cut: `…`, or with no mark in ASCII."""
    return "crop" if ascii else "ellipsis"


@dataclass
class SeatRow:
    """One player's line: what the screen knows about that seat right now."""

    name: str
    cards: int
    score: int
    to_act: bool = False
    is_you: bool = False
    notes: list[str] = field(default_factory=list)


def fit_name(name: str, width: int, mark: str = "…") -> str:
    """`name` in exactly `width` cells of a terminal: cut, saying so with `mark`, or padded.
    Counted in cells, not characters: an emoji takes two, and a row padded by characters
    pushed its numbers (and its box's border) a cell to the right."""
    if cell_len(name) > width:
        name = set_cell_size(name, width - cell_len(mark)) + mark
    return set_cell_size(name, width)


class SeatPanel(Widget):
    """One line per player; the one to act carries an arrow, not just a colour."""

    DEFAULT_CSS = """
    SeatPanel { height: auto; }
    """

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self.rows: list[SeatRow] = []

    def show(self, rows: list[SeatRow]) -> None:
        """Redraw the panel with `rows`, one per seat in table order."""
        self.rows = list(rows)
        self.refresh(layout=True)

    def render(self) -> Text:
        names = [row.name + (" (you)" if row.is_you else "") for row in self.rows]
        width = min(NAME_WIDTH, max([len("Player"), *map(cell_len, names)]))
        room = self.size.width or 80
        width = max(len("Player"), min(width, room - 14))  # the numbers are never cut
        arrow = ">" if self.ascii else "▶"
        cut = "~" if self.ascii else "…"
        lines = [Text(f"  {'Player':<{width}} Cards Score", style="bold underline")]
        for row, name in zip(self.rows, names, strict=True):
            line = Text(
                f"{arrow if row.to_act else ' '} {fit_name(name, width, cut)} "
                f"{row.cards:>5} {row.score:>5}",
                style="bold" if row.to_act else "",
            )
            if row.notes and line.cell_len + 3 < room:  # the notes, as far as they fit
                notes = Text("  " + ", ".join(row.notes), style="italic")
                notes.truncate(room - line.cell_len, overflow="crop" if self.ascii else "ellipsis")
                line.append_text(notes)
            lines.append(line)
        return Text("\n").join(lines)
