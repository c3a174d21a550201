"""How any game's view reads on the generic screen: its panels of keys, its players with their
per-seat keys beside them, and its actions in words: the presentation contract of
`rules/core.py` (`State.panels`, `labels`, `per_seat`, `seat_keys`, `describe`) with the
table's names, laid out for the room there is."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table as RichTable
from rich.text import Text

from ...replay import compact
from ...rules import SHARED_VIEW_KEYS, Action, State, View
from ..widgets.seats import cut_mark, table_box

#: Rows the generic screen keeps for what is not the players (status, footer, the actions
#: list at its smallest, the panels and the log at theirs), and for the players' frame (its
#: border, the titles and the rule under them).
OTHER_ROWS, SEATS_FRAME = 11, 4
NAME_WIDTH = 16  # a longer name is cut
LABEL_WIDTH = 20  # a longer label wraps
VALUE_WIDTH = 24  # a per-seat value wider than this wraps
SPACER = 1  # the spacer column between two blocks of players side by side


@dataclass(frozen=True)
class Section:
    """A titled group of a view's keys, as lines of (label, value in words)."""

    title: str
    lines: list[tuple[str, str]]


def empty(value: object) -> bool:
    """True for a value not worth a line: None, False, an empty text or list."""
    return value is None or value is False or value == "" or value == [] or value == {}


class Words:
    """How one game's views and actions read, seats said as the table's names.

    A game that says nothing gets its keys' names in words and `type: key value` actions.
    """

    def __init__(self, state: type[State], names: Sequence[str]) -> None:
        self.state, self.names = state, list(names)

    def seats(self, text: str) -> str:
        """`text` with each ``{n}`` written as seat n's name."""
        try:
            return text.format(*self.names)
        except (IndexError, KeyError, ValueError):  # a malformed sentence must not stop a game
            return text

    def _name(self, value: object) -> str | None:
        if type(value) is int and 0 <= value < len(self.names):
            return self.names[value]
        return None

    def value(self, key: str, value: object) -> str:
        """A view value or an action field in words: names where `key` holds seats."""
        if key in self.state.seat_keys:
            if isinstance(value, list) and all(self._name(item) for item in value):
                return ", ".join(self.names[item] for item in value) or "nobody"
            named = self._name(value)
            if named is not None:
                return named
        return compact(value)

    def label(self, key: str) -> str:
        """What `key` is called: the game's `labels`, else its name in words."""
        return self.state.labels.get(key) or key.replace("_", " ").capitalize()

    def action(self, action: Action, view: View) -> str:
        """`action` in words: the game's own (`describe`), else `type: key value, ...`."""
        said = self.state.describe(action, view)
        if said is not None:
            return self.seats(said)
        fields = [(key, item) for key, item in action.items() if key != "type"]
        details = ", ".join(f"{key} {self.value(key, item)}" for key, item in fields)
        return f"{action['type']}: {details}" if details else str(action["type"])

    def sections(self, view: View) -> list[Section]:
        """The view's own keys to show, grouped: the game's `panels`, else one group with the
        hand and the table first and the rest by name; empty values and groups left out."""
        per_seat = self.state.per_seat
        own = [key for key in view if key not in SHARED_VIEW_KEYS | per_seat]
        if self.state.panels:  # (per-seat keys show beside the players: a panel only orders them)
            groups = [
                (panel.title, [key for key in panel.keys if key not in per_seat])
                for panel in self.state.panels
            ]
        else:
            first = [key for key in ("hand", "table") if key in own]
            groups = [("", first + sorted(key for key in own if key not in first))]
        found = []
        for title, keys in groups:
            lines = [
                (self.label(key), self.value(key, view[key]))
                for key in keys
                if key in view and not empty(view[key])
            ]
            if lines:
                found.append(Section(title, lines))
        return found

    def seat_columns(self, view: View) -> tuple[list[list[str]], list[tuple[str, list[str]]]]:
        """The per-seat keys of `view`: yes-or-no ones as each seat's marks (its label where
        true: "protected", "out"), the others as columns (a title and one entry per seat), in
        the order the game's panels name them, then by name (the first stay when the room
        is short); a key empty for every seat is left out."""
        marks: list[list[str]] = [[] for _ in self.names]
        columns = []
        listed = [key for panel in self.state.panels for key in panel.keys]
        order = {key: listed.index(key) if key in listed else len(listed) for key in listed}
        for key in sorted(
            self.state.per_seat & set(view), key=lambda key: (order.get(key, len(listed)), key)
        ):
            entries = view[key]
            if not isinstance(entries, list) or len(entries) != len(self.names):
                continue
            if all(entry is None or isinstance(entry, bool) for entry in entries):
                for seat, entry in enumerate(entries):
                    if entry:
                        marks[seat].append(self.label(key).lower())
                continue
            said = ["" if empty(entry) else self.value(key, entry) for entry in entries]
            if any(said):
                columns.append((self.label(key), said))
        return marks, columns


@dataclass(frozen=True)
class SeatRows:
    """The players as a table: each player's name, marks and entries (one row each)."""

    names: list[str]  # "Ann (you)" for the seat at this keyboard
    marks: list[str]
    columns: list[tuple[str, list[str]]]
    waiting: frozenset[int]

    @classmethod
    def of(
        cls,
        names: Sequence[str],
        waiting: Sequence[int],
        you: int | None,
        marks: Sequence[Sequence[str]] = (),
        columns: Sequence[tuple[str, list[str]]] = (),
    ) -> SeatRows:
        # (An arrow says whom the game waits for: the marks are the game's, "out", "protected".)
        said = [", ".join(marks[seat]) if seat < len(marks) else "" for seat in range(len(names))]
        named = [f"{name} (you)" if seat == you else name for seat, name in enumerate(names)]
        return cls(named, said, list(columns), frozenset(waiting))

    def headed(self, columns: int | None = None) -> bool:
        """True if the table has titles (and a rule under them): when there is more than the
        players' names to show."""
        shown = len(self.columns) if columns is None else columns
        return bool(shown or any(self.marks))

    def widths(self, columns: int) -> list[int]:
        """The widths of one block's columns, with the first `columns` of the game's."""
        longest = max((len(name) for name in self.names), default=0)
        name = min(NAME_WIDTH, longest) + 2  # and its pointer
        widths = [name, *([max(map(len, self.marks))] if any(self.marks) else [])]
        for title, entries in self.columns[:columns]:
            widths.append(min(VALUE_WIDTH, max([len(title), *(len(entry) for entry in entries)])))
        return widths

    def width(self, blocks: int, columns: int) -> int:
        """The width of the table in `blocks` blocks: each column padded a space either side
        (not at the table's edges) and a space between columns; a spacer between blocks."""
        widths = self.widths(columns) * blocks + [SPACER] * (blocks - 1)
        return sum(widths) + 3 * len(widths) - 3

    def blocks_in(self, width: int, columns: int = 0) -> int:
        """How many blocks of players fit side by side in `width` columns of terminal (with
        `columns` of the game's columns): the frame, its padding and a scrollbar take 5."""
        blocks = 1
        while blocks < len(self.names) and self.width(blocks + 1, columns) <= width - 5:
            blocks += 1
        return blocks

    def layout(self, width: int, rows: int) -> tuple[int, int]:
        """(blocks, columns) that show every player in `rows` rows of `width` columns, with
        as many of the columns as fit; when they cannot all be seen, the most blocks that fit
        (the rest scroll)."""
        players = len(self.names)
        blocks = min(self.blocks_in(width), max(1, math.ceil(players / max(1, rows))))
        columns = len(self.columns)
        while columns and self.blocks_in(width, columns) < blocks:
            columns -= 1  # the last (least) columns give way first
        return blocks, columns

    def table(self, blocks: int, ascii: bool, columns: int | None = None) -> RichTable:
        """The players in seat order, down each of `blocks` blocks side by side, with the
        first `columns` of their columns (all by default); the ones the game waits for carry
        an arrow."""
        shown = self.columns if columns is None else self.columns[:columns]
        crop = cut_mark(ascii)
        table = RichTable(
            box=table_box(ascii),
            expand=False,
            show_edge=False,
            pad_edge=False,
            padding=(0, 1),
            show_header=self.headed(columns),
        )
        rows = math.ceil(len(self.names) / blocks)
        for block in range(blocks):
            if block:
                table.add_column("", width=SPACER)
            table.add_column("Player", no_wrap=True, overflow=crop, max_width=NAME_WIDTH + 2)
            if any(self.marks):
                table.add_column("", no_wrap=True, overflow=crop)
            for title, _ in shown:
                table.add_column(title, overflow="fold", max_width=VALUE_WIDTH)
        arrow = ">" if ascii else "▶"
        for row in range(rows):
            cells: list[str] = []
            for block in range(blocks):
                seat = block * rows + row
                if block:
                    cells.append("")
                if seat >= len(self.names):
                    cells += [""] * (1 + bool(any(self.marks)) + len(shown))
                    continue
                pointer = arrow if seat in self.waiting else " "
                cells.append(f"{pointer} {self.names[seat]}")
                cells += [self.marks[seat]] if any(self.marks) else []
                cells += [entries[seat] for _, entries in shown]
            table.add_row(*cells)
        return table


def seat_room(height: int) -> int:
    """Rows the players may take in a terminal `height` rows high: a third of it, or what the
    rest of the table leaves at the least."""
    return max(2, height - OTHER_ROWS - SEATS_FRAME, height // 3 - 1)


def label_rows(label: str) -> int:
    """The rows a label takes, wrapped by words at `LABEL_WIDTH`."""
    return max(1, len(textwrap.wrap(label, LABEL_WIDTH)))


def frame_title(sections: Sequence[Section]) -> str:
    """The title over the panels: the first group's, or "Table"."""
    return (sections[0].title if sections else "") or "Table"


def sections_text(sections: Sequence[Section], rows: int | None = None) -> RichTable:
    """The panels' keys as aligned lines under their titles: the first group's title is the
    frame's (`frame_title`), and in fewer than `rows` rows (None: as many as they take) the
    others give way to the lines."""
    grid = RichTable.grid(padding=(0, 1))
    # (a long label wraps, by words, rather than be cut where nobody can tell)
    grid.add_column(style="bold", max_width=LABEL_WIDTH, overflow="fold")
    grid.add_column(ratio=1, overflow="fold")
    lines = sum(label_rows(label) for section in sections for label, _ in section.lines)
    titled = rows is None or lines + len(sections) - 1 <= rows
    for number, section in enumerate(sections):
        if number and titled and section.title:
            grid.add_row(Text(section.title, style="bold underline"), "")
        for label, value in section.lines:
            grid.add_row(label, value)
    return grid
