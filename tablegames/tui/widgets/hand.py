"""A hand of cards as small boxes: numbered, the selected one raised, unplayable ones marked."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .card import card_label, rank_of, suit_of, suit_style

SMALL, BIG = 5, 7  # card widths; a hand five rows high draws small cards, seven rows big ones
FLAT_CARD = 5  # a card as a word: a mark, `10♥`, a mark
#: A hand this many rows high (or fewer) draws each card as a word, numbers above: in a low
#: terminal the boxes would leave the log one line.
FLAT = 2
BOXES = {
    # corners top-left, top-right, bottom-left, bottom-right, then side and fill; (normal, picked)
    False: (("╭╮╰╯", "│", "─"), ("┏┓┗┛", "┃", "━")),
    True: (("++++", "|", "-"), ("####", "#", "=")),
}


def card_face(card: str, width: int, ascii: bool = False) -> list[str]:
    """The inside of a card box `width` wide: `10♥` on one line, or rank, suit, rank when big."""
    inner = width - 2
    if width < BIG:
        return [card_label(card, ascii).ljust(inner)]
    rank, suit = rank_of(card), card_label(card, ascii)[-1]
    return [rank.ljust(inner), suit.center(inner), rank.rjust(inner)]


def boxed_card(card: str, width: int, ascii: bool = False, colour: bool = True) -> list[Text]:
    """A single face-up card in a box `width` wide, one Text per row."""
    corners, side, fill = BOXES[ascii][False]
    rows = [Text(corners[0] + fill * (width - 2) + corners[1])]
    for line in card_face(card, width, ascii):
        rows.append(Text.assemble(side, (line, suit_style(suit_of(card), colour)), side))
    rows.append(Text(corners[2] + fill * (width - 2) + corners[3]))
    return rows


class Hand(Widget):
    """One player's cards. Attributes go down (`show`); a click posts `Hand.Clicked`."""

    BIG_HEIGHT = 7

    @dataclass
    class Clicked(Message):
        """The player clicked the card at `index`."""

        index: int

    cards: reactive[list[str]] = reactive(list)
    selected: reactive[int | None] = reactive[int | None](None)
    unplayable: reactive[frozenset[str]] = reactive(frozenset())
    blank_message = reactive("")

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self._spans: list[tuple[int, int, int]] = []  # (index, first column, last column + 1)

    def show(
        self,
        cards: list[str],
        selected: int | None,
        unplayable: frozenset[str] = frozenset(),
        blank_message: str = "",
    ) -> None:
        """Draw `cards` with `selected` raised; with no cards, `blank_message` instead."""
        self.cards = list(cards)
        self.selected = selected
        self.unplayable = unplayable
        self.blank_message = blank_message

    def clear(self, message: str = "") -> None:
        """Draw no cards at all (before a hand-off nothing private may stay on screen)."""
        self.show([], None, frozenset(), message)

    def render(self) -> Text:
        card_width = BIG if self.size.height >= self.BIG_HEIGHT else SMALL
        width = max(self.size.width, card_width)
        flat = 0 < self.size.height <= FLAT
        if not self.cards:
            self._spans = []
            return Text(("" if flat else "\n\n") + self.blank_message, style="italic")
        if flat:
            return self._draw_flat(width)
        return self._draw(width, card_width)

    def _draw_flat(self, width: int) -> Text:
        """Two rows: each card's number over it, the card a word: `[9♠]` picked, `3♥×` not
        playable now (marked, not only dimmed)."""
        step = FLAT_CARD + 1
        first, shown, _ = self._layout(width - 2, FLAT_CARD, (step,))  # (room for < >)
        numbers, faces = Text(), Text()
        self._spans = []
        if first > 0:
            numbers.append(" ")
            faces.append("<", "bold")
        for index in range(first, first + shown):
            card = self.cards[index]
            chosen, blocked = index == self.selected, card in self.unplayable
            label = card_label(card, self.ascii)
            style = suit_style(suit_of(card), not self.app.no_color)
            style += " bold reverse" if chosen else (" dim" if blocked else "")
            start = faces.cell_len
            numbers.append(str(index + 1).center(FLAT_CARD) + " ", "bold" if chosen else "")
            close = "]" if chosen else ("x" if self.ascii else "×") if blocked else " "
            faces.append("[" if chosen else " ", "bold")
            faces.append(label, style)
            faces.append(close, "bold")
            faces.append(" " * (step - len(label) - 2))
            self._spans.append((index, start, start + FLAT_CARD))
        if first + shown < len(self.cards):
            faces.append(">", "bold")
        return Text("\n").join([numbers, faces])

    def _layout(
        self, width: int, card_width: int, steps: tuple[int, ...] = ()
    ) -> tuple[int, int, int]:
        """(first card shown, how many, columns from one card to the next) for `width`."""
        count = len(self.cards)
        tightest = card_width - (2 if card_width == BIG else 1)  # rank and suit still show
        # (a card's right side under the next one: only its border, else more of it)
        wanted = (card_width + 1, card_width, card_width - 1, tightest)
        steps = steps or tuple(dict.fromkeys(wanted))
        tightest = steps[-1]
        for step in steps:
            if (count - 1) * step + card_width <= width:
                return 0, count, step
        shown = max(1, (width - card_width - 2) // tightest + 1)
        selected = self.selected or 0
        first = min(max(0, selected - shown // 2), count - shown)
        return first, shown, tightest

    def _draw(self, width: int, card_width: int) -> Text:
        first, shown, step = self._layout(width, card_width)
        offset = 1 if shown < len(self.cards) else 0  # room for a "more cards" arrow
        rows = card_width  # numbers, a row to raise the picked card, then the box
        canvas = [[(" ", "")] * width for _ in range(rows)]
        self._spans = []
        # Left to right, the picked card too: each card's right side goes under the next one,
        # so every card shows its rank and suit (a picked card drawn last hid its neighbour's
        # rank in a tight hand); the picked one stands out raised, its top edge whole.
        for index in range(first, first + shown):
            column = offset + (index - first) * step
            self._draw_card(canvas, index, column, card_width)
            self._spans.append((index, column, column + card_width))
        if first > 0:
            canvas[rows // 2 + 1][0] = ("<", "bold")
        if first + shown < len(self.cards):
            canvas[rows // 2 + 1][width - 1] = (">", "bold")
        return _to_text(canvas)

    def _draw_card(
        self, canvas: list[list[tuple[str, str]]], index: int, column: int, width: int
    ) -> None:
        card = self.cards[index]
        chosen = index == self.selected
        blocked = card in self.unplayable
        corners, side, fill = BOXES[self.ascii][chosen]
        frame = "bold" if chosen else ("dim" if blocked else "")
        face_style = suit_style(suit_of(card), not self.app.no_color)
        face_style += " reverse" if chosen else ""
        if blocked:
            face_style += " dim"
        inner = width - 2
        bottom = fill * inner
        if blocked:  # never mark unplayable cards by dimming alone
            middle = inner // 2
            bottom = fill * middle + ("x" if self.ascii else "×") + fill * (inner - middle - 1)
        top_row = 1 if chosen else 2
        _put(canvas, 0, column + width // 2, str(index + 1), "bold" if chosen else "")
        _put(canvas, top_row, column, corners[0] + fill * inner + corners[1], frame)
        face = card_face(card, width, self.ascii)
        for number, line in enumerate(face, start=top_row + 1):
            _put(canvas, number, column, side, frame)
            _put(canvas, number, column + 1, line, face_style)
            _put(canvas, number, column + width - 1, side, frame)
        last = top_row + len(face) + 1
        _put(canvas, last, column, corners[2] + bottom + corners[3], frame)
        for row in range(last + 1, len(canvas)):  # clear what an overlapped neighbour left under it
            _put(canvas, row, column, " " * width, "")

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for index, start, end in reversed(self._spans):
            if start <= offset.x < end:
                self.post_message(self.Clicked(index))
                return


def _put(canvas: list[list[tuple[str, str]]], row: int, column: int, text: str, style: str) -> None:
    for i, char in enumerate(text):
        if 0 <= column + i < len(canvas[row]):
            canvas[row][column + i] = (char, style)


def _to_text(canvas: list[list[tuple[str, str]]]) -> Text:
    text = Text()
    for number, row in enumerate(canvas):
        if number:
            text.append("\n")
        for char, style in row:
            text.append(char, style=style or None)
    return text
