"""Widgets of the crabs table: a row of crab cards, a side of players, the gesture bar.

Attributes go down (`show`); clicks come up as small messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ...rules.crabs import KIND_NAMES

#: Two short lines for each crab kind in a card box (full names: the rules' KIND_NAMES).
BOX_LINES = {
    "retriever": ("Crabrador", "Retriever"),
    "crabbi": ("Crabbi", ""),
    "jab": ("Jab", "Crab"),
    "taxi": ("Taxi", "Crab"),
    "ab": ("Ab", "Crab"),
    "bunny": ("Bunny", "Crabbit"),
    "kebab": ("Shish", "Crabob"),
    "cappuccino": ("Crab-", "uccino"),
    "king": ("King", "Crab"),
    "cabernet": ("Crabernet", "Sauvignon"),
    "diet": ("Low Crab", "Diet"),
    "cantaloupe": ("Crab-", "aloupe"),
    "magic": ("Abracrab-", "dabra"),
}
#: Gestures: the key that makes each one, a short label for the bar, and what a player does.
GESTURE_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")
GESTURE_LABELS = {
    "wink": "wink",
    "tap_table": "tap",
    "touch_nose": "nose",
    "scratch_head": "scratch",
    "yawn": "yawn",
    "sip_drink": "sip",
    "drum_fingers": "drum",
    "stretch": "stretch",
    "nod": "nod",
    "crack_knuckles": "knuckles",
}


def cut(line: Text, width: int, ascii: bool = False) -> Text:
    """`line` cut to `width` columns, saying so at its end (`…`; `~` in ASCII)."""
    if line.cell_len > width:
        line.truncate(max(0, width - 1), overflow="crop")
        line.append("~" if ascii else "…")
    return line


def crab_name(kind: str) -> str:
    """`king` -> `King Crab` (an unknown code is shown as it is)."""
    return KIND_NAMES.get(kind, kind)


@dataclass
class PlayerRow:
    """One player as a side panel shows them."""

    seat: int
    name: str
    team: str
    tokens: int
    state: str  # done, asked, or ""
    gesture: str  # the gesture they just made, or ""
    is_you: bool
    partner: bool


CARD_WIDTH = 11  # a boxed card: 9 letters inside
#: A side panel's row: the marker, key and a space, then the team and tokens (` A 2`) and the
#: state (` done`) after the name, which takes at most `NAME_ROOM` columns.
ROW_FIXED, NAME_ROOM = 12, 20
BOX = {False: ("╭╮╰╯", "│", "─"), True: ("++++", "|", "-")}
PICKED_BOX = {False: ("┏┓┗┛", "┃", "━"), True: ("####", "#", "=")}


class CardRow(Widget):
    """Four crab cards with the keys that pick them: boxes side by side, or a list when small.

    Clicking a card posts `CardRow.Clicked` with the row's id and the card's index.
    """

    @dataclass
    class Clicked(Message):
        """The player clicked card `index` of the row `row`."""

        row: str
        index: int

    cards: reactive[list[str]] = reactive(list)
    picked: reactive[int | None] = reactive[int | None](None)
    blank = reactive("")

    def __init__(self, keys: Sequence[str], ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys = list(keys)
        self.ascii = ascii
        self._spans: list[tuple[int, int, int, int, int]] = []  # index, x0, x1, y0, y1

    def show(self, cards: Sequence[str], picked: int | None, blank: str = "") -> None:
        """Draw `cards` with `picked` marked; with no cards, `blank` instead."""
        self.cards, self.picked, self.blank = list(cards), picked, blank

    @property
    def boxed(self) -> bool:
        """True when there is room for card boxes (four across, four rows and the keys)."""
        return self.size.width >= len(self.cards) * CARD_WIDTH and self.size.height >= 5

    def render(self) -> Text:
        self._spans = []
        if not self.cards:
            return Text(self.blank, style="italic")
        return self._boxes() if self.boxed else self._list()

    def _list(self) -> Text:
        """One card a line, each name cut to the width: every card shows, however narrow."""
        arrow = ">" if self.ascii else "▶"
        lines = []
        for index, card in enumerate(self.cards):
            chosen = index == self.picked
            line = Text(f"{arrow if chosen else ' '} {self.keys[index]} ", "bold" if chosen else "")
            line.append(crab_name(card), "bold reverse" if chosen else "bold")
            cut(line, max(1, self.size.width), self.ascii)
            lines.append(line)
            self._spans.append((index, 0, self.size.width, index, index + 1))
        return Text("\n", no_wrap=True).join(lines)

    def _boxes(self) -> Text:
        rows = [Text() for _ in range(5)]
        gap = " " if self.size.width >= len(self.cards) * (CARD_WIDTH + 1) - 1 else ""
        for index, card in enumerate(self.cards):
            chosen = index == self.picked
            corners, side, fill = (PICKED_BOX if chosen else BOX)[self.ascii]
            x = index * (CARD_WIDTH + len(gap))
            inner = CARD_WIDTH - 2
            frame = "bold" if chosen else ""
            face = "bold reverse" if chosen else "bold"
            key = f"[{self.keys[index]}]" if chosen else f" {self.keys[index]} "
            rows[0].append(key.center(CARD_WIDTH) + gap, "bold" if chosen else "")
            rows[1].append(corners[0] + fill * inner + corners[1] + gap, frame)
            for row, line in zip((2, 3), BOX_LINES.get(card, (card, "")), strict=True):
                rows[row].append(side, frame)
                rows[row].append(line.center(inner), face)
                rows[row].append(side + gap, frame)
            rows[4].append(corners[2] + fill * inner + corners[3] + gap, frame)
            self._spans.append((index, x, x + CARD_WIDTH, 0, 5))
        return Text("\n").join(rows)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for index, x0, x1, y0, y1 in self._spans:
            if x0 <= offset.x < x1 and y0 <= offset.y < y1:
                event.stop()
                self.post_message(self.Clicked(self.id or "", index))
                return


class SidePanel(Widget):
    """The players of one side: key, name, team, tokens, done or asked, and a fresh gesture.

    Clicking a player posts `SidePanel.Clicked` with their seat.
    """

    @dataclass
    class Clicked(Message):
        """The player clicked the row of `seat`."""

        seat: int

    rows: reactive[list[PlayerRow]] = reactive(list, layout=True)
    marked: reactive[int | None] = reactive[int | None](None)  # a seat a first click picked
    longest = reactive(0)  # the longest name on either side
    tall_as = reactive(0, layout=True)  # the rows of the longer side (both panels are as tall)

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii

    def show(
        self,
        rows: Sequence[PlayerRow],
        marked: int | None = None,
        longest: int = 0,
        tall_as: int = 0,
    ) -> None:
        """Redraw with `rows`; `marked` is the seat a click picked, if any; `longest` the
        longest name beside this panel's and `tall_as` the rows of the longer side (the other
        side's: both align)."""
        self.rows, self.marked, self.longest, self.tall_as = list(rows), marked, longest, tall_as

    def render(self) -> Text:
        width = self.size.width
        # The names' column: as wide as the longest name (whole as long as there is room),
        # the same on every row; a row showing a fresh gesture cuts its name to see it whole.
        labels = [row.name + (" (you)" if row.is_you else "") for row in self.rows]
        longest = max(self.longest, *map(len, labels), 0)
        column = max(6, min(NAME_ROOM, width - ROW_FIXED, longest))
        lines = []
        for row in self.rows:
            key = str((row.seat + 1) % 10)
            marker = (">" if self.ascii else "▶") if row.seat == self.marked else " "
            gesture = Text()
            if row.gesture:
                label = GESTURE_LABELS.get(row.gesture, row.gesture)
                gesture.append(" ")
                gesture.append(f"{'*' if self.ascii else '»'}{label}", "bold reverse")
            room = max(6, min(column, width - ROW_FIXED - gesture.cell_len))
            you = " (you)" if row.is_you else ""
            name = row.name
            if len(name) + len(you) > room:  # the name is cut, never what says it is yours
                name = name[: max(1, room - len(you) - 1)] + ("~" if self.ascii else "…")
            name += you
            line = Text(f"{marker}{key} ", "bold" if row.is_you else "")
            line.append(f"{name:<{room}}", "bold" if row.is_you or row.partner else "")
            line.append(f" {row.team}{row.tokens:>2}")
            line.append(f" {row.state:<4}", "italic")
            line.append_text(gesture)
            if row.seat == self.marked:
                line.stylize("reverse", 0, 2)
            cut(line, width, self.ascii)
            lines.append(line)
        lines += [Text()] * (self.tall_as - len(lines))
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and 0 <= offset.y < len(self.rows):
            event.stop()
            self.post_message(self.Clicked(self.rows[offset.y].seat))


class GestureBar(Widget):
    """Every gesture with its key, the team's signal (one gesture or two) marked; clicking one
    makes it."""

    @dataclass
    class Chosen(Message):
        """The player clicked the gesture `name`."""

        name: str

    names: reactive[list[str]] = reactive(list, layout=True)
    signals: reactive[list[str]] = reactive(list)
    flash: reactive[str | None] = reactive[str | None](None)  # the gesture just made, pressed

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self._spans: list[tuple[str, int, int, int]] = []  # name, line, x0, x1

    def show(self, names: Sequence[str], signals: Sequence[str], flash: str | None = None) -> None:
        """Draw `names` (in key order) with the team's `signals` marked."""
        self.names, self.signals, self.flash = list(names), list(signals), flash

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._lay_out(width))

    def _lay_out(self, width: int) -> list[list[tuple[str, str]]]:
        """The bar's lines: (name, label) cells, wrapped to `width`."""
        lines: list[list[tuple[str, str]]] = [[]]
        used = 0
        for key, name in zip(GESTURE_KEYS, self.names, strict=False):
            label = f"{key} {GESTURE_LABELS.get(name, name)}"
            if name in self.signals:
                label += "*"
            if used and used + 1 + len(label) > width:
                lines.append([])
                used = 0
            lines[-1].append((name, label))
            used += len(label) + (1 if used else 0)
        return lines

    def render(self) -> Text:
        self._spans = []
        out = []
        for number, cells in enumerate(self._lay_out(max(1, self.size.width))):
            line = Text()
            for name, label in cells:
                if len(line):
                    line.append(" ")
                start = len(line)
                style = "bold underline" if name in self.signals else ""
                if name == self.flash:
                    style += " reverse"
                line.append(label, style.strip())
                self._spans.append((name, number, start, len(line)))
            out.append(line)
        return Text("\n").join(out)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for name, line, x0, x1 in self._spans:
            if line == offset.y and x0 <= offset.x < x1:
                event.stop()
                self.post_message(self.Chosen(name))
                return
