"""A roach hand as a row of labelled cards: `1 bat ×2`, the picked one in brackets, marks shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ...rules.roach import SPECIALS, is_royal


def chip_label(number: int, card: str, count: int, ascii: bool = False) -> str:
    """`1 bat ×2`: the number that picks it (0 for none), the card in words, how many."""
    key = f"{number} " if number >= 1 else ""
    times = "x" if ascii else "×"
    return f"{key}{card.replace('royal-', 'royal ')}" + (f" {times}{count}" if count > 1 else "")


class RoachHand(Widget):
    """One player's hand, one chip per kind of card. A click posts `RoachHand.Clicked`.

    The picked card is drawn in brackets and reversed (not by colour alone); cards marked to be
    laid out carry a `*` (ASCII) or `✓`, with a count when two of a kind are marked.
    """

    @dataclass
    class Clicked(Message):
        """The player clicked the card kind at `index`."""

        index: int

    kinds: reactive[list[tuple[str, int]]] = reactive(list, layout=True)
    selected: reactive[int | None] = reactive[int | None](None)
    marked: reactive[Counter[str]] = reactive(Counter)
    blocked: reactive[frozenset[str]] = reactive(frozenset())
    blank_message = reactive("", layout=True)

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self._spans: list[tuple[int, int, int, int]] = []  # (index, row, first column, end)

    def show(
        self,
        kinds: Sequence[tuple[str, int]],
        selected: int | None,
        marked: Counter[str] | None = None,
        blocked: frozenset[str] = frozenset(),
        blank_message: str = "",
    ) -> None:
        """Draw `kinds` (card, count) with `selected` picked and `marked` cards ticked."""
        self.kinds = list(kinds)
        self.selected = selected
        self.marked = Counter(marked or {})
        self.blocked = blocked
        self.blank_message = blank_message

    def clear(self, message: str = "") -> None:
        """Draw no cards at all (before a hand-off nothing private may stay on screen)."""
        self.show([], None, None, frozenset(), message)

    def chip(self, index: int) -> Text:
        """One card kind as drawn: brackets when picked, a tick when marked."""
        card, count = self.kinds[index]
        label = chip_label(index + 1, card, count, self.ascii)
        marks = self.marked[card]
        if marks:
            tick = "*" if self.ascii else "✓"
            label = f"{tick}{marks if count > 1 else ''} {label}"
        style = "bold" if is_royal(card) else "italic" if card in SPECIALS else ""
        if card in self.blocked:
            style += " dim strike"  # the special card just taken: it cannot be laid out
        if index == self.selected:
            return Text(f"[{label}]", style=f"{style} reverse".strip())
        return Text(f" {label} ", style=style.strip())

    def _rows(self, width: int) -> list[list[tuple[int, Text]]]:
        rows: list[list[tuple[int, Text]]] = [[]]
        used = 0
        for index in range(len(self.kinds)):
            chip = self.chip(index)
            if rows[-1] and used + 1 + chip.cell_len > width:
                rows.append([])
                used = 0
            used += (1 if rows[-1] else 0) + chip.cell_len
            rows[-1].append((index, chip))
        return rows

    def render(self) -> Text:
        if not self.kinds:
            self._spans = []
            return Text(self.blank_message, style="italic")
        width = max(10, self.size.width or 80)
        text = Text()
        self._spans = []
        for row_number, row in enumerate(self._rows(width)):
            if row_number:
                text.append("\n")
            column = 0
            for position, (index, chip) in enumerate(row):
                if position:
                    text.append(" ")
                    column += 1
                self._spans.append((index, row_number, column, column + chip.cell_len))
                text.append_text(chip)
                column += chip.cell_len
        return text

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if not self.kinds:
            return 1
        return len(self._rows(max(10, width)))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for index, row, start, end in self._spans:
            if row == offset.y and start <= offset.x < end:
                self.post_message(self.Clicked(index))
                return
