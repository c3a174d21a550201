"""A table needs room: below the size a game needs, this notice covers it and takes the keys."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Size
from textual.screen import Screen, ScreenResultType
from textual.widget import Widget
from textual.widgets import Footer, Label

from ..widgets.notices import NoticeLine
from .typeahead import TypeAhead

#: Terminals at least this wide show the action buttons beside the hand (the keys do it all).
BUTTONS_FROM = 80


def too_small(size: Size, needed: tuple[int, int]) -> bool:
    """True if a terminal of `size` is narrower or lower than `needed` (columns, rows)."""
    return size.width < needed[0] or size.height < needed[1]


def fit_room(screen: Screen[ScreenResultType], rows: int) -> None:
    """Fit `screen`'s footer and notices to the terminal: keys closer together in a narrow
    one (help and quit stay in sight), and as many notice lines as it has rows to spare beyond
    the `rows` its table needs (one, at the table's smallest size: the newest)."""
    size = screen.app.size
    for footer in screen.query(Footer):
        footer.compact = size.width < BUTTONS_FROM
    for line in screen.query(NoticeLine):
        line.fit(size.height - rows)


def fit_titles(screen: Screen[ScreenResultType]) -> None:
    """Cut the border titles of `screen`'s widgets that do not fit with `~` (in ASCII: the
    border would cut them with `…`, which is no ASCII)."""
    if not screen.is_mounted:
        return
    for widget in screen.query(Widget):
        room = widget.outer_size.width - 6  # corners, a line and a space each side
        for side in ("border_title", "border_subtitle"):
            title = getattr(widget, side)
            if title and 1 < room < len(str(title)):
                setattr(widget, side, str(title)[: room - 1] + "~")


class TooSmall(TypeAhead, Screen[str | None]):
    """Says how big the terminal must be; goes by itself once it is. Returns "quit" if the
    player chose to leave the game instead (q), None once the terminal is big enough."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "leave", "Quit", show=False)]

    def __init__(self, needed: tuple[int, int], times: str = "×") -> None:
        super().__init__()
        self.needed = needed
        self.times = times  # "x" in ASCII

    def compose(self) -> ComposeResult:
        columns, rows = self.needed
        with Vertical():
            yield Label(Text(f"Make the terminal at least {columns}{self.times}{rows}"))
            yield Label(Text(self._now(self.app.size)), classes="hint", id="now")
            yield Label("(q leaves the game)", classes="hint")

    def _now(self, size: Size) -> str:
        return f"to see the table (it is {size.width}{self.times}{size.height})."

    def on_resize(self, event: events.Resize) -> None:
        if not too_small(event.size, self.needed):
            self._close(None)
        else:
            self.query_one("#now", Label).update(Text(self._now(event.size)))

    def action_leave(self) -> None:
        self._close("quit")

    def _close(self, choice: str | None) -> None:
        if self.is_current:  # once: a burst of resizes must not close what lies under it
            self.dismiss(choice)
