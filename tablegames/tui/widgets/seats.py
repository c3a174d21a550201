"""The seat panel: every player in table order with cards held, score and what marks them."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich import box
from rich.cells import cell_len, set_cell_size
from rich.console import OverflowMethod
from rich.text import Text
from textual.reactive import reactive
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
    """One line per player; the one to act carries an arrow, not just a colour. Where the notes
    do not fit beside the numbers (a narrow terminal), each is its short mark (`marks`: words
    to mark) and the marks shown are explained under the panel."""

    rows: reactive[list[SeatRow]] = reactive(list, layout=True)
    marks: reactive[dict[str, str]] = reactive(dict, layout=True)

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii

    def show(self, rows: list[SeatRow], marks: dict[str, str] | None = None) -> None:
        """Show `rows`, one per seat in table order (`marks`: each note's short mark, for a
        narrow panel); the panel redraws when they change."""
        self.rows = list(rows)
        self.marks = dict(marks or {})

    def watch_rows(self) -> None:
        self._explain_marks()

    def watch_marks(self) -> None:
        self._explain_marks()

    def on_resize(self) -> None:
        self._explain_marks()

    def _layout(self) -> tuple[list[str], int, bool]:
        """The names shown, their width, and whether the notes are shown as their marks."""
        names = [row.name + (" (you)" if row.is_you else "") for row in self.rows]
        width = min(NAME_WIDTH, max([len("Player"), *map(cell_len, names)]))
        room = self.size.width or 80
        width = max(len("Player"), min(width, room - 14))  # the numbers are never cut
        numbers = 2 + width + 12  # (an arrow, the name, the two numbers)
        short = any(numbers + 2 + len(", ".join(row.notes)) > room for row in self.rows)
        if short:  # the marks' room comes from the names (cut, but never the marks)
            marks = [" ".join(self._marked(row)) for row in self.rows]
            width = max(len("Player"), min(width, room - 14 - max(map(len, marks)) - 1))
        return names, width, short

    @staticmethod
    def _fitted(row: SeatRow, name: str, width: int, cut: str) -> str:
        """`name` in `width` cells; your own row keeps its "(you)" (your name is cut instead)."""
        you = " (you)"
        if row.is_you and cell_len(name) > width >= len(you) + 3:
            return fit_name(row.name, width - len(you), cut) + you
        return fit_name(name, width, cut)

    def _marked(self, row: SeatRow) -> list[str]:
        return [self.marks.get(note, note) for note in row.notes]

    def _explain_marks(self) -> None:
        """Under a narrow panel, what its marks mean (those shown now)."""
        _, _, short = self._layout()
        used = {self.marks[n]: n for row in self.rows for n in row.notes if n in self.marks}
        said = "  ".join(f"{mark} {note}" for mark, note in used.items() if mark != note)
        self.border_subtitle = said if short else ""

    def render(self) -> Text:
        names, width, short = self._layout()
        room = self.size.width or 80
        arrow = ">" if self.ascii else "▶"
        cut = "~" if self.ascii else "…"
        lines = [Text(f"  {'Player':<{width}} Cards Score", style="bold underline")]
        for row, name in zip(self.rows, names, strict=True):
            line = Text(
                f"{arrow if row.to_act else ' '} {self._fitted(row, name, width, cut)} "
                f"{row.cards:>5} {row.score:>5}",
                style="bold" if row.to_act else "",
            )
            said = self._marked(row) if short else row.notes  # (narrow: marks, explained below)
            if said and line.cell_len + 1 < room:  # the notes, as far as they fit
                notes = Text(" " + " ".join(said) if short else "  " + ", ".join(said), "italic")
                notes.truncate(room - line.cell_len, overflow="crop" if self.ascii else "ellipsis")
                line.append_text(notes)
            lines.append(line)
        return Text("\n").join(lines)
