"""The game log: what happened, newest at the bottom, seat numbers turned into names."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from .card import prettify

KEEP = 300  # lines kept on screen; older ones scroll away for good


def event_line(event: dict[str, Any], names: Sequence[str], ascii: bool = False) -> str:
    """An event's sentence for people: `{0} plays 10H.` -> `Sara plays 10♥.`."""
    template = prettify(str(event.get("text", "")), ascii)
    try:
        return template.format(*names)
    except (IndexError, KeyError, ValueError):  # a malformed line must not stop the game
        return template


class GameLog(RichLog, can_focus=False):
    """A scrolling log titled "Log", rewritten at once when it shows another player's lines."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; overflow-y: auto; scrollbar-size-vertical: 1; }
    """

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(
            id=id, wrap=True, markup=False, auto_scroll=True, min_width=20, max_lines=KEEP
        )
        self.ascii = ascii
        self.border_title = "Log"
        self._source: Hashable = None
        self._written = 0

    def show(self, lines: Sequence[str], source: Hashable) -> None:
        """Show `lines` from `source` (whose log it is); only new lines are added when possible."""
        if source != self._source or len(lines) < self._written:
            self.clear()
            self._source = source
            self._written = max(0, len(lines) - KEEP)
        new = lines[self._written :]
        for line in new:
            self.write(Text(line, style=_line_style(line)))
        self._written = len(lines)
        if new and self.size.area:
            # Also at once, and forced: a screen under a replay's controls is not laid out again,
            # so its log's own scroll (after the next layout, and only once it has a scrollbar)
            # never comes. (Lines written before the first layout are scrolled to by `write`.)
            self.scroll_end(animate=False, immediate=True, x_axis=False, force=True)


def _line_style(line: str) -> str:
    if line.startswith("Round ") and " of " in line.split(":")[0]:
        return "bold"
    if line.startswith(("You ", "Game over")):
        return "italic"
    return ""
