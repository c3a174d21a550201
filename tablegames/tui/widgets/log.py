"""The game log: what happened, newest at the bottom, seat numbers turned into names."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.text import Text
from textual import events
from textual.widgets import RichLog

from .card import prettify

KEEP = 300  # lines kept on screen; older ones scroll away for good
RECAP_MARK = "» "  # starts a "since your last turn" summary (ASCII: "> ")
RECAP_HEAD = "Since your last turn:"


def event_line(event: dict[str, object], names: Sequence[str], ascii: bool = False) -> str:
    """An event's sentence for people: `{0} plays 10H.` -> `Sara plays 10♥.`."""
    template = prettify(str(event.get("text", "")), ascii)
    try:
        return template.format(*names)
    except (IndexError, KeyError, ValueError):  # a malformed line must not stop the game
        return template


class GameLog(RichLog, can_focus=False):
    """A scrolling log titled "Log", rewritten at once when it shows another player's lines.

    It follows the newest line unless the player has scrolled back (`page`, `to_end`, a
    mouse wheel or a phone's swipe); then
    it stays where they are and its title says how to come back. Lines wrap again when the
    log's width changes.
    """

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(
            id=id, wrap=True, markup=False, auto_scroll=True, min_width=20, max_lines=KEEP
        )
        self.ascii = ascii
        self.border_title = "Log"
        self._source: Hashable = None
        self._given: list[str] = []  # the lines last shown, whole (to add only what is new)
        self._shown: list[str] = []  # the lines on screen, to wrap again at another width
        self._width = 0

    @property
    def following(self) -> bool:
        """True while the log keeps its newest line in sight."""
        return self.auto_scroll

    def show(self, lines: Sequence[str], source: Hashable) -> None:
        """Show `lines` from `source` (whose log it is); only new lines are added when the
        lines shown are still the first of `lines` (a turn's summary goes in above its newest
        moves: then the log is written afresh)."""
        start = len(self._given)
        if source != self._source or list(lines[:start]) != self._given:
            if source != self._source:
                self._source = source
                self._follow(True)
            self.clear()
            self._shown = []
            start = max(0, len(lines) - KEEP)
        new = lines[start:]
        self._add(new)
        self._given = list(lines)
        if new:
            self._to_newest()

    def _add(self, lines: Sequence[str]) -> None:
        if lines:  # (one write: a log written afresh at a hand-off takes a third of the time)
            self.write(Text("\n").join(Text(line, style=_line_style(line)) for line in lines))
        self._shown = [*self._shown, *lines][-KEEP:]

    def _to_newest(self) -> None:
        if self.following and self.size.area:
            # Also at once, and forced: a screen under a replay's controls is not laid out again,
            # so its log's own scroll (after the next layout, and only once it has a scrollbar)
            # never comes. (Lines written before the first layout are scrolled to by `write`.)
            self.scroll_end(animate=False, immediate=True, x_axis=False, force=True)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at the new width, the newest (or the player's place) in sight."""
        width, self._width = self._width, event.size.width
        if width == event.size.width and self._shown and self.following:
            # (shorter, as when the status under the table takes a line more: the newest
            # line would be left below the box)
            self.call_after_refresh(self._to_newest)
        if not width or width == event.size.width or not self._shown:
            return  # the first size (what was written waits for it) or no change of width
        shown, self._shown = self._shown, []
        place = self.scroll_y / max(1, self.max_scroll_y)
        self.clear()
        self._add(shown)
        if self.following:
            self.call_after_refresh(self._to_newest)
        else:
            self.call_after_refresh(lambda: self.scroll_to(y=place * self.max_scroll_y))

    def page(self, pages: int) -> None:
        """Scroll back (negative) or on by whole pages; reaching the end follows again."""
        page = max(1, self.scrollable_content_region.height - 1)  # a line kept for context
        self.scroll_to(y=self.scroll_y + pages * page, animate=False, immediate=True)
        self._follow(self.scroll_y >= self.max_scroll_y)

    def to_end(self, newest: bool) -> None:
        """Jump to the oldest line kept, or back to the newest (and follow it again)."""
        if newest:
            self._follow(True)
            self.scroll_end(animate=False, immediate=True, force=True)
        else:
            self._follow(self.max_scroll_y == 0)
            self.scroll_home(animate=False, immediate=True)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """A wheel back (a swipe down the log, on a phone): the player reads there, and new
        lines do not pull the log away from it."""
        if self.max_scroll_y > 0:
            self._follow(False)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        """A wheel on: back at the newest line, the log follows it again."""
        if self.scroll_target_y >= self.max_scroll_y:
            self._follow(True)

    def _follow(self, following: bool) -> None:
        self.auto_scroll = following
        self.border_title = "Log" if following else "Log (scrolled back: End for the newest)"


def _line_style(line: str) -> str:
    if line.startswith(RECAP_HEAD):
        return "bold italic"
    if line.startswith((RECAP_MARK, "> ")):
        return "italic"
    if line.startswith("Round ") and " of " in line.split(":")[0]:
        return "bold"
    if line.startswith(("You ", "Game over")):
        return "italic"
    return ""
